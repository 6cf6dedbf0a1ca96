"""Downloading the live site's copy of the state: bounded, and every failure one line."""
# Apart from state.previous so that the web client (asyncio, ssl) loads only when a previous state
# is fetched (a Lambda cold start never fetches one).

from __future__ import annotations

import http.client
import logging
import urllib.error
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urljoin

from sitemill.bounded.inflate import CUT_OFF, GZIP_MAGIC, PAST_LIMIT, inflate
from sitemill.errors import FetchError, InflateError, StateError
from sitemill.filenames.outputs import MAX_STATE_READ_BYTES
from sitemill.messages import redact
from sitemill.version import __version__
from sitemill.web.livesite import REDIRECTS, exchange

if TYPE_CHECKING:
    from sitemill.web.answers import Reply

log = logging.getLogger("sitemill.state.previous")

DEFAULT_TIMEOUT: Final = 10.0  # seconds per connect or read
DEFAULT_DEADLINE: Final = 60.0  # seconds for all of it: connect, headers, body
_GONE: Final = frozenset({404, 410})


def fetch_url(
    url: str, *, timeout: float = DEFAULT_TIMEOUT, limit: int = MAX_STATE_READ_BYTES
) -> bytes | None:
    """``download``, where what goes wrong is a one-line warning and None: a previous state
    named explicitly that is not there (404, 410) too."""
    try:
        data = download(url, timeout=timeout, limit=limit)
    except StateError as exc:
        log.warning("%s; a first run", exc)
        return None
    if data is None:
        log.warning("no previous state at %s (HTTP 404 or 410); a first run", redact(url))
    return data


def download(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int = MAX_STATE_READ_BYTES,
    deadline: float = DEFAULT_DEADLINE,
) -> bytes | None:
    """The bytes of the .gz file at ``url``, None for a 404 or 410; StateError, one line, for
    any other answer (a redirect is not followed, as no request to a site is: the line says
    where it leads), a DNS, TLS or connection failure, ``timeout`` seconds of silence, an
    answer not complete within ``deadline`` seconds (connecting, headers and body), or one of
    more than ``limit`` bytes."""
    from sitemill.web.answers import BodyWanted  # (asyncio: imported when a state is fetched)

    headers = {
        "User-Agent": f"sitemill/{__version__}",
        "Accept": "application/gzip, application/octet-stream;q=0.9, */*;q=0.5",
        "Accept-Encoding": "gzip",
    }
    what = f"cannot fetch the previous state {redact(url)}"
    try:
        reply = exchange("GET", url, headers, BodyWanted(limit), timeout=timeout, deadline=deadline)
        status = reply.status
        if status in _GONE:
            return None
        answered = _answered(url, status, reply) if status != 200 else None
        body = reply.body
        encoding = reply.header("Content-Encoding") or ""
    except FetchError as exc:
        raise StateError(f"{what}: {exc}") from exc
    except urllib.error.URLError as exc:
        raise StateError(f"{what}: {_one_line(exc.reason)}") from exc
    except TimeoutError as exc:
        raise StateError(f"{what}: no answer within {timeout:g} s") from exc
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise StateError(f"{what}: {_one_line(exc) or type(exc).__name__}") from exc
    if answered is not None:
        raise StateError(f"{what}: {answered}")
    return _decoded(body, encoding, limit, what)


def _answered(url: str, status: int, reply: Reply) -> str:
    """What an answer other than 200 says: its status, and where a redirect leads."""
    if status not in REDIRECTS:
        return f"HTTP {status} {_one_line(reply.reason)}".rstrip()
    location = (reply.header("Location") or "").strip()
    target = _one_line(urljoin(url, location)) if location else "nowhere"
    return (
        f"HTTP {status}, a redirect to {redact(target)} (not followed: set previous_state "
        "to the URL it leads to, if that is the site's)"
    )


def _decoded(body: bytes, encoding: str, limit: int, what: str) -> bytes:
    """The bytes of the .gz file, whichever way the server sent it.

    Without a Content-Encoding (GitHub Pages: application/gzip) the body is the file. With
    ``Content-Encoding: gzip`` the server either declared the file itself as gzip-encoded
    JSON (S3 with ContentEncoding metadata; decoding gives JSON: the body is the file) or
    compressed the file once more on the fly (decoding gives the file: gzip again).
    """
    codings = [part.strip().lower() for part in encoding.split(",")]
    codings = [coding for coding in codings if coding and coding != "identity"]
    if not codings:
        return body
    if codings not in (["gzip"], ["x-gzip"]):
        raise StateError(f"{what}: unexpected Content-Encoding {_one_line(encoding)!r}")
    try:
        inner = inflate(body, limit)
    except InflateError as exc:
        if exc.kind == PAST_LIMIT:
            raise StateError(
                f"{what}: larger than {limit:,} bytes decoded, so not one sitemill wrote"
            ) from exc
        if exc.kind == CUT_OFF:
            raise StateError(f"{what}: Content-Encoding gzip, but the body is cut off") from exc
        raise StateError(f"{what}: Content-Encoding gzip, but {exc}") from exc
    return inner if inner.startswith(GZIP_MAGIC) else body


def _one_line(value: Any) -> str:
    return " ".join(str(value).split())[:300]
