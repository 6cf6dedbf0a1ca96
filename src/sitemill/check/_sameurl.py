"""When two URLs a page names are one: scheme and host in any case, default port, escapes."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote, urlsplit

# What keeps a URL's path from being its key's as written: anything but printable ASCII, and space,
# "#", "%" and "?"; its host's: anything but lower-case letters, digits and a few signs.
_NOT_PLAIN_PATH: Final = re.compile(r'[^!"$&->@-~]')
_NOT_PLAIN_HOST: Final = re.compile(r"[^a-z0-9._~!$&'()*+,;=-]")


def resource_key(url: str) -> tuple[str, str, str, str]:
    """What names the resource: the scheme and host lower-cased, a default port dropped,
    the path's escapes decoded ("/" for none), the query; no user info, no fragment."""
    return _plain_key(url) or _parsed_key(url)


def _plain_key(url: str) -> tuple[str, str, str, str] | None:
    """The key of a URL that is written as its key (http or https, a lower-case host with
    no port or user, a path with no escape, no query or fragment, nothing urlsplit strips):
    most of a site's URLs, read off as they are, in a fifth of urlsplit's time; else None."""
    if url.startswith("https://"):
        scheme, rest = "https", url[8:]
    elif url.startswith("http://"):
        scheme, rest = "http", url[7:]
    else:
        return None
    host, slash, path = rest.partition("/")
    if not host or _NOT_PLAIN_HOST.search(host) or _NOT_PLAIN_PATH.search(path):
        return None
    return scheme, host, slash + path or "/", ""


def _parsed_key(url: str) -> tuple[str, str, str, str]:
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
    return resource_key(one) == resource_key(other)
