"""The spellings of one URL path that the redirect forms take: encoded, decoded, site-relative,
an S3 key, a guessed Markdown source."""

from __future__ import annotations

import functools
import posixpath
from typing import Final
from urllib.parse import unquote

from sitemill.urls import encode_uri_part, encode_uri_text

_PAGE_SUFFIXES: Final = (".html", ".htm")
INDEX_DOCUMENT: Final = "index.html"  # S3 website hosting's usual index document suffix


def is_absolute(target: str) -> bool:
    """Whether ``target`` names another host (an absolute or scheme-relative URL)."""
    return "://" in target or target.startswith("//")


@functools.lru_cache(maxsize=1 << 16)  # each path is spelt several times per form
def url_text(value: str) -> str:
    """``value`` percent-encoded where it may not be raw (space, controls, non-ASCII, "#" in a
    path, a "%" without two hex digits), so it is one word with no line break in any form;
    a path gets its leading "/"."""
    if is_absolute(value):
        return encode_uri_text(value)
    return encode_uri_part(value if value.startswith("/") else "/" + value)


def decode_path(path: str) -> str:
    """The path as a file name reads: percent-escapes decoded as UTF-8."""
    return unquote(url_text(path), errors="replace")


def normal_base(base_path: str) -> str:
    """A base path with one leading and one trailing "/"."""
    inner = base_path.strip("/")
    return f"/{inner}/" if inner else "/"


def site_relative(path: str, base_path: str) -> str | None:
    """``path`` relative to the site's base path, with a leading "/"; None when it is not
    under the base path (or is an absolute URL)."""
    if is_absolute(path):
        return None
    base = normal_base(base_path)
    path = url_text(path)
    if path + "/" == base:
        return "/"
    return "/" + path[len(base) :] if path.startswith(base) else None


def mkdocs_source(site_path: str) -> str:
    """A guess at the Markdown page a site path was built from, as MkDocs names its pages:
    "/a/b/" and "/a/b.html" are "a/b.md", "/" is "index.md"."""
    name = decode_path(site_path).strip("/")
    if not name:
        return "index.md"
    if decode_path(site_path).endswith("/"):  # a folder's page ("/v1.2/" has no suffix)
        return name + ".md"
    stem, suffix = posixpath.splitext(name)
    if suffix.lower() in _PAGE_SUFFIXES:
        name = stem
        if posixpath.basename(stem) == "index" and posixpath.dirname(stem):
            name = posixpath.dirname(stem)
    return name if suffix and suffix.lower() not in _PAGE_SUFFIXES else name + ".md"


def bucket_key(path: str, prefix: str, *, index: bool) -> str:
    """The S3 key a host path is served from: decoded, below ``prefix``; with ``index``, a
    folder's path ("/a/" or "/") names its index document."""
    key = prefix + decode_path(path).lstrip("/")
    return key + INDEX_DOCUMENT if index and (not key or key.endswith("/")) else key
