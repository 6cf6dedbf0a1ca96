"""Reducing a page line by line, remembering each line's reduction: the versions of one page
in git history, and the pages of one site, share most of their lines (an article's paragraphs,
the navigation, the head), so a page whose other versions were reduced costs only its new lines.

The passes of the reduction (html.reduction) are regular expressions that scan from left to
right and never look back: where the scan of a line ends at top level (its final newline
survives the passes: no comment, tag, script or link runs on into the next line), the line's
reduction in the page is its reduction alone. So a page is cut after each newline; each line is
looked up in a LineMemo, the lines not found are reduced together in one call (joined by a
separator the text cannot hold, which a construct left open would swallow), and a line that is
left open is reduced together with the lines after it. The result is the reduction of the whole
page, character for character (tests/html/test_linememo.py compares the two on every page the
fingerprint tests know and on generated ones).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

# After each line of a batch, "\n" and a numbered separator: never in a text the passes read
# (the reduction replaces U+0002 first) nor in what they write; and never whole in a value the
# passes copy (a link's target): a quoted value holds one kind of quote only, an unquoted one
# no space. So a separator is either where it was, and the scan there at top level, or gone.
_SEPARATOR: Final = "\n\x02\" '{}\x02"
_SEPARATORS: Final = re.compile("\n\x02\" '([0-9]+)\x02")
_OPEN: Final = ""  # a line whose reduction runs on into the next one (a closed one ends "\n")
# Lines reduced together at most before the rest of the page is reduced in one piece.
_MAX_GROUP: Final = 64
# Lines of a page whose batch left them unsettled (reduced one by one) at most: a page of more
# is reduced in one piece.
_MAX_UNSETTLED: Final = 256
# What a LineMemo holds at most (characters of lines and their reductions), then it starts over.
MEMO_CHARS: Final = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Passes:
    """The reduction's passes in two steps, ``first`` and then ``rest``; ``notes``: what the
    caller needs to know of a text after the first step (say, which markers it holds), ""
    mostly: a page's notes are its lines' notes in order."""

    first: Callable[[str], str]
    rest: Callable[[str], str]
    notes: Callable[[str], str]

    def whole(self, text: str) -> tuple[str, str]:
        first = self.first(text)
        return self.rest(first), self.notes(first)


class LineMemo:
    """Lines with their reductions and notes, for one kind of reduction each (``scope``:
    the content scope); bounded by MEMO_CHARS. Pickled empty: a worker starts its own."""

    __slots__ = ("_size", "_tables")

    def __init__(self) -> None:
        self._tables: dict[object, tuple[dict[str, str], dict[str, str]]] = {}
        self._size = 0

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def tables(self, scope: object) -> tuple[dict[str, str], dict[str, str]]:
        """The reductions of the lines, and their notes where not empty."""
        return self._tables.setdefault(scope, ({}, {}))

    def add(self, scope: object, lines: Sequence[str], reduced: Reduced) -> None:
        size = sum(map(len, lines)) + sum(map(len, reduced[0]))
        if self._size + size > MEMO_CHARS:
            for table, noted in self._tables.values():
                table.clear()
                noted.clear()
            self._size = 0
        table, noted = self.tables(scope)
        table.update(zip(lines, reduced[0], strict=True))
        noted.update(reduced[1])
        self._size += size


# Lines' reductions, and the notes of those with any.
Reduced = tuple[list[str], dict[str, str]]


def reduce_lines(text: str, passes: Passes, memo: LineMemo, scope: object) -> tuple[str, str]:
    """``passes.whole(text)``, computed line by line with ``memo`` (see above)."""
    lines = text.split("\n")  # (each but the last followed by a newline)
    last = lines.pop()
    table, noted = memo.tables(scope)
    found = list(map(table.get, lines))
    notes: list[str | None] = list(map(noted.get, lines)) if noted else [None] * len(lines)
    if None in found:
        missing = list(
            dict.fromkeys(line for line, got in zip(lines, found, strict=True) if got is None)
        )
        reduced = _reduce_many(missing, passes)
        if reduced is None:
            return passes.whole(text)
        memo.add(scope, missing, reduced)
        known = dict(zip(missing, reduced[0], strict=True))
        found = [
            known[line] if got is None else got for line, got in zip(lines, found, strict=True)
        ]
        notes = [
            reduced[1].get(line, note) if note is None else note
            for line, note in zip(lines, notes, strict=True)
        ]
    settled: list[str] = found  # type: ignore[assignment]
    if _OPEN in settled:
        return _grouped(lines, (settled, notes), last, passes, memo, scope)
    tail = passes.whole(last) if last else ("", "")
    return "".join(settled) + tail[0], "".join(filter(None, notes)) + tail[1]


def _reduce_many(lines: Sequence[str], passes: Passes) -> Reduced | None:
    """Each line's reduction alone (_OPEN for a line left open), in one call: the lines whose
    separators before and after are left are settled; the others are reduced one by one
    (None: too many of them)."""
    first = passes.first("".join([line + _SEPARATOR.format(n) for n, line in enumerate(lines)]))
    parts = _SEPARATORS.split(passes.rest(first))
    reduced: list[str | None] = [None] * len(lines)
    previous = -1
    for piece, number in zip(parts[::2], parts[1::2], strict=False):  # (and the rest)
        if int(number) == previous + 1:
            reduced[previous + 1] = piece + "\n"
        previous = int(number)
    notes = _notes(lines, first, reduced, passes) if passes.notes(first) else {}
    unsettled = [index for index, piece in enumerate(reduced) if piece is None]
    if len(unsettled) > _MAX_UNSETTLED:
        return None
    for index in unsettled:
        reduced[index], note = _reduce_one(lines[index], passes)
        if note:
            notes[lines[index]] = note
    return reduced, notes  # type: ignore[return-value]


def _notes(
    lines: Sequence[str], first: str, reduced: list[str | None], passes: Passes
) -> dict[str, str]:
    """The notes of the settled lines (their separators came through the first step too)."""
    parts = _SEPARATORS.split(first)
    pieces = dict(zip(map(int, parts[1::2]), parts[::2], strict=False))
    notes = {}
    for index, line in enumerate(lines):
        if reduced[index] is not None and (note := passes.notes(pieces[index])):
            notes[line] = note
    return notes


def _reduce_one(lines: str, passes: Passes) -> tuple[str, str]:
    """The reduction of ``lines`` and a newline alone, or _OPEN if their end is left open;
    and their notes."""
    end = _SEPARATOR.format(0)
    reduced, notes = passes.whole(lines + end)
    return (reduced[: -len(end)] + "\n" if reduced.endswith(end) else _OPEN), notes


def _grouped(
    lines: list[str],
    found: tuple[list[str], list[str | None]],
    last: str,
    passes: Passes,
    memo: LineMemo,
    scope: object,
) -> tuple[str, str]:
    """The reduction when some lines are left open: each open line with the lines after it,
    twice as many each time, until the group closes; past _MAX_GROUP lines, all the rest."""
    pieces, notes = [], []
    table, noted = memo.tables(scope)
    start = 0
    while start < len(lines):
        if found[0][start] != _OPEN:
            pieces.append(found[0][start])
            notes.append(found[1][start] or "")
            start += 1
            continue
        size = 2
        while start + size <= len(lines) and size <= _MAX_GROUP:
            group = "\n".join(lines[start : start + size])  # (a key no one line has)
            reduced, note = table.get(group), noted.get(group, "")
            if reduced is None:
                reduced, note = _reduce_one(group, passes)
                memo.add(scope, [group], ([reduced], {group: note} if note else {}))
            if reduced != _OPEN:
                break
            size *= 2
        else:
            last = "\n".join(lines[start:]) + "\n" + last
            break
        pieces.append(reduced)
        notes.append(note)
        start += size
    tail = passes.whole(last) if last else ("", "")
    return "".join(pieces) + tail[0], "".join(notes) + tail[1]
