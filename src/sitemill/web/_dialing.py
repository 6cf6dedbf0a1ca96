"""A URL's route (the environment's proxies) and its connection, made within a request's waits:
resolved, connected, tunnelled, TLS."""
# Proxies come from the environment as urllib reads them (``http_proxy``, ``https_proxy``,
# ``no_proxy``): an http URL is asked of the proxy by its absolute form, an https one through a
# CONNECT tunnel, credentials in the proxy's URL sent as Proxy-Authorization. Sockets are made as
# urllib makes them (socket.create_connection's loop over the addresses, a proxy's CONNECT as
# http.client sends it, the default TLS context and its checks), on asyncio's streams (every
# request goes on them, web.streams); a connection that cannot be made (DNS, refused, TLS) is a
# ``urllib.error.URLError`` whose reason says it as the socket module says it.

from __future__ import annotations

import asyncio
import base64
import functools
import ipaddress
import os
import socket
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from sitemill.web._waits import Waits
from sitemill.web.answers import BLANK, LINE, read_status


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The default TLS context, made once (it loads the system's CA certificates)."""
    return ssl.create_default_context()


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


Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def open_stream(way: Route, waits: Waits) -> Stream:
    """A connection along ``way``: through a proxy's tunnel, over TLS when secure; URLError
    when none can be made."""
    try:
        sock = await _connected(way.host, way.port, waits)
        tls: Any = _tls_context() if way.secure else None
        if not way.tunnel:
            name = way.host if tls else None
            waits.arm()
            return await asyncio.open_connection(
                sock=sock, limit=LINE, ssl=tls, server_hostname=name
            )
        reader, writer = await asyncio.open_connection(sock=sock, limit=LINE)
        await _tunnel(reader, writer, way, waits)
        waits.arm()
        await writer.start_tls(tls, server_hostname=way.tunnel.rpartition(":")[0].strip("[]"))
        return reader, writer
    except (OSError, EOFError) as exc:
        raise urllib.error.URLError(_plain(exc)) from exc


async def _connected(host: str, port: int, waits: Waits) -> socket.socket:
    """A socket connected to ``host:port``, each address tried in turn (as
    socket.create_connection)."""
    loop = asyncio.get_running_loop()
    waits.arm()
    try:
        ipaddress.ip_address(host)
        found = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)  # (a number: no lookup)
    except ValueError:
        found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    failure: OSError | None = None
    for family, kind, proto, _, where in found:
        sock = socket.socket(family, kind, proto)
        sock.setblocking(False)
        try:
            waits.arm()
            await loop.sock_connect(sock, where)
            return sock
        except OSError as exc:
            failure = exc
            sock.close()
        except BaseException:
            sock.close()
            raise
    raise failure or OSError(f"no address for {host}")


async def _tunnel(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, way: Route, waits: Waits
) -> None:
    """A proxy's CONNECT to ``way.tunnel`` (OSError when it answers other than 200)."""
    auth = f"Proxy-Authorization: {way.proxy_auth}\r\n" if way.proxy_auth else ""
    writer.write(f"CONNECT {way.tunnel} HTTP/1.0\r\n{auth}\r\n".encode("latin-1"))
    status = await read_status(reader, waits)
    if status.code != 200:
        raise OSError(f"Tunnel connection failed: {status.code} {status.reason.strip()}")
    while True:
        waits.arm()
        if (await reader.readline()) in BLANK:
            return


def _plain(exc: BaseException) -> BaseException:
    """The error as the socket module says it (asyncio's connect says "Connect call failed")."""
    if isinstance(exc, OSError) and exc.errno and "Connect call failed" in str(exc):
        return OSError(exc.errno, os.strerror(exc.errno))
    return exc
