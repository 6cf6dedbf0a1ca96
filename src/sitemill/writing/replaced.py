"""The <lastmod> of each page in the generator's sitemap that sitemill replaces, by URL."""
# The replaced file (sitemill.writing.takeover) is a urlset, or an index whose children in the
# folder or prefix are read too (at most MAX_CHILDREN of them, each to the protocol's size, gzip
# inflated no further). expat without a DOCTYPE (so no entity); a document that stops being
# well-formed gives what was read until then. Read before the run writes: a child may bear the name
# of one of sitemill's.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.bounded.inflate import GZIP_MAGIC, inflate
from sitemill.errors import InflateError
from sitemill.lastmod.declared.w3cdate import REPLACED_SITEMAP, DeclaredDate, parse_declared
from sitemill.protocol import MAX_BYTES_LIMIT, SITEMAP_NS
from sitemill.writing._namedsitemaps import index_children
from sitemill.writing.sitemapfile import (
    HEAD_BYTES,
    NS_SEPARATOR,
    SITEMAPINDEX,
    parse_sitemap,
    sitemap_root,
    stop_parsing,
)
from sitemill.writing.takeover import Files, Takeover

MAX_CHILDREN: Final = 1_000  # an index's children read (a generator writes a few)
_URLSET: Final = f"{SITEMAP_NS}{NS_SEPARATOR}urlset"
_URL: Final = (_URLSET, f"{SITEMAP_NS}{NS_SEPARATOR}url")
_LOC: Final = f"{SITEMAP_NS}{NS_SEPARATOR}loc"
_LASTMOD: Final = f"{SITEMAP_NS}{NS_SEPARATOR}lastmod"


@dataclass(frozen=True, slots=True)
class ReplacedDates:
    """The dates the replaced sitemap gave its pages, keyed by page_key of each <loc>."""

    dates: Mapping[str, DeclaredDate]

    def date_of(self, url: str) -> DeclaredDate | None:
        """The date the replaced sitemap gave the page at ``url`` (any spelling of its path:
        see page_key), or None when it listed none."""
        return self.dates.get(page_key(url))


def page_key(url: str) -> str:
    """A URL's path in one spelling, as static hosts serve it: percent-decoded, a last
    ``index.html`` (``index.htm``), a file's ``.html`` and a trailing slash dropped. The host
    is left out: a generator may write its locs for another origin, or none (Hugo's "/x/")."""
    path = unquote(urlsplit(url.strip()).path)
    for suffix in ("/index.html", "/index.htm", ".html"):
        if path.endswith(suffix):
            path = path[: -len(suffix)] + ("/" if suffix.startswith("/") else "")
            break
    return path.rstrip("/")


def replaced_dates(files: Files, takeover: Takeover | None, base_url: str) -> ReplacedDates:
    """The dates of the replaced sitemap ``takeover`` (found by find_takeover) and, for an
    index, of its children in ``files``; empty when there is none."""
    dates: dict[str, DeclaredDate] = {}
    if takeover is None:
        return ReplacedDates(dates)
    if sitemap_root(takeover.data[:HEAD_BYTES]) != SITEMAPINDEX:
        _read_urlset(takeover.data, dates)
        return ReplacedDates(dates)
    for name in index_children(takeover.data, base_url)[:MAX_CHILDREN]:
        data = files.read(name, MAX_BYTES_LIMIT)
        if data is not None:
            _read_urlset(_inflated(data), dates)
    return ReplacedDates(dates)


def _inflated(data: bytes) -> bytes:
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        return inflate(data, MAX_BYTES_LIMIT, what="a replaced sitemap")
    except InflateError:
        return b""


def urlset_dates(data: bytes) -> ReplacedDates:
    """The dates of one urlset's bytes (for a test or a single file)."""
    dates: dict[str, DeclaredDate] = {}
    _read_urlset(data, dates)
    return ReplacedDates(dates)


def _read_urlset(data: bytes, dates: dict[str, DeclaredDate]) -> None:
    """Add each <url>'s valid <lastmod> to ``dates`` by its <loc> (the first of a page's)."""
    path: list[str] = []
    text: list[str] = []
    url: dict[str, str] = {}

    def start(name: str, _attributes: object) -> None:
        if not path and name != _URLSET:
            stop_parsing()
        path.append(name)
        text.clear()

    def end(name: str) -> None:
        if len(path) == 3 and tuple(path[:2]) == _URL and name in (_LOC, _LASTMOD):
            url[name] = "".join(text).strip()
        elif len(path) == 2 and tuple(path) == _URL:
            loc, lastmod = url.get(_LOC), url.get(_LASTMOD)
            date = parse_declared(lastmod, REPLACED_SITEMAP) if loc and lastmod else None
            if loc and date is not None:
                dates.setdefault(page_key(loc), date)
            url.clear()
        path.pop()

    parse_sitemap(data, start, end, text.append)
