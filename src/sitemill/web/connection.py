"""HTTP(S) connections whose every wait ends by the request's deadline; a URL's route (proxies)."""
# urllib's ``timeout`` is per socket operation, so a server that answers one byte every half second
# never trips it; and urllib opens a connection per request and says ``Connection: close``. Here
# the socket itself knows when its request must be done: before each wait (connecting, each read
# of the status line, the headers, the body) its timeout is set to the silence allowed or what is
# left of the deadline, whichever is shorter, and a wait that meets the deadline is a FetchError.
# No thread watches a request. (web.transport's one-off requests; the check's many GETs go on
# asyncio's streams, web.streams, by the same routes and the same TLS context.)
#
# Proxies come from the environment as urllib reads them (``http_proxy``, ``https_proxy``,
# ``no_proxy``): an http URL is asked of the proxy by its absolute form, an https one through a
# CONNECT tunnel, credentials in the proxy's URL sent as Proxy-Authorization. A connection that
# cannot be made (DNS, refused, TLS) is a ``urllib.error.URLError`` whose reason says why.

from __future__ import annotations

import base64
import functools
import http.client
import math
import socket
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from sitemill.errors import FetchError


@dataclass
class Clock:
    """The request a connection is serving: when it must be done, the silence it allows."""

    ends: float = math.inf
    silence: float = math.inf
    seconds: float = 0.0  # the deadline as given, for the message
    last: bool = False  # the last wait armed was bounded by the deadline, not the silence

    def left(self) -> float:
        """The seconds the next wait may last; FetchError once the deadline passed."""
        left = self.ends - time.monotonic()
        if left <= 0:
            raise self.expired()
        self.last = left <= self.silence
        return min(self.silence, left)

    def arm(self, sock: socket.socket) -> None:
        sock.settimeout(self.left())

    def expired(self) -> FetchError:
        return FetchError(f"no complete answer within {self.seconds:g} s")

    def timed_out(self, exc: TimeoutError) -> FetchError | TimeoutError:
        """What a wait that timed out means: the deadline met, or a silence."""
        return self.expired() if self.last else exc


# An answer's reader takes up to this much at a time (io's default, 8 KiB, takes a page of
# 10 KB in three receives, each a poll and a recv with the GIL let go and taken back).
_BUFFER = 64 * 1024


class _Timed(socket.socket):
    """A TCP socket whose every receive waits no longer than its ``clock`` allows."""

    clock: Clock

    def makefile(self, mode: str = "r", buffering: int | None = None, **kw: Any) -> Any:
        return super().makefile(mode, buffering or _BUFFER, **kw)  # type: ignore[call-overload]

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        self.clock.arm(self)
        try:
            return super().recv_into(buffer, nbytes, flags)
        except TimeoutError as exc:
            raise self.clock.timed_out(exc) from None


class _TimedTLS(ssl.SSLSocket):
    """The same over TLS (the context makes its sockets of this class)."""

    clock: Clock

    def makefile(self, mode: str = "r", buffering: int | None = None, **kw: Any) -> Any:
        return super().makefile(mode, buffering or _BUFFER, **kw)  # type: ignore[call-overload]

    def recv_into(self, buffer: Any, nbytes: int | None = None, flags: int = 0) -> int:
        self.clock.arm(self)
        try:
            return super().recv_into(buffer, nbytes, flags)
        except TimeoutError as exc:
            raise self.clock.timed_out(exc) from None


def _connect_timed(
    address: tuple[str, int], timeout: float | None = None, source: Any = None, *, clock: Clock
) -> socket.socket:
    """socket.create_connection's loop, the socket a ``_Timed`` on ``clock``."""
    failure: OSError | None = None
    for family, kind, proto, _, where in socket.getaddrinfo(*address, 0, socket.SOCK_STREAM):
        sock = _Timed(family, kind, proto)
        sock.clock = clock
        try:
            sock.settimeout(clock.left())
            sock.connect(where)
            return sock
        except OSError as exc:
            failure = exc
            sock.close()
    raise failure or OSError(f"no address for {address[0]}")


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The default TLS context, made once (it loads the system's CA certificates)."""
    context = ssl.create_default_context()
    context.sslsocket_class = _TimedTLS
    return context


class _Secure(http.client.HTTPSConnection):
    clock: Clock

    def connect(self) -> None:
        # (the TLS handshake is one wait: CPython bounds all of it by the socket's timeout)
        super().connect()
        self.sock.clock = self.clock  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class Route:
    """Where a URL's requests go: the origin's host and port, or a proxy's, and the target
    written in the request line."""

    secure: bool
    host: str
    port: int
    tunnel: str = ""  # host:port through a proxy's CONNECT (https)
    absolute: bool = False  # the request line names the whole URL (http via a proxy)
    proxy_auth: str = ""


def route(url: str, proxies: dict[str, str]) -> Route:
    """How ``url`` is reached with ``proxies`` (urllib.request.getproxies())."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host, port = parts.hostname or "", parts.port or (443 if secure else 80)
    proxy = proxies.get(parts.scheme, "")
    if not proxy or urllib.request.proxy_bypass(parts.netloc):
        return Route(secure, host, port)
    where = urlsplit(proxy if "://" in proxy else "http://" + proxy)
    auth = ""
    if where.username and where.password:  # (as urllib: both, or no header)
        pair = f"{unquote(where.username)}:{unquote(where.password)}".encode()
        auth = "Basic " + base64.b64encode(pair).decode("ascii")
    proxied = where.hostname or "", where.port or 80
    if secure:
        named = f"[{host}]" if ":" in host else host  # (an IPv6 literal)
        return Route(True, *proxied, tunnel=f"{named}:{port}", proxy_auth=auth)
    return Route(False, *proxied, absolute=True, proxy_auth=auth)


Connection = http.client.HTTPConnection


def open_connection(way: Route) -> tuple[Connection, Clock]:
    """A connection along ``way`` (not yet connected), and the clock of its requests."""
    clock = Clock()
    connection: Connection
    if way.secure:
        connection = _Secure(way.host, way.port, context=_tls_context())
        connection.clock = clock
        if way.tunnel:
            auth = {"Proxy-Authorization": way.proxy_auth} if way.proxy_auth else None
            connection.set_tunnel(way.tunnel, headers=auth)
    else:
        connection = http.client.HTTPConnection(way.host, way.port)
    connection._create_connection = functools.partial(_connect_timed, clock=clock)  # type: ignore[attr-defined]
    return connection, clock
