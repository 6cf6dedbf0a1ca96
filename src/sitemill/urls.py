"""Site paths to absolute URLs: url_style, RFC 3986 percent-encoding, the location rule."""

from __future__ import annotations

import re
import string
from enum import Enum
from typing import Final
from urllib.parse import SplitResult, quote, unquote, urljoin, urlsplit, urlunsplit

from sitemill.errors import ConfigError

# The least encoding RFC 3986 allows in a path (section 3.3: pchar), as generators write
# their own links (Gatsby's "/C/unicode(a)!/"): unreserved characters, "/" and the
# sub-delims "!$&'()*,;=" with ":" and "@" stay raw; everything else is percent-encoded as
# UTF-8, "%" too (a file's "%" is data). Save "+": S3 (REST, website endpoints, CloudFront
# in front) reads a raw "+" in a path as a space, so a raw "+" would name another object;
# "%2B" is the one spelling every host serves. (A ":" in a first segment matters only to a
# relative reference: sitemill writes absolute URLs.)
PATH_RAW_DELIMS: Final = "!$&'()*,;=:@"
_PATH_SAFE = "/" + PATH_RAW_DELIMS
# A character that may not appear raw in a URI (RFC 3986 section 2), or a "%" that does not
# start an escape: each is percent-encoded as UTF-8.
# "[" and "]" are only allowed around an IPv6 host, and "#" only once, before a fragment:
# after the host they are encoded too.
_UNRESERVED_CHARS = string.ascii_letters + string.digits + "-._~"
# Characters a URL may hold raw after its host (besides one "#" and valid "%" escapes).
URI_CHARS = _UNRESERVED_CHARS + ":/?@!$&'()*+,;="
_NEEDS_ENCODING = re.compile(rf"[^{re.escape(URI_CHARS)}%]|%(?![0-9A-Fa-f]{{2}})")
_URI_BYTES = URI_CHARS.encode("ascii")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(_UNRESERVED_CHARS)
# An escape of one of "!$&'()*+,;=:@" (0x21 0x24 0x26-0x2C 0x3A 0x3B 0x3D 0x40).
_DELIM_ESCAPE = re.compile(r"%(2[146-9A-Ca-c]|3[ABDabd]|40)")
# A directory URL serves its index.html; index.htm as well on the servers that list it
# (nginx's and Apache's usual defaults, S3 configured so), and two index files of one
# directory are one URL either way (the first kept, see dedupe).
_INDEX_NAMES = ("index.html", "index.htm")
# Hosts with extension-less URLs (GitHub Pages, Netlify, Cloudflare Pages) map /post to
# post.html only: dropping ".htm" too would list /post, a 404.
_CLEAN_SUFFIX = ".html"
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


class UrlStyle(Enum):
    """How a page's path becomes its URL path."""

    DIRECTORY = "directory"  # a/index.html -> a/
    CLEAN = "clean"  # also a/b.html -> a/b (not a/b.htm: hosts map /a/b to a/b.html only)
    FILE = "file"  # as is
    # The style the pages' own canonicals are written in (sitemill.urlstyle): a run
    # settles it before any URL is made; undecided, a path maps as with "directory".
    AUTO = "auto"


# The styles a URL is made in, in the order auto breaks ties in (the fallback first).
URL_STYLES: Final = (UrlStyle.DIRECTORY, UrlStyle.CLEAN, UrlStyle.FILE)


def split_url(url: str) -> SplitResult | None:
    """``urlsplit(url)`` of a URL read from outside (a page, a file of the user's, a live
    site's answer), or None, "not a URL", where urllib.parse refuses it: a host that NFKC
    normalization changes into a delimiter (a full-width solidus), an unbalanced or bad IPv6 literal
    (``http://[::1/``), a port that is no number to 65535 (``.port`` raises too)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError on a port it cannot read)
    except ValueError:
        return None
    return parts


def join_url(base: str, reference: str) -> str | None:
    """``urljoin(base, reference)`` where either may come from outside, or None, "not a
    URL", where urllib.parse refuses one of them (see split_url)."""
    try:
        return urljoin(base, reference)
    except ValueError:
        return None


