"""URLs a page names (canonical, meta refresh, alternates, images): resolved and compared."""
# They are resolved as a browser resolves them.
#
# A URL written differently from a page's own URL (relative, ``index.html`` for ``/``, other
# escapes, an upper-case host) is the same page: ``url_key`` gives both one key.

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urljoin, urlsplit, urlunsplit

from sitemill.errors import ConfigError
from sitemill.urls import (
    C0_OR_SPACE,
    encode_host,
    encode_uri_part,
    path_key,
    remove_dot_segments,
    split_url,
)

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_INDEX_SUFFIXES: Final = ("/index.html", "/index.htm")
_PAGE_SUFFIXES: Final = (".html", ".htm")
_BARE_SUFFIXES: Final = ("/.html", "/.htm")
# The URL parser removes these anywhere in a URL (https://url.spec.whatwg.org/#concept-basic-url-parser).
_REMOVED: Final = re.compile(r"[\t\n\r]")
_QUERY_OR_FRAGMENT: Final = re.compile(r"[?#]")


def resolve_url(href: str, page_url: str, base_href: str | None = None) -> str | None:
    """``href`` resolved against the page's document base URL as a browser resolves it;
    None unless http(s)."""
    try:
        base = urljoin(page_url, _as_browsers_read(base_href)) if base_href else page_url
        target = urljoin(base, _as_browsers_read(href))
        scheme = urlsplit(target).scheme.lower()
    except ValueError:  # an invalid IPv6 host, a port that is not a number
        return None
    return target if scheme in _DEFAULT_PORTS else None


def _as_browsers_read(href: str) -> str:
    """``href`` as the URL parser reads it against an http(s) base: tabs and newlines
    removed, C0 controls and spaces around it dropped, and a backslash before the query a
    slash (``/\\evil.org/x`` is ``//evil.org/x``, another host)."""
    text = _REMOVED.sub("", href).strip(C0_OR_SPACE)
    end = _QUERY_OR_FRAGMENT.search(text)
    cut = end.start() if end else len(text)
    return text[:cut].replace("\\", "/") + text[cut:]


def url_key(url: str) -> str:
    """The URL in a form where two spellings of one page are equal: scheme and host lower
    case, default port and fragment dropped, escapes normalized (a path's delimiters
    decoded: ``%28`` is ``(``, see urls.path_key), ``index.html`` and the ``.html`` of clean
    URLs removed. An unparsable URL is its own key."""
    parts = split_url(url)
    if parts is None:
        return url
    port = parts.port
    scheme = parts.scheme.lower()
    try:
        host = encode_host(parts.hostname or "", "url")
        path, query = encode_uri_part(parts.path), encode_uri_part(parts.query)
    except (ConfigError, UnicodeError):  # a bad host; a lone surrogate (a hand-made state)
        return url
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    path = strip_page_suffix(path_key(remove_dot_segments(path)) or "/")
    return urlunsplit((scheme, host, path, query, ""))


def strip_page_suffix(path: str) -> str:
    """``/a/index.html`` -> ``/a/``, ``/a/b.html`` -> ``/a/b`` (one page, however written)."""
    if path.endswith(_INDEX_SUFFIXES):
        return path[: path.rindex("/") + 1]
    if path.endswith(_PAGE_SUFFIXES) and not path.endswith(_BARE_SUFFIXES):
        return path[: path.rindex(".")]
    return path
