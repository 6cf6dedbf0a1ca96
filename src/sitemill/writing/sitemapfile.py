"""Whether a file is a sitemap, and the children a sitemap index names (or a urlset's URLs)."""
# Its root element, parsed from a bounded head: expat, no DOCTYPE (so no entity), never a regex over
# bytes that a feed or a page could match too.

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Final, NoReturn

from sitemill.bounded.inflate import GZIP_MAGIC, inflate_head
from sitemill.protocol import MAX_BYTES_LIMIT, SITEMAP_NS

# A sitemap's root element comes after its declaration and perhaps a comment: well within.
HEAD_BYTES: Final = 64 * 1024
# What is read of someone else's sitemap index to know the children it names: as much as the
# protocol lets an index hold, and one byte more to tell that it holds more (read_size).
INDEX_READ_BYTES: Final = MAX_BYTES_LIMIT + 1
_URLSET: Final = "urlset"
SITEMAPINDEX: Final = "sitemapindex"
NS_SEPARATOR: Final = "}"
_LOC_PATH: Final = tuple(
    f"{SITEMAP_NS}{NS_SEPARATOR}{name}" for name in (SITEMAPINDEX, "sitemap", "loc")
)
_URL_LOC_PATH: Final = tuple(
    f"{SITEMAP_NS}{NS_SEPARATOR}{name}" for name in (_URLSET, "url", "loc")
)


class _Stop(Exception):
    """Raised from a handler (stop_parsing): what was looked for is found (or cannot be)."""


def stop_parsing() -> NoReturn:
    """From a handler of parse_sitemap: read no further."""
    raise _Stop


def parse_sitemap(
    data: bytes,
    start: Callable[[str, object], None],
    end: Callable[[str], None] | None = None,
    text: Callable[[str], None] | None = None,
    *,
    final: bool = True,
) -> None:
    """Run expat over ``data`` with these handlers (names as ``namespace}local``) until the
    end, stop_parsing() from a handler, a DOCTYPE (refused: no entity is ever expanded) or the first
    error (what was read until then stands)."""

    from xml.parsers import expat  # (when a run reads a sitemap: most events read none)

    def doctype(*_: object) -> None:
        raise _Stop

    parser = expat.ParserCreate(namespace_separator=NS_SEPARATOR)
    parser.buffer_text = True
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    with contextlib.suppress(_Stop, expat.ExpatError):
        parser.Parse(data, final)


def sitemap_root(head: bytes) -> str | None:
    """``urlset`` or ``sitemapindex`` when ``head`` (a file's first bytes, gzip or not)
    begins a sitemap: that root element in the sitemaps.org namespace. None for anything
    else: a page, an RSS or Atom feed, a root without the namespace, no XML, a DOCTYPE."""
    if head.startswith(GZIP_MAGIC):
        inflated = inflate_head(head, HEAD_BYTES)
        if inflated is None:
            return None
        head = inflated
    found: list[str] = []

    def start(name: str, _attributes: object) -> None:
        found.append(name)
        raise _Stop

    parse_sitemap(head[:HEAD_BYTES], start, final=False)
    if not found:
        return None
    namespace, _, local = found[0].rpartition(NS_SEPARATOR)
    if namespace != SITEMAP_NS or local not in (_URLSET, SITEMAPINDEX):
        return None
    return local


def read_size(head: bytes) -> int:
    """How much of a file whose first HEAD_BYTES are ``head`` tells what it is and what it
    names: a sitemap index's first INDEX_READ_BYTES (its ``<sitemap>`` entries), else the head
    alone (a urlset of any size names no file to delete)."""
    return INDEX_READ_BYTES if sitemap_root(head) == SITEMAPINDEX else len(head)


def is_cut(index: bytes) -> bool:
    """Whether ``index``, read to INDEX_READ_BYTES, holds more than the protocol lets an
    index hold: the children it names past that bound are not known."""
    return len(index) > MAX_BYTES_LIMIT


def is_sitemap(name: str, head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) begins a sitemap: an XML one (sitemap_root), or
    for a name ending ``.txt`` (``.txt.gz``) a text sitemap, its first line an http(s) URL."""
    if not name.removesuffix(".gz").endswith(".txt"):
        return sitemap_root(head) is not None
    if head.startswith(GZIP_MAGIC):
        head = inflate_head(head, HEAD_BYTES) or b""
    first = head.lstrip(b"\xef\xbb\xbf").lstrip().partition(b"\n")[0].strip().lower()
    return first.startswith((b"http://", b"https://"))


def index_locs(data: bytes) -> list[str]:
    """The ``<loc>`` of each ``<sitemap>`` of the sitemap index ``data`` (already read to its
    bound), in order; none when it is not a sitemap index. A document that stops being
    well-formed gives the locs read until then."""
    return _locs(data, _LOC_PATH)


def urlset_locs(data: bytes) -> list[str]:
    """The ``<loc>`` of each ``<url>`` of the urlset ``data``, as ``index_locs`` reads an
    index's."""
    return _locs(data, _URL_LOC_PATH)


def _locs(data: bytes, loc_path: tuple[str, ...]) -> list[str]:
    locs: list[str] = []
    path: list[str] = []
    text: list[str] = []

    def start(name: str, _attributes: object) -> None:
        path.append(name)
        if len(path) == 1 and name != loc_path[0]:
            raise _Stop
        text.clear()

    def end(_name: str) -> None:
        if tuple(path) == loc_path:
            locs.append("".join(text).strip())
        path.pop()

    parse_sitemap(data, start, end, text.append)
    return locs
