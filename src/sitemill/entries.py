"""The data between a run's stages: the pages a source finds; the entries the pipeline gives
the writer and the reports, the pages left out; the sitemap files a renderer hands the writer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple

from sitemill.html.hreflang import X_DEFAULT

if TYPE_CHECKING:  # (a type only: importing the entries loads no reader of page heads)
    from sitemill.html.facts import PageFacts


class Alternate(NamedTuple):
    """One ``<xhtml:link rel="alternate" hreflang href>`` of an entry: a version of the page
    in another language (or ``x-default``). ``href`` is a URL the same sitemap lists."""

    hreflang: str
    href: str


class Image(NamedTuple):
    """One ``<image:image>`` of an entry: an absolute, percent-encoded image URL."""

    loc: str


class Entry(NamedTuple):
    """One <url> of a sitemap. Every field is already formatted for output.

    ``loc`` is absolute and percent-encoded (XML escaping is the template's job);
    ``lastmod`` is a W3C datetime in UTC, so plain string comparison orders it.
    ``alternates`` (hreflang) and ``images`` are the sitemap extensions, empty for most runs.
    ``title`` is the page's title for the HTML sitemap (html_sitemap), never written in the
    XML sitemaps; None when not read or the page has none. ``key`` is where the source found
    the page (a tree's path, a bucket's key; None for a URL list): what a shard plan's
    boundaries are laid over (sitemill.shards), never written. ``language`` is the page's
    language as the page alone tells it (its language folder, else its ``<html lang>``; "" for
    none), set only where site chrome is counted per language (sitemill.images.chrome).
    ``description`` and ``site_name`` (its meta description and og:site_name) are read with the
    title, for llms.txt (sitemill.llms); None when not read or empty.
    A NamedTuple rather than a frozen dataclass: a run can make millions of them, and a
    tuple is immutable data too, built at a third of the cost.
    """

    loc: str
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: tuple[Alternate, ...] = ()
    images: tuple[Image, ...] = ()
    title: str | None = None
    key: str | None = None
    language: str = ""
    description: str | None = None
    site_name: str | None = None


def own_hreflang(entry: Entry) -> str:
    """The page's own language, as its (reciprocal) hreflang cluster names it ("": none)."""
    for alternate in entry.alternates:
        if alternate.href == entry.loc and alternate.hreflang.lower() != X_DEFAULT:
            return alternate.hreflang
    return ""


class SkipReason(Enum):
    """Why a page found by a source is not in the sitemap."""

    EXCLUDED = "excluded"
    NOT_A_PAGE = "not a page"
    ROBOTS_TXT = "robots.txt"
    NOINDEX = "noindex"
    REDIRECT = "redirect"
    CANONICAL = "canonical"
    DUPLICATE = "duplicate"
    TOO_LONG = "too long"
    OFF_SITE = "off site"


@dataclass(frozen=True, slots=True)
class Skip:
    """A page left out, with the reason, for reports (summaries, annotations, warnings)."""

    path: str
    reason: SkipReason
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Page:
    """A file found by a source: its site-relative POSIX path and when it last changed.

    ``path`` has no leading slash; names that are not valid UTF-8 keep their raw bytes as
    surrogate escapes (``os.fsdecode``), so that they can be percent-encoded exactly.
    ``lastmod`` is already a formatted W3C value, or None. ``version`` identifies the
    file's bytes where the source can tell without reading them (an S3 ETag); ``facts`` are
    what its head says, when the source has read them already (else the pipeline reads).
    ``verdict`` says the page is left out, and why, as the last run found from these same
    bytes (the state remembers only that of an unlisted page, never its facts' URLs).
    """

    path: str
    lastmod: str | None = None
    version: str | None = None
    facts: PageFacts | None = None
    date_reason: str | None = (
        None  # why ``lastmod`` is what it is (sitemill.lastmod.decide), if known
    )
    verdict: SkipReason | None = None


@dataclass(frozen=True, slots=True)
class UrlBlock:
    """Consecutive entries of a URL list in columns: what the block renderer writes at once.

    Each loc is absolute and percent-encoded, so ASCII (XML escaping is the template's job);
    ``lastmods`` holds each entry's W3C datetime or None, or is None when no entry has one.
    ``lines``: the same entries as the list wrote them, ``loc<TAB>lastmod\\n`` each (or
    ``loc\\n`` when ``lastmods`` is None), when they were read so: a renderer may then write
    the whole block by replacing its separators instead of joining its fields. ``newest``:
    the newest of ``lastmods`` where the reader found it (None: not looked for), so that the
    checks and the renderer after it need not look again.
    """

    locs: list[bytes]
    lastmods: list[bytes] | list[bytes | None] | None
    lines: bytes | None = None
    newest: bytes | None = field(default=None, compare=False)  # (found from the others)

    def entries(self) -> Iterator[Entry]:
        """The block as entries, for a renderer that takes one entry at a time."""
        locs = [loc.decode("ascii") for loc in self.locs]
        if self.lastmods is None:
            return map(Entry, locs)
        stamps = [stamp.decode("ascii") if stamp else None for stamp in self.lastmods]
        return map(Entry, locs, stamps)


class UrlBlocks(Iterator[Entry]):
    """A URL list's entries, a block at a time (``blocks``) for a renderer that writes
    whole blocks, else one entry at a time: iterate one way or the other, not both."""

    def __init__(self, blocks: Iterator[UrlBlock]) -> None:
        self.blocks = blocks
        self._entries: Iterator[Entry] = chain.from_iterable(b.entries() for b in blocks)

    def __next__(self) -> Entry:
        return next(self._entries)


@dataclass(frozen=True, slots=True)
class RenderedSitemap:
    """One finished sitemap file (uncompressed), with what an index needs to know of it.

    ``parts``: the file's bytes, in order: one part, or slices of the blocks a URL list
    was written in (sitemill.render._blocks), so that a file of several MB is written out
    without ever being copied whole. ``last``: whether the renderer knows it to be the
    last file (True) or not (False), where it knows (None: the writer looks for a next
    one to tell).
    """

    parts: tuple[bytes | memoryview, ...]
    url_count: int
    lastmod: str | None
    last: bool | None = None

    @property
    def data(self) -> bytes:
        """The file's bytes whole (joined, when it is in several parts)."""
        parts = self.parts
        if len(parts) == 1 and isinstance(parts[0], bytes):
            return parts[0]
        return b"".join(parts)
