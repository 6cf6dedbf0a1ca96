"""One HTTP(S) GET (or POST) with one deadline for all of it; no redirect is ever followed."""
# One deadline for connecting, the status line, the headers and the body: a server that answers
# one byte every half second meets it (web.connection: each wait is bounded by what is left of
# it, with no thread per request). The requests sitemill makes one at a time (the previous
# state's download, an IndexNow POST) open here, each on its own connection, closed after its
# answer (a site's pages are asked by web.livesite, many at once); the first answer is the
# response, whatever its status: a redirect is an answer its caller reports (with where it
# leads), never a request to another host.

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from sitemill.errors import FetchError
from sitemill.web.connection import Clock, Connection, Route, open_connection, route

_CHUNK: Final = 64 * 1024
# The statuses that name another URL in their Location: reported, never followed.
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})

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
) -> Iterator[Opened]:
    """``deadline_open`` of a request told by its parts, on a connection for it alone (closed
    after it; the environment's proxies read for it)."""
    way = route(url, urllib.request.getproxies())
    target, sent = _target(url, way, headers)
    sent["Connection"] = "close"
    connection, clock = open_connection(way)
    clock.ends, clock.silence, clock.seconds = time.monotonic() + deadline, timeout, deadline
    try:
        response = _send(connection, clock, (method, target, sent, data))
    except BaseException:
        connection.close()
        raise
    try:
        yield response, lambda limit, *, head=False: _read_body(response, limit, head)
    finally:
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
) -> http.client.HTTPResponse:
    """The response to ``request``; URLError when ``connection`` cannot be made (or the
    request not sent on it), as urllib says it."""
    method, target, headers, data = request
    try:
        connection.connect()
        connection.request(method, target, body=data, headers=headers)
    except OSError as exc:
        if isinstance(exc, TimeoutError) and clock.last:
            raise clock.expired() from exc
        raise urllib.error.URLError(exc) from exc
    return connection.getresponse()


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
