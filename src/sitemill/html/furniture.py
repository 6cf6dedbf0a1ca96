"""What a page's reduction depends on, when the page has a main region: the pieces of its lines
from the region's start to its end, those of its title, and those that hold a description mark.
The other pieces are furniture (navigation, footer, sidebars): a version of the page that
differs from another only there reduces to the same text, which html.reduction then takes from
its LineMemo instead of selecting and collapsing it again."""

from __future__ import annotations

from itertools import compress
from typing import Final

from sitemill.html.linememo import Lines

# A piece's notes (html.reduction) name, among others, the markers of <main> (s), </main> (e),
# <title> (t) and </title> (T) in its reduction, in order, and D for a description mark.
_ONLY_REGION: Final = str.maketrans("", "", "mMtTD")
_ONLY_TITLE: Final = str.maketrans("", "", "mMseD")


def region_key(lines: Lines, notes: str) -> tuple[str, ...] | None:
    """The pieces the reduction of ``lines`` depends on, with their ``notes`` (all_notes),
    or None where that is not known: a region that is not one <main> marker then at most one
    </main> marker, a title that is not one <title> then one </title>."""
    region, title = notes.translate(_ONLY_REGION), notes.translate(_ONLY_TITLE)
    if region not in ("s", "se") or title not in ("", "tT"):
        return None
    pieces = [*lines.pieces, lines.tail]
    notes_of = [*lines.notes, lines.tail_notes]
    marked = [(index, notes_of[index] or "") for index in compress(range(len(pieces)), notes_of)]
    relevant = {index for index, _ in marked}
    relevant.update(_span(marked, "s", "e", len(pieces)))
    relevant.update(_span(marked, "t", "T", len(pieces)))
    return (notes, *[pieces[index] for index in sorted(relevant)])


def _span(marked: list[tuple[int, str]], start: str, end: str, count: int) -> range:
    """The pieces from the first one noted ``start`` to the next one noted ``end`` (or the
    last piece)."""
    first = next((index for index, note in marked if start in note), None)
    if first is None:
        return range(0)
    last = next((index for index, note in marked if index >= first and end in note), count - 1)
    return range(first, last + 1)
