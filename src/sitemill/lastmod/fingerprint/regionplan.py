"""Where a page's content region and its furniture stand, as the fingerprint reads them."""
# The content fingerprint decides what a page's content region is and what in it is furniture
# (fingerprint.regionselect, docs/lastmod.md "The main content, not the furniture"). llms-full.txt
# converts that same region to Markdown on a tree (issue 80: one reading, not a second one kept
# equal by hand). The plan says where the fingerprint's decisions stand in the text its passes
# read (reduction.passes_text): the start tag of the region's element, of the article it narrows
# to, of the title block beside it, and of each furniture element it leaves out. Each is found
# by its marker: the reduction's first pass records each marker's tag's position as it writes it
# (reduction.marked_region_text), and the n-th marker of the marked text is the n-th recorded.
# A post's neighbours (a link whose rel is "prev" or "next": what another page says is that
# page's, reduction.read_neighbours) and a link whose own role is furniture's are left out too,
# found by their start tags. Only the reading
# of the region is the fingerprint's here: a teaser read as its link and a post's blocks of links
# (fingerprint.teasers, fingerprint.linkblocks) are how a date is read, not what a reader is given.

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sitemill.lastmod.fingerprint import _regionmarkers as regionmarkers
from sitemill.lastmod.fingerprint import _regionselect as regionselect
from sitemill.lastmod.fingerprint import _titleblock as titleblock
from sitemill.lastmod.fingerprint import _titledarticle as titledarticle
from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint._articles import HEADING_MARKERS, HEADLINE_START
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_START, LETTERED
from sitemill.lastmod.fingerprint.targetmarks import (
    KEPT_TAG,
    NEIGHBOUR_MARK,
    escape_kept_values,
)
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION

_MARKER_CHARS: Final = len(ARTICLE_START)  # (every marker: U+0002, a letter, U+0003)
_HEADING_LETTERS: Final = frozenset(
    marker[1] for markers in HEADING_MARKERS for marker in markers.values()
)


@dataclass(frozen=True, slots=True)
class RegionPlan:
    """A page's content region as the fingerprint reads it, by positions in ``text`` (the
    text its passes read: reduction.passes_text), each a start tag's "<" (an end tag's for
    ``end``): ``root``, the region's element (None: the page's body); ``end``, where the
    region ends (its element's end tag, or the text's end); ``article``, the article it
    narrows to (None: none); ``title_block``, the page-level header before or after it that
    is the page's title block (None: none); ``left_out``, each furniture element left out
    (in the region, in the title block, or in the page without a region) and each link to a
    post's neighbour."""

    text: str
    root: int | None
    end: int
    article: int | None
    title_block: int | None
    left_out: tuple[int, ...]


def region_plan(data: bytes, url: str = "", version: int = FINGERPRINT_VERSION) -> RegionPlan:
    """The content region of the page ``data`` at ``url`` (see above), as version ``version``
    of the fingerprint reads it with content_scope = "main" and no ignore patterns."""
    text = reduction.passes_text(escape_kept_values(data))
    positions: list[int] = []
    marked = reduction.marked_region_text(text, url, version, positions)
    where = _Markers(marked, positions)
    narrowed = titledarticle.article_finder(marked, url, version)
    region = regionmarkers.region_of(marked)
    if region is None:  # (the page's body, its furniture out, as select reads it)
        spans, _ = regionselect.furniture_spans(marked)
        kept = _blanked(marked, spans)
        if HEADLINE_START not in kept and titleblock.own_headline(marked, version, url):
            named = url if version >= 13 else ""
            spans, _ = regionselect.furniture_spans(marked, headline=True, url=named)
            kept = _blanked(marked, spans)
        article = narrowed(kept)
        found = None if article is None else article[0]
        left_out = (*where.starts(spans, 0), *_neighbours(text, 0, len(text)))
        return RegionPlan(text, None, len(text), where.tag(found), None, left_out)
    within = marked[region[0] - _MARKER_CHARS : region[0]] == ARTICLE_START
    inside = marked[region[0] : region[1]]
    spans, _ = regionselect.furniture_spans(
        inside, article=int(within), headline=True, notes=version
    )
    kept = _blanked(inside, spans)
    article = narrowed(kept)
    found = None if article is None else region[0] + article[0]
    left_out = where.starts(spans, region[0])
    block = None
    if HEADLINE_START not in kept:
        header = titleblock.outside_span(marked, region, version, url)
        if header is not None:
            block = where.tag(header[0])
            header_spans, _ = regionselect.furniture_spans(
                marked[header[0] : header[1]], headline=True
            )
            left_out = (*where.starts(header_spans, header[0]), *left_out)
    root = where.tag(region[0])
    end = where.position(region[1]) if region[1] < len(marked) else len(text)
    start = 0 if block is not None or root is None else root
    left_out = (*left_out, *_neighbours(text, start, len(text) if block is not None else end))
    return RegionPlan(text, root, end, where.tag(found), block, left_out)


def _neighbours(text: str, start: int, end: int) -> tuple[int, ...]:
    """Where the start tags of the links to a post's neighbours stand in ``text[start:end]``
    (reduction.mark_kept_tag marks them, and a link with a furniture role of its own, from
    version 13; read_neighbours leaves them out)."""
    return tuple(
        found.start()
        for found in KEPT_TAG.finditer(text, start, end)
        if found["link"] is not None
        and ("rel" in found[0].lower() or "ole" in found[0])
        and reduction.mark_kept_tag(found).startswith(NEIGHBOUR_MARK)
    )


def _blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (the furniture without_furniture leaves out) white
    space of its length: the same markers and letters as without_furniture's text, at the
    positions they have in ``text`` (the article the region narrows to is found in it)."""
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        pieces += (text[done:start], " " * (end - start))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


class _Markers:
    """The markers of a marked text, each with its tag's position in the passes' text (the
    n-th marker, a heading's aside, is the n-th position recorded)."""

    __slots__ = ("_at", "_positions")

    def __init__(self, marked: str, positions: list[int]) -> None:
        self._at = [
            found.start() for found in LETTERED.finditer(marked) if found[1] not in _HEADING_LETTERS
        ]
        self._positions = positions

    def position(self, marker: int) -> int:
        """The position of the tag of the marker that starts at ``marker`` in the marked text."""
        return self._positions[bisect_right(self._at, marker) - 1]

    def tag(self, after: int | None) -> int | None:
        """The position of the tag of the marker that ends at ``after`` (None: None)."""
        return None if after is None else self.position(after - _MARKER_CHARS)

    def starts(self, spans: Sequence[tuple[int, int]], offset: int) -> tuple[int, ...]:
        """The positions of the tags whose markers open ``spans`` (of a text at ``offset``)."""
        return tuple(self.position(offset + start) for start, _ in spans)
