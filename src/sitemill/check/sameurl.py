"""When two URLs a page names are one: scheme and host in any case, default port, escapes."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit


def url_key(url: str) -> tuple[str, str, str, str]:
    """What names the resource: the scheme and host lower-cased, a default port dropped,
    the path's escapes decoded ("/" for none), the query; no user info, no fragment."""
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
    return url_key(one) == url_key(other)
