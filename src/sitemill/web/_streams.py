"""Requests on asyncio streams: connections kept alive, every wait and each body read bounded."""
# sitemill's one HTTP client (web.livesite): one event loop in the calling thread, no thread per
# request or per connection (a host's name is resolved by asyncio's resolver thread; an IP address
# needs none). Every wait (connecting, a proxy's CONNECT, the TLS handshake, each read) ends by the
# request's deadline or its silence, whichever is sooner, and ends as a socket's timeout ends it
# under urllib: a connection that cannot be made (or a request not sent on a new one) is a
# URLError, a deadline met a FetchError, a silence a TimeoutError. Routes and proxies are
# web.dialing's; the answer is read as http.client reads it (web.answers). A connection whose
# answer was read whole goes back to ``Streams`` for the next request to its origin.

from __future__ import annotations

import asyncio
import functools
import http.client
import re
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from sitemill.web._dialing import Route, Stream, open_stream, route
from sitemill.web._waits import Waits, Watch
from sitemill.web.answers import BodyWanted, Reply, read_head, read_reply, read_status

# A kept connection the server closed meanwhile fails this way before any answer: asked again.
_STALE: Final = (ConnectionError, http.client.BadStatusLine)
# What http.client refuses in a request's target.
_DISALLOWED: Final = re.compile("[\x00-\x20\x7f]")


@dataclass
class Streams:
    """Idle connections by route, each taken by one request at a time; ``opened`` counts
    those made. ``proxies``: the environment's (urllib.request.getproxies()), read once."""

    proxies: dict[str, str] = field(default_factory=urllib.request.getproxies)
    opened: int = 0
    watch: Watch = field(default_factory=Watch)
    _routes: dict[str, Route] = field(default_factory=dict)
    _idle: dict[str, list[Stream]] = field(default_factory=dict)  # (by origin)
    _heads: dict[tuple[str, tuple[tuple[str, str], ...]], bytes] = field(default_factory=dict)

    def route(self, origin: str) -> Route:
        """How ``origin`` (``scheme://host[:port]``) is reached."""
        found = self._routes.get(origin)
        if found is None:
            found = self._routes[origin] = route(origin + "/", self.proxies)
        return found

    def request(
        self, url: str, origin: str, headers: Mapping[str, str], method: str = "GET"
    ) -> bytes:
        """A request of ``url`` (on ``origin``): its request line, then its headers' block,
        made once for each origin and headers."""
        way = self.route(origin)
        key = (origin, tuple(headers.items()))
        block = self._heads.get(key)
        if block is None:
            block = self._heads[key] = _headers(origin, way, headers)
        target = url if way.absolute else url[len(origin) :] or "/"
        if found := _DISALLOWED.search(target):
            said = f"{target!r} (found at least {found.group()!r})"
            raise http.client.InvalidURL(f"URL can't contain control characters. {said}")
        return f"{method} {target} HTTP/1.1\r\n".encode("ascii") + block

    async def ask(
        self, url: str, headers: Mapping[str, str], reading: BodyWanted, **bounds: Any
    ) -> Reply:
        """``ask`` on these connections (``bounds``: its timeout, deadline, method, data)."""
        return await ask(self, url, headers, reading, **bounds)

    def take(self, origin: str) -> Stream | None:
        idle = self._idle.get(origin)
        while idle:
            stream = idle.pop()
            if not stream[0].at_eof() and not stream[1].is_closing():
                return stream
            stream[1].transport.abort()
        return None

    def give(self, origin: str, stream: Stream) -> None:
        self._idle.setdefault(origin, []).append(stream)

    def close(self) -> None:
        idle, self._idle = self._idle, {}
        for streams in idle.values():
            for _, writer in streams:
                writer.transport.abort()


async def ask(
    streams: Streams,
    url: str,
    headers: Mapping[str, str],
    reading: BodyWanted,
    *,
    timeout: float,
    deadline: float,
    method: str = "GET",
    data: bytes = b"",
) -> Reply:
    """The answer to a request of ``url`` (``data`` its body): its status, headers, and the
    body ``reading`` asks for. Any status is the answer (a redirect is never followed)."""
    origin = "/".join(url.split("/", 3)[:3])  # (scheme://host[:port])
    request = streams.request(url, origin, headers, method)
    if data:
        request += data
    waits = streams.watch.start(deadline, timeout)
    try:
        waits.arm()
        return await _exchange(streams, origin, request, waits, reading)
    except asyncio.CancelledError:
        if not waits.spent():
            raise
        if waits.last:
            raise waits.expired() from None
        if waits.connecting:
            raise urllib.error.URLError(TimeoutError("timed out")) from None
        raise TimeoutError("timed out") from None
    finally:
        streams.watch.stop(waits)


async def _exchange(
    streams: Streams, origin: str, request: bytes, waits: Waits, reading: BodyWanted
) -> Reply:
    taken = streams.take(origin)
    while True:
        stream = taken or await open_stream(streams.route(origin), waits)
        if taken is None:
            streams.opened += 1
        reader, writer = stream
        try:
            writer.write(request)
            waits.connecting = False
            status = await read_status(reader, waits)
            break
        except _STALE:
            writer.transport.abort()
            if taken is None:
                raise
            taken = None
            waits.connecting = True
        except BaseException:
            writer.transport.abort()
            raise
    kept = False
    try:
        reply = await read_head(reader, status, waits)
        kept = await read_reply(reader, reply, reading, waits)
        return reply
    finally:
        if kept:
            streams.give(origin, stream)
        else:
            writer.transport.abort()


def _headers(origin: str, way: Route, headers: Mapping[str, str]) -> bytes:
    """A request's headers: Host, ``headers`` and a proxy's credentials, as http.client writes
    them, and the blank line."""
    scheme, _, authority = origin.partition("//")
    lines = [] if "Host" in headers else [f"Host: {_host(scheme, authority)}"]
    lines.extend(f"{name}: {value}" for name, value in headers.items())
    if way.absolute and way.proxy_auth:
        lines.append(f"Proxy-Authorization: {way.proxy_auth}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


@functools.lru_cache(maxsize=64)
def _host(scheme: str, authority: str) -> str:
    """The Host header of a URL's authority, without its default port (as http.client)."""
    parts = urlsplit(f"{scheme}//{authority}")
    host = parts.hostname or ""
    if not host.isascii():
        host = host.encode("idna").decode("ascii")
    named = f"[{host}]" if ":" in host else host
    default = 443 if scheme == "https:" else 80
    return named if parts.port in (None, default) else f"{named}:{parts.port}"