def normalize_base_url(value: str) -> str:
    """Check a base URL and return it in its one spelling (RFC 3986 section 6.2.2-6.2.3):
    lower-case scheme and host, no trailing dot, no default port, dot segments resolved,
    the least percent-encoding, ending in "/", so that every front end and the state see
    the same base URL (``HTTPS://Example.COM.:443`` is ``https://example.com/``).

    Raises ConfigError for relative URLs, other schemes, a query, a fragment or user info,
    never quoting a URL that may hold a password (urlsplit reads a password holding "/" or
    "#" as a port: its message quotes part of it).
    """
    key = "base_url"
    text = value.strip()
    if not text:
        raise ConfigError(key, "is required: the absolute http(s) URL the site is served at")
    quoted = "the URL given" if "@" in text else repr(text)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # (not quoted: "https://KEY:SECRET" has a "port")
        why = "contains user info" if "@" in text else "has a port that is no number to 65535"
        raise ConfigError(key, f"the URL given {why}") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise ConfigError(key, f"{quoted} must be an absolute http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ConfigError(key, f"{quoted} must not contain user info")
    if parts.query or text.endswith("?"):
        raise ConfigError(key, f"{quoted} must not have a query (?...)")
    if parts.fragment or "#" in text:
        raise ConfigError(key, f"{quoted} must not have a fragment (#...)")
    hostname = (parts.hostname or "").removesuffix(".")  # (the root's empty label)
    if not hostname:
        raise ConfigError(key, f"{quoted} has no host")
    host = encode_host(hostname, key)
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = remove_dot_segments(encode_uri_part(parts.path or "/"))
    return urlunsplit((scheme, netloc, path if path.endswith("/") else path + "/", "", ""))


def spelt_base_url(value: str) -> str:
    """``value`` in its one spelling (normalize_base_url), or as given when it is no base URL
    (a remembered one of an earlier sitemill, ``https://host:443/``, compared as this one
    spells it)."""
    try:
        return normalize_base_url(value)
    except ConfigError:
        return value


def url_origin(url: str) -> str:
    """``scheme://host[:port]`` of an absolute http(s) URL, spelt as normalize_base_url does."""
    return normalize_base_url(urlunsplit((*urlsplit(url)[:2], "", "", "")))[:-1]


def encode_host(hostname: str, key: str) -> str:
    if ":" in hostname:  # IPv6 literal
        return f"[{hostname}]"
    try:
        return hostname.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise ConfigError(key, f"host {hostname!r} is not a valid domain name") from exc


def encode_uri_text(text: str) -> str:
    """An absolute URL in RFC 3986 normal form, as far as percent-encoding goes.

    What may not appear raw is percent-encoded as UTF-8 (also "[", "]" after the host and
    every "#" after the first); existing escapes are kept, with upper-case hex digits, and
    escapes of unreserved characters are decoded (%7E is "~"), so equal URLs compare equal.
    """
    # Fast path (a C-level scan): ASCII, only URI characters, no "%", at most one "#".
    if (
        text.isascii()
        and "%" not in text
        and text.count("#") <= 1
        and not text.encode().translate(None, _URI_BYTES + b"#")
    ):
        return text
    scheme, separator, rest = text.partition("://")
    if not separator:
        return encode_uri_part(text)
    end = min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest))
    path_query, hash_mark, fragment = rest[end:].partition("#")
    tail = encode_uri_part(path_query)
    if hash_mark:
        tail += "#" + encode_uri_part(fragment).replace("#", "%23")
    return f"{scheme}://{rest[:end]}{tail}"


def encode_uri_part(text: str) -> str:
    """Percent-encode a path, query or fragment; normalize the escapes already there."""
    if _NEEDS_ENCODING.search(text):
        text = _NEEDS_ENCODING.sub(lambda match: quote(match.group(), safe=""), text)
    if "%" in text:
        text = _ESCAPE.sub(_normal_escape, text)
    return text


