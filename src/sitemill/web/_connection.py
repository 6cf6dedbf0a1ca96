"""A URL's route (the environment's proxies) and the TLS context of every connection."""
# Proxies come from the environment as urllib reads them (``http_proxy``, ``https_proxy``,
# ``no_proxy``): an http URL is asked of the proxy by its absolute form, an https one through a
# CONNECT tunnel, credentials in the proxy's URL sent as Proxy-Authorization. A connection that
# cannot be made (DNS, refused, TLS) is a ``urllib.error.URLError`` whose reason says why
# (web.dialing makes the connections; every request goes on asyncio's streams, web.streams).

from __future__ import annotations

import base64
import functools
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


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
