"""What a page's reduction depends on when it has a main region; the rest is furniture."""
# The pieces of its lines from the region's start to its end, those of its title, and those that
# hold a description mark. The other pieces are furniture (navigation, footer, sidebars): a version
# of the page that differs from another only there reduces to the same text, which
# fingerprint.reduction then takes from its LineMemo instead of selecting and collapsing it again.
#
# What a piece holds is written in its notes (fingerprint.linememo), letters in order: the markers
# of <main> (m) and </main> (M) after the first pass, which say whether replacing each tag on its
# own is the same as reading them in order (same_in_order); then the markers that select reads in
# its reduction: <main> (s), </main> (e), <title> (t), </title> (T); D for a description mark.

from __future__ import annotations

from itertools import chain, compress
from typing import Final

from sitemill.lastmod.fingerprint.linememo import Lines
from sitemill.lastmod.fingerprint.regionmarkers import REGION_MARKS, region_sequence
from sitemill.lastmod.fingerprint.targetmarks import DESCRIPTION_START

# A text has notes only if it holds the first of these after the first pass, or the second in
# its reduction (linebatch.Passes.signs).
NOTE_SIGNS: Final = (REGION_MARKS[0], DESCRIPTION_START)
_PASSED: Final = str.maketrans("tT", "  ")
_REDUCED: Final = str.maketrans("mM", "se")
_ONLY_PASSED: Final = str.maketrans("", "", "seTtD ")
_ONLY_REGION: Final = str.maketrans("", "", "mMtTD")
_ONLY_TITLE: Final = str.maketrans("", "", "mMseD")
# The <main> and </main> markers after the first pass that Structure writes alike.
_SAME_IN_ORDER: Final = frozenset({"", "m", "mM"})


def piece_notes(first: str, reduced: str) -> str:
    """The notes of a text (see above) from its first pass and its reduction."""
    return (
        region_sequence(first, _PASSED)
        + region_sequence(reduced, _REDUCED)
        + ("D" if DESCRIPTION_START in reduced else "")
    )


def same_in_order(notes: str) -> bool:
    """Whether a page with these notes reduces the same with each tag replaced on its own
    (regionselect.flat_start) as in order (regionselect.Structure): one <main>, then one </main>."""
    return notes.translate(_ONLY_PASSED) in _SAME_IN_ORDER


def region_key(lines: Lines, notes: str) -> tuple[str, ...] | None:
    """The pieces the reduction of ``lines`` depends on, with their ``notes`` (all_notes),
    or None where that is not known: a region that is not one <main> marker then at most one
    </main> marker, a title that is not one <title> then one </title>. Joined, the pieces
    select (regionselect.select) as the whole text does: the region and the title are runs of
    whole pieces, every description mark is in a noted piece, and the marks of a piece pair
    up within it (a line's reduction is closed), so the pieces left out shift no mark."""
    region, title = notes.translate(_ONLY_REGION), notes.translate(_ONLY_TITLE)
    if region not in ("s", "se") or title not in ("", "tT"):
        return None
    pieces = [*lines.pieces, lines.tail]
    notes_of = [*lines.notes, lines.tail_notes]
    marked = [(index, notes_of[index] or "") for index in compress(range(len(pieces)), notes_of)]
    spans = [(index, index + 1) for index, _ in marked]
    for start, end in (("s", "e"), ("t", "T")):
        found = _span(marked, start, end, len(pieces))
        if found:
            spans.append((found.start, found.stop))
    return (notes, *chain.from_iterable(pieces[start:stop] for start, stop in _merged(spans)))


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of the index ranges ``spans`` (start, stop) as sorted disjoint ranges: the
    pieces are taken by slices, a region's hundreds of lines at once."""
    merged: list[tuple[int, int]] = []
    for start, stop in sorted(spans):
        if merged and start <= merged[-1][1]:
            if stop > merged[-1][1]:
                merged[-1] = (merged[-1][0], stop)
        else:
            merged.append((start, stop))
    return merged


def _span(marked: list[tuple[int, str]], start: str, end: str, count: int) -> range:
    """The pieces from the first one noted ``start`` to the next one noted ``end`` (or the
    last piece)."""
    first = next((index for index, note in marked if start in note), None)
    if first is None:
        return range(0)
    last = next((index for index, note in marked if index >= first and end in note), count - 1)
    return range(first, last + 1)
