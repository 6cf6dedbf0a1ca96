"""How an answer was served: its status as a problem, its media type, a cache's fix; and when
two URLs a page names are one (scheme and host in any case, default port, escapes)."""
# Shared by the sitemap files, the llms files, the pages and the IndexNow key file. A redirect is
# never followed: where it leads is said, with the url_style that would have listed that URL when
# the host only adds a trailing slash or strips ".html". A copy that is not this build's is a
# cache's: the fix names the path to invalidate, and the command when the answer came through
# CloudFront.

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.urls import join_url
from sitemill.web.livesite import REDIRECTS, LiveAnswer

_GONE: Final = frozenset({404, 410})
# What keeps a URL's path from being its key's as written: anything but printable ASCII, and space,
# "#", "%" and "?"; its host's: anything but lower-case letters, digits and a few signs.
_NOT_PLAIN_PATH: Final = re.compile(r'[^!"$&->@-~]')
_NOT_PLAIN_HOST: Final = re.compile(r"[^a-z0-9._~!$&'()*+,;=-]")


def media_type(answer: LiveAnswer) -> str:
    """The Content-Type without its parameters, lower-cased ("" when none)."""
    return answer.header("Content-Type").partition(";")[0].strip().lower()


def redirect_target(answer: LiveAnswer) -> str:
    """Where a redirect leads, absolute ("" when it names nowhere, or nothing urllib.parse
    reads: as if absent)."""
    location = answer.header("Location").strip()
    return (join_url(answer.url, location) or "") if location else ""


def status_problem(answer: LiveAnswer, *, what: str) -> tuple[str, str] | None:
    """What is wrong when ``answer`` is no 200 (what, fix); None for a 200."""
    if answer.status == 200:
        return None
    if answer.status is None:
        return (f"no answer ({answer.problem})", f"make sure the host serves the {what}")
    if answer.status in REDIRECTS:
        target = redirect_target(answer)
        return (
            f"answers {answer.status}, a redirect to {target or 'nowhere'} (not followed)",
            _redirect_fix(answer.url, target, what),
        )
    if answer.status in _GONE:
        return (
            f"answers {answer.status} (not found)",
            f"deploy the build this sitemap was made from (a {what} renamed or not uploaded?)",
        )
    return (f"answers HTTP {answer.status}", f"make the host serve the {what} with 200")


def _redirect_fix(url: str, target: str, what: str) -> str:
    if target == url + "/":
        return 'the host adds a trailing slash: set url_style = "directory" and rebuild'
    if url.endswith(".html") and target in (url[: -len(".html")], url[: -len("index.html")]):
        style = "directory" if url.endswith("/index.html") else "clean"
        return f'the host strips .html: set url_style = "{style}" and rebuild'
    if target and urlsplit(target).netloc != urlsplit(url).netloc:
        return f"the {what} redirects to another host: list URLs on the host that serves them"
    return f"list the URL the {what} is served at, or serve it here without a redirect"


def cache_fix(answer: LiveAnswer) -> str:
    """The fix for a copy that is not this build's: a cache to invalidate, or a deploy."""
    path = urlsplit(answer.url).path or "/"
    via = (answer.header("Via") + " " + answer.header("X-Cache")).lower()
    if "cloudfront" in via or answer.header("X-Amz-Cf-Id"):
        return (
            "CloudFront serves an older copy: aws cloudfront create-invalidation "
            f"--distribution-id <ID> --paths '{path}' (or wait for its max-age)"
        )
    return (
        f"a cache serves an older copy: invalidate {path} (or wait for its max-age), "
        "or deploy this build"
    )


def copy_age(answer: LiveAnswer) -> str:
    """How old the copy served is, as the response says: its Age and Last-Modified."""
    said = []
    age = answer.header("Age").strip()
    if age.isdigit():
        said.append(f"a cached copy {int(age):,} s old")
    modified = answer.header("Last-Modified").strip()
    if modified:
        said.append(f"Last-Modified {modified[:40]}")
    return ", ".join(said) or "an older copy, of no stated age"


def robots_header_noindex(value: str) -> bool:
    """Whether an X-Robots-Tag header value says noindex (or none) to every crawler or to
    one named: ``noindex``, ``googlebot: noindex, nofollow``, ``none``."""
    for part in value.split(","):
        token = part.strip().lower()
        name, colon, rest = token.partition(":")
        if colon and name.strip() not in ("unavailable_after",) and " " not in name.strip():
            token = rest.strip()
        if token in ("noindex", "none"):
            return True
    return False


def resource_key(url: str) -> tuple[str, str, str, str]:
    """What names the resource: the scheme and host lower-cased, a default port dropped,
    the path's escapes decoded ("/" for none), the query; no user info, no fragment."""
    return _plain_key(url) or _parsed_key(url)


def _plain_key(url: str) -> tuple[str, str, str, str] | None:
    """The key of a URL that is written as its key (http or https, a lower-case host with
    no port or user, a path with no escape, no query or fragment, nothing urlsplit strips):
    most of a site's URLs, read off as they are, in a fifth of urlsplit's time; else None."""
    if url.startswith("https://"):
        scheme, rest = "https", url[8:]
    elif url.startswith("http://"):
        scheme, rest = "http", url[7:]
    else:
        return None
    host, slash, path = rest.partition("/")
    if not host or _NOT_PLAIN_HOST.search(host) or _NOT_PLAIN_PATH.search(path):
        return None
    return scheme, host, slash + path or "/", ""


def _parsed_key(url: str) -> tuple[str, str, str, str]:
    try:
        parts = urlsplit(url)
    except ValueError:  # (an unclosed "[": a page's href may be anything)
        return "", "", url, ""
    scheme = parts.scheme.lower()
    host = parts.netloc.rpartition("@")[2].lower()
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    if default and host.endswith(default):
        host = host[: -len(default)]
    return scheme, host, unquote(parts.path or "/"), parts.query


def same_url(one: str, other: str) -> bool:
    return resource_key(one) == resource_key(other)
