"""The two requests of an IndexNow announcement: the key file's GET and the engine's POST."""
# Both run under one deadline for the whole request, the body read bounded; a 2xx answer cut by
# it (its headers or its body) is no answer, whatever its status line said. The GET
# is a request to the site, asked as `sitemill check` asks it (web.livesite.LiveSite: the site's
# origin only, no redirect followed: a key file that redirects is not live, and another host is
# never asked); the POST (web.livesite.exchange) follows no redirect either (a 3xx is an answer
# like any other; the body of an answer that is not 2xx is only quoted). Neither raises: what
# went wrong is a short reason, one line, for a message.

from __future__ import annotations

import contextlib
import http.client
import json
import urllib.error
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Final
from urllib.parse import urljoin

from sitemill.errors import FetchError, SitemillError
from sitemill.urls import url_origin
from sitemill.version import __version__
from sitemill.web.livesite import REDIRECTS, Limits, LiveSite, exchange

KEY_FILE_LIMIT: Final = 1024  # bytes of a key file read (a key is at most 128 characters)
ANSWER_LIMIT: Final = 4 * 1024  # bytes of an engine's answer read, to quote in a message
MAX_RETRY_WAIT: Final = 30.0  # seconds: the longest one wait after a 429, whatever it asks
MIN_RETRY_WAIT: Final = 1.0  # and the shortest (a "Retry-After: 0" is no reason to hammer)
_EXCERPT: Final = 200
_ACCEPTED: Final = range(200, 300)


@dataclass(frozen=True, slots=True)
class Answer:
    """An engine's answer to one POST."""

    status: int | None  # None: no answer (``detail`` says why)
    detail: str = ""  # the body of an answer that is not 2xx, one line, bounded; or why none
    retry_after: str | None = None  # the Retry-After header, as sent


def key_file_problem(location: str, key: str, *, timeout: float, deadline: float) -> str | None:
    """Why the key file at ``location`` does not hold ``key`` (UTF-8, a BOM and white space
    around allowed); None when it does. The reason may quote the key: redact it."""
    limits = Limits(concurrency=1, timeout=timeout, request_deadline=deadline)
    try:
        origin = url_origin(location)
    except (SitemillError, ValueError):
        return "not an http(s) URL"
    answer = LiveSite(frozenset({origin}), limits).get(location, KEY_FILE_LIMIT)
    if answer.status is None:
        return answer.problem
    if answer.status in REDIRECTS:
        target = answer.header("Location").strip()
        where = _one_line(urljoin(location, target)) if target else "nowhere"
        return f"HTTP {answer.status}, a redirect to {where} (not followed)"
    if answer.status != 200:
        return f"HTTP {answer.status}"
    if answer.problem:  # (a 200 whose body was too large)
        return answer.problem
    try:
        text = answer.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    return None if text.strip() == key else "it does not hold the key"


def post(endpoint: str, body: dict[str, object], *, timeout: float, deadline: float) -> Answer:
    """One POST of ``body`` as JSON, its redirects not followed: the answer's status, and
    its body (bounded, one line) when not 2xx. The detail may quote the key: redact it."""
    from sitemill.web.answers import BodyWanted  # (asyncio: imported when a batch is sent)

    data = json.dumps(body, separators=(",", ":")).encode("utf-8")
    headers = {
        "User-Agent": f"sitemill/{__version__}",
        "Content-Type": "application/json; charset=utf-8",
    }
    # (a 2xx is accepted once the whole answer came within the deadline; another's body, the
    # status being the answer, is only quoted: none when it did not come whole)
    reading = BodyWanted(ANSWER_LIMIT, statuses=_ACCEPTED, quote=ANSWER_LIMIT)
    try:
        reply = exchange("POST", endpoint, headers, reading, data, timeout=timeout,
                         deadline=deadline)  # fmt: skip
    except (FetchError, OSError, http.client.HTTPException, ValueError) as exc:
        return Answer(None, _why(exc, timeout))
    if reply.status in _ACCEPTED:
        return Answer(reply.status)
    detail = _one_line(reply.body.decode("utf-8", "replace"))
    return Answer(reply.status, detail, reply.header("Retry-After"))


def retry_wait(retry_after: str | None, attempt: int, now: float) -> float:
    """Seconds to wait before try ``attempt + 1`` after a 429: what Retry-After asks (seconds
    or an HTTP date, ``now`` the epoch time), else 1, 2, 4, ...; between MIN_RETRY_WAIT and
    MAX_RETRY_WAIT."""
    wait = float(2 ** min(attempt, 16))
    text = (retry_after or "").strip()
    if text.isdigit():
        wait = float(text)
    elif text:
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            wait = max(0.0, parsedate_to_datetime(text).timestamp() - now)
    return min(max(wait, MIN_RETRY_WAIT), MAX_RETRY_WAIT)


def _why(exc: BaseException, timeout: float) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(exc, urllib.error.URLError):
        return _one_line(exc.reason)
    return _one_line(exc) or type(exc).__name__


def _one_line(value: object) -> str:
    return " ".join(str(value).split())[:_EXCERPT]
