"""IndexNow's step in a check: its key file is live on the site's own host."""
# Engines read ``<key>.txt`` before they accept an announcement, and count a missing or wrong one
# against the site. It must answer 200 itself (no redirect: some engines follow none), as
# text/plain, with the key and nothing else but white space; and stand on the host of the site's
# URLs. The key is a secret to every message (messages.register_secret): its file's URL is shown as
# ``***.txt``.

from __future__ import annotations

from sitemill.check.problems import KEY_FILE, CheckReport
from sitemill.check.served import media_type, status_problem
from sitemill.config.model import Config
from sitemill.indexnow._post import KEY_FILE_LIMIT
from sitemill.indexnow.run import settings_of
from sitemill.messages import register_secret
from sitemill.urls import url_origin
from sitemill.web.livesite import OFF_SITE, LiveSite


def check_key_file(site: LiveSite, config: Config, report: CheckReport) -> bool:
    """Whether the key file is live; a problem says what is wrong when it is not (after the
    pages: no engine accepts an announcement without it, so nothing passes then)."""
    key = config.indexnow_key
    register_secret(key)
    origin = url_origin(config.base_url)
    location = settings_of(config).location_for(origin)
    answer = site.get(location, KEY_FILE_LIMIT, head=True)
    if answer.problem == OFF_SITE:
        report.key_files[location] = "not on the site's host"
        report.add(
            location,
            KEY_FILE,
            "is not on the site's host, where engines read it",
            "set indexnow_key_location to a URL on the site's host, or leave it unset",
        )
        return False
    problem = status_problem(answer, what="IndexNow key file")
    if problem is None and media_type(answer) != "text/plain":
        served = media_type(answer) or "no Content-Type"
        problem = (
            f"is served as {served}, not text/plain",
            "serve the key file as text/plain (S3: --content-type text/plain)",
        )
    if problem is None and _text(answer.body) != key:
        problem = (
            "does not hold the key",
            "put the key alone in the file (indexnow_write_key_file = true writes it)",
        )
    report.key_files[location] = None if problem is None else problem[0]
    if problem is not None:
        report.add(location, KEY_FILE, *problem)
        return False
    return True


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        return ""
