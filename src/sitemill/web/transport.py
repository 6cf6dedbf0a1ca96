"""One HTTP(S) GET (or POST) with one deadline for all of it; no redirect is ever followed."""
# One deadline for connecting, the status line, the headers and the body: a server that answers
# one byte every half second meets it (web.connection: each wait is bounded by what is left of
# it, with no thread per request). Every request sitemill makes to a site (a page, a sitemap, the
# IndexNow key file, the previous state) and to an engine opens here, and the first answer is the
# response, whatever its status: a redirect is an answer its caller reports (with where it
# leads), never a request to another host. Given a ``Pool``, the connection is taken from it and
# given back once its answer was read whole (the check's many GETs of one site); else it is
# closed after its one answer.

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from sitemill.errors import FetchError
from sitemill.web.connection import Clock, Connection, Pool, Route

_CHUNK: Final = 64 * 1024
# An answer's unread body up to this size is read to keep its connection (a 404's page).
_DRAIN: Final = 64 * 1024
# The statuses that name another URL in their Location: reported, never followed.
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})
# A kept connection the server closed meanwhile fails this way before any answer: asked again.
_STALE: Final = (ConnectionError, http.client.BadStatusLine)

Opened = tuple[http.client.HTTPResponse, Callable[..., bytes]]


@contextmanager
def deadline_open(
    request: urllib.request.Request, *, timeout: float, deadline: float
) -> Iterator[Opened]:
    """Open ``request``; yield the response and a ``read(limit)`` for its body. Every step,
    the body's reading included, ends by ``deadline`` seconds from now (FetchError otherwise);
    ``timeout`` bounds each silence on its own; ``read(limit, head=True)`` gives the first
    ``limit`` bytes of a longer body rather than fail. Any status is the response (a 3xx is
    not followed; an error's body is read within the deadline too), never an HTTPError;
    URLError when no connection could be made."""
    headers = {name.title(): value for name, value in request.header_items()}  # (as urllib)
    method, url, data = request.get_method(), request.full_url, request.data
    if data is not None and not isinstance(data, bytes):
        raise TypeError("a request's data is bytes")
    with exchange(method, url, headers, data, timeout=timeout, deadline=deadline) as opened:
        yield opened


@contextmanager
def exchange(
    method: str,
    url: str,
    headers: Mapping[str, str],
    data: bytes | None = None,
    *,
    timeout: float,
    deadline: float,
    pool: Pool | None = None,
) -> Iterator[Opened]:
    """``deadline_open`` of a request told by its parts, its connection from ``pool`` (else
    one for this request alone, closed after it)."""
    alone = pool is None
    pool = pool or Pool()
    way = pool.route(url)
    target, sent = _target(url, way, headers)
    if alone:
        sent["Connection"] = "close"
    ends = time.monotonic() + deadline
    taken = pool.take(way)
    while True:
        connection, clock = taken or pool.opening(way)
        clock.ends, clock.silence, clock.seconds = ends, timeout, deadline
        try:
            response = _send(connection, clock, (method, target, sent, data), fresh=not taken)
            break
        except _STALE:
            connection.close()
            if not taken or data is not None:  # (a POST is never sent twice)
                raise
            taken = None
        except BaseException:
            connection.close()
            raise
    kept = False
    try:
        yield response, lambda limit, *, head=False: _read_body(response, limit, head)
        kept = not alone and _reusable(response)
    finally:
        if kept:
            pool.give(way, connection, clock)
        else:
            response.close()  # (a response the server closes holds the socket, not the connection)
            connection.close()


def _target(url: str, way: Route, headers: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """The request line's target, and the headers with a proxy's credentials."""
    sent = dict(headers)
    if way.absolute:
        if way.proxy_auth:
            sent["Proxy-Authorization"] = way.proxy_auth
        return url, sent
    rest = url.split("/", 3)[3:]
    return "/" + (rest[0] if rest else ""), sent


def _send(
    connection: Connection,
    clock: Clock,
    request: tuple[str, str, dict[str, str], bytes | None],
    *,
    fresh: bool,
) -> http.client.HTTPResponse:
    """The response to ``request``; URLError when ``connection`` cannot be made (or the
    request not sent on a new one), as urllib says it."""
    method, target, headers, data = request
    if fresh:
        try:
            connection.connect()
            connection.request(method, target, body=data, headers=headers)
        except OSError as exc:
            if isinstance(exc, TimeoutError) and clock.last:
                raise clock.expired() from exc
            raise urllib.error.URLError(exc) from exc
    else:
        clock.arm(connection.sock)
        connection.request(method, target, body=data, headers=headers)
    return connection.getresponse()


def _reusable(response: http.client.HTTPResponse) -> bool:
    """Whether the answer's connection can carry the next request: the server keeps it, and
    its body is read whole (what is left read here, when small)."""
    if response.will_close:
        return False
    if not response.isclosed():
        if response.length is None or response.length > _DRAIN:
            return False
        try:
            response.read()
        except (FetchError, OSError, http.client.HTTPException):
            return False
    return response.isclosed()


def _read_body(response: http.client.HTTPResponse, limit: int, head: bool) -> bytes:
    """At most ``limit`` bytes (FetchError on one more; ``head``: the first ``limit``)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(min(_CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            if head:
                return b"".join(chunks)[:limit]
            raise FetchError(f"larger than {limit:,} bytes")
    if getattr(response, "length", None):  # read1 ends quietly where the connection did
        raise FetchError("the body is cut off")
    return b"".join(chunks)