def _normal_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else match.group(0).upper()


def encode_path(path: str) -> str:
    """Percent-encode a site path with the least encoding (UTF-8; raw bytes for names that
    are not UTF-8)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe=_PATH_SAFE)


def path_key(path: str) -> str:
    """An encoded URL path with the escapes of the delimiters a path may hold raw decoded
    ("%28" is "(", "%2B" is "+"): RFC 3986 calls "/a%28b%29/" and "/a(b)/" different URLs
    (section 6.2.2.2), but every static host serves one file at both, so they name one
    page. For comparing only: a loc keeps its spelling."""
    return _DELIM_ESCAPE.sub(_delim, path) if "%" in path else path


def _delim(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def url_path(path: str, style: UrlStyle) -> str:
    """The URL path (not yet encoded) that serves the file at ``path`` under ``style``."""
    if style is UrlStyle.FILE:
        return path
    head, _, name = path.rpartition("/")
    if name in _INDEX_NAMES:
        return f"{head}/" if head else ""
    if style is UrlStyle.CLEAN and name.endswith(_CLEAN_SUFFIX) and name != _CLEAN_SUFFIX:
        return path[: -len(_CLEAN_SUFFIX)]
    return path


def page_url(base_url: str, path: str, style: UrlStyle) -> str:
    """Absolute, percent-encoded URL of a page; ``base_url`` must be normalized."""
    return base_url + encode_path(url_path(path, style))


def site_root_path(base_url: str) -> str:
    """The path part of a normalized base URL, e.g. '/' or '/blog/'."""
    return urlsplit(base_url).path


# An href that needs no URL parser: unreserved characters and "/" only (no scheme, query,
# fragment, escape, back slash or white space).
# What the URL parser strips from both ends of a URL: https://url.spec.whatwg.org/#url-parsing
C0_OR_SPACE: Final = "".join(map(chr, range(0x21)))
_PLAIN_HREF = re.compile(r"[A-Za-z0-9._~/-]++")


def join_plain(href: str, page_url: str) -> str | None:
    """``href`` resolved against ``page_url`` (a URL sitemill wrote: absolute, encoded, no
    query) when ``href`` is a plain relative or root-relative path, dot segments removed;
    None for anything else, which urllib.parse.urljoin resolves. Generators write most hrefs
    so (``../../fr/guide/``, ``img/a.png``, ``/de/``), and this costs a tenth of urljoin."""
    if not _PLAIN_HREF.fullmatch(href) or "//" in href:  # (urljoin drops empty segments)
        return None
    origin_end = page_url.find("/", page_url.find("//") + 2)
    if origin_end < 0:
        return None
    folder = "" if href.startswith("/") else page_url[origin_end : page_url.rfind("/") + 1]
    return page_url[:origin_end] + remove_dot_segments(folder + href)


def remove_dot_segments(path: str) -> str:
    """``/a/b/../c/./d`` -> ``/a/c/d``, as URL parsers do (``%2e`` was decoded to ``.``).
    https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4"""
    if "/." not in path or not path.startswith("/"):
        return path
    segments = path.split("/")[1:]
    kept: list[str] = []
    for segment in segments:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")  # "/a/b/.." is the folder "/a/"
    return "/" + "/".join(kept)


# Segments that name no file: a folder ("a//b", "a/"), the directory itself, or its parent.
_NO_FILE_SEGMENTS: Final = frozenset({"", ".", ".."})


def site_file_path(url: str, base_url: str) -> str | None:
    """The path below the site root that a URL names (percent-decoded as the walk names
    files, the query dropped), or None when it is not below ``base_url`` or names no file: a
    folder, an empty or dot segment (never a way above the root)."""
    if not url.startswith(base_url):
        return None
    rest = url[len(base_url) :].partition("?")[0]
    path = unquote(rest, errors="surrogateescape")  # a file's bytes, as the walk names them
    if "\0" in path or not _NO_FILE_SEGMENTS.isdisjoint(path.split("/")):
        return None
    return path
