"""One HTTP(S) GET (or POST) with one deadline for all of it; no redirect is ever followed."""
# One deadline for connecting, the status line, the headers and the body. A server that answers
# one byte every half second meets it.
#
# urllib's ``timeout`` is per socket operation, so a dripping server never trips it. Here every
# connection a request opens is remembered, and a timer shuts them all down when the deadline
# passes: whatever read was waiting returns, and the caller gets a FetchError. Proxies come from
# the environment. Every request sitemill makes to a site (a page, a sitemap, the IndexNow key
# file, the previous state) and to an engine opens here, and the first answer is the response,
# whatever its status: a redirect is an answer its caller reports (with where it leads), never a
# request to another host.

from __future__ import annotations

import contextlib
import functools
import http.client
import socket
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from sitemill.errors import FetchError

_CHUNK: Final = 64 * 1024
# The statuses that name another URL in their Location: reported, never followed.
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})


class _Connections:
    """The sockets one request opened; all shut down at once when its deadline passes."""

    def __init__(self) -> None:
        self.sockets: list[socket.socket] = []
        self.expired = False
        self.lock = threading.Lock()

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            if self.expired:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            self.sockets.append(sock)

    def expire(self) -> None:
        with self.lock:
            self.expired = True
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def _tracked(base: type[http.client.HTTPConnection], connections: _Connections) -> Any:
    class Tracked(base):  # type: ignore[valid-type,misc]
        def connect(self) -> None:
            super().connect()
            connections.add(self.sock)

    return Tracked


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The default TLS context, made once: it loads the system's CA certificates."""
    return ssl.create_default_context()


def _opener(connections: _Connections) -> urllib.request.OpenerDirector:
    """http and https only (no file:, ftp: or data: handlers), proxies from the env; no
    redirect is followed and no status is an HTTPError."""
    plain = _tracked(http.client.HTTPConnection, connections)
    secure = _tracked(http.client.HTTPSConnection, connections)
    context = _tls_context()

    class Http(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(plain, req)

    class Https(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(secure, req, context=context)

    opener = urllib.request.OpenerDirector()
    handlers: tuple[urllib.request.BaseHandler, ...] = (
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),
        Http(),
        Https(),
    )
    for handler in handlers:
        opener.add_handler(handler)
    return opener


@contextmanager
def deadline_open(
    request: urllib.request.Request, *, timeout: float, deadline: float
) -> Iterator[tuple[http.client.HTTPResponse, Callable[..., bytes]]]:
    """Open ``request``; yield the response and a ``read(limit)`` for its body. Every step,
    the body's reading included, ends by ``deadline`` seconds from now (FetchError otherwise);
    ``timeout`` bounds each silence on its own; ``read(limit, head=True)`` gives the first
    ``limit`` bytes of a longer body rather than fail. Any status is the response (a 3xx is
    not followed; an error's body is read within the deadline too), never an HTTPError;
    URLError as urllib raises it (no connection)."""
    connections = _Connections()
    timer = threading.Timer(deadline, connections.expire)
    timer.daemon = True
    timer.start()
    ends = time.monotonic() + deadline
    try:
        try:
            response = _opener(connections).open(request, timeout=timeout)
        except (OSError, http.client.HTTPException) as exc:
            _raise_if_expired(connections, deadline, exc)
            raise
        with response:
            if connections.expired:  # shut down mid-headers: http.client took EOF for their end
                raise FetchError(f"no complete answer within {deadline:g} s")

            def read(limit: int, *, head: bool = False) -> bytes:
                try:
                    body = _read_body(response, limit, ends, deadline, head)
                except (OSError, http.client.HTTPException, FetchError) as exc:
                    _raise_if_expired(connections, deadline, exc)
                    raise
                if connections.expired:  # shut down mid-body: what came is not all of it
                    raise FetchError(f"no complete answer within {deadline:g} s")
                return body

            yield response, read
    finally:
        timer.cancel()


def _raise_if_expired(connections: _Connections, deadline: float, exc: BaseException) -> None:
    if connections.expired:
        raise FetchError(f"no complete answer within {deadline:g} s") from exc


def _read_body(
    response: http.client.HTTPResponse, limit: int, ends: float, deadline: float, head: bool
) -> bytes:
    """At most ``limit`` bytes (FetchError on one more; ``head``: the first ``limit``), before
    ``ends``."""
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(min(_CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            if head:
                return b"".join(chunks)[:limit]
            raise FetchError(f"larger than {limit:,} bytes")
        if time.monotonic() > ends:
            raise FetchError(f"no complete answer within {deadline:g} s")
    if getattr(response, "length", None):  # read1 ends quietly where the connection did
        raise FetchError("the body is cut off")
    return b"".join(chunks)
