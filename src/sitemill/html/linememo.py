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
from itertools import compress, repeat
from operator import contains, is_, or_
from typing import Final

# After each line of a batch, "\n" and a separator: never in a text the passes read (the
# reduction replaces U+0002 first) nor in what they write; and never whole in a value the passes
# copy (a link's target): a quoted value holds one kind of quote only, an unquoted one no space.
# So a separator is either where it was, the scan there at top level, or gone; one that came
# through has its newline before it (a construct that swallows the newline ends at a ">" or at
# the end of the text, and a separator holds no ">"). Numbered when some do not come through.
_SEPARATOR: Final = "\x02\" '\x02"
_JOIN: Final = b"\n" + _SEPARATOR.encode()
_NUMBERED: Final = re.compile("\x02\" '([0-9]+)\x02")
_OPEN: Final = ""  # a line whose reduction runs on into the next one (a closed one ends "\n")
# Lines reduced together at most before the rest of the page is reduced in one piece.
_MAX_GROUP: Final = 64
# Lines of a page whose batch left them unsettled (reduced one by one) at most: a page of more
# is reduced in one piece.
_MAX_UNSETTLED: Final = 256
_RESULTS: Final = 1024  # pages' results a LineMemo holds at most
# What a LineMemo holds at most (bytes of lines and characters of their reductions), then it
# starts over.
MEMO_CHARS: Final = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Passes:
    """The reduction's passes in two steps, ``first`` and then ``rest``; ``notes``: what the
    caller needs to know of a text from the two (say, which markers it holds), "" mostly: a
    page's notes are its lines' notes in order."""

    first: Callable[[str], str]
    rest: Callable[[str], str]
    notes: Callable[[str, str], str]
    # A text has notes only if it holds the first of these after the first step, or the
    # second in its reduction.
    signs: tuple[str, str] = ("", "")

    def whole(self, text: str) -> tuple[str, str]:
        first = self.first(text)
        reduced = self.rest(first)
        return reduced, self.notes(first, reduced)


@dataclass(frozen=True, slots=True)
class Lines:
    """A page's reduction: its pieces (a line's, or a few lines' where one was left open),
    each piece's notes, and the reduction and notes of what follows the last newline."""

    pieces: list[str]
    notes: list[str | None]
    tail: str
    tail_notes: str

    def text(self) -> str:
        return "".join(self.pieces) + self.tail

    def all_notes(self) -> str:
        return "".join(filter(None, self.notes)) + self.tail_notes


# Lines' reductions, and the notes of those with any.
Reduced = tuple[list[str], dict[bytes, str]]


class LineMemo:
    """Lines (as bytes) with their reductions and notes, for one kind of reduction each
    (``scope``: the content scope); bounded by MEMO_CHARS. Pickled empty: a worker process
    starts its own."""

    __slots__ = ("_size", "_tables", "results")

    def __init__(self) -> None:
        self._tables: dict[object, tuple[dict[bytes, str], dict[bytes, str]]] = {}
        self._size = 0
        # What the caller made of pages, by what it depends on (html.reduction: a page whose
        # furniture alone changed is the page it was).
        self.results: dict[object, str] = {}

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def remember(self, key: object, result: str) -> None:
        """What the caller made of a page (``results``), at most _RESULTS of them."""
        if len(self.results) >= _RESULTS:
            self.results.clear()
        self.results[key] = result

    def tables(self, scope: object) -> tuple[dict[bytes, str], dict[bytes, str]]:
        """The reductions of the lines, and their notes where not empty."""
        return self._tables.setdefault(scope, ({}, {}))

    def add(self, scope: object, lines: Sequence[bytes], reduced: Reduced) -> None:
        size = sum(map(len, lines)) + sum(map(len, reduced[0]))
        if self._size + size > MEMO_CHARS:
            for table, noted in self._tables.values():
                table.clear()
                noted.clear()
            self.results.clear()
            self._size = 0
        table, noted = self.tables(scope)
        table.update(zip(lines, reduced[0], strict=True))
        noted.update(reduced[1])
        self._size += size


def reduce_lines(data: bytes, passes: Passes, memo: LineMemo, scope: object) -> Lines:
    """``passes.whole`` of the UTF-8 text ``data`` (decoded with replacement characters),
    computed line by line with ``memo`` (see above). (Decoding lines one by one gives the
    text's lines: a newline is never part of a UTF-8 sequence, valid or not.)"""
    lines = data.split(b"\n")  # (each but the last followed by a newline)
    last = lines.pop()
    table, noted = memo.tables(scope)
    found = list(map(table.get, lines))
    notes: list[str | None] = list(map(noted.get, lines)) if noted else [None] * len(lines)
    if None in found:
        missing = list(dict.fromkeys(compress(lines, map(is_, found, repeat(None)))))
        reduced = _reduce_many(missing, passes)
        if reduced is None:
            return Lines([], [], *passes.whole(_text(data)))
        memo.add(scope, missing, reduced)
        found = list(map(dict(zip(missing, reduced[0], strict=True)).get, lines, found))
        if reduced[1]:
            notes = list(map(reduced[1].get, lines, notes))
    settled: list[str] = found  # type: ignore[assignment]
    if _OPEN in settled:
        return _grouped(lines, (settled, notes), last, passes, memo, scope)
    return Lines(settled, notes, *(passes.whole(_text(last)) if last else ("", "")))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _reduce_many(lines: Sequence[bytes], passes: Passes) -> Reduced | None:
    """Each line's reduction alone (_OPEN for a line left open), in one call when all come
    through; else the lines whose numbered separators before and after came through are
    settled, and the others reduced one by one (None: too many of them)."""
    first = passes.first(_text(_JOIN.join(lines) + _JOIN))
    reduced = passes.rest(first)
    pieces = reduced.split(_SEPARATOR)
    if len(pieces) == len(lines) + 1:  # (all came through: each piece ends "\n")
        pieces.pop()
        noted = passes.notes(first, reduced)
        return pieces, _notes(lines, first.split(_SEPARATOR), pieces, passes) if noted else {}
    return _reduce_numbered(lines, passes)


def _notes(
    lines: Sequence[bytes], firsts: Sequence[str], pieces: Sequence[str], passes: Passes
) -> dict[bytes, str]:
    """The notes of ``lines`` from their first steps and reductions (of those with a sign)."""
    first, reduced = passes.signs
    signed = map(or_, map(contains, firsts, repeat(first)), map(contains, pieces, repeat(reduced)))
    notes = {}
    for index in compress(range(len(lines)), signed):
        if note := passes.notes(firsts[index], pieces[index]):
            notes[lines[index]] = note
    return notes


def _reduce_numbered(lines: Sequence[bytes], passes: Passes) -> Reduced | None:
    """_reduce_many when some line is left open (see there)."""
    numbered = b"".join([line + b"\n\x02\" '%d\x02" % number for number, line in enumerate(lines)])
    first = passes.first(_text(numbered))
    whole = passes.rest(first)
    reduced = _settled(_NUMBERED.split(whole), len(lines))
    notes: dict[bytes, str] = {}
    if passes.notes(first, whole):
        parts = _NUMBERED.split(first)
        firsts = dict(zip(map(int, parts[1::2]), parts[::2], strict=False))
        settled = [index for index, piece in enumerate(reduced) if piece is not None]
        notes = _notes(
            [lines[i] for i in settled],
            [firsts[i] for i in settled],
            [reduced[i] for i in settled],  # type: ignore[misc]
            passes,
        )
    unsettled = [index for index, piece in enumerate(reduced) if piece is None]
    if len(unsettled) > _MAX_UNSETTLED:
        return None
    for index in unsettled:
        reduced[index], note = _reduce_one(lines[index], passes)
        if note:
            notes[lines[index]] = note
    return reduced, notes  # type: ignore[return-value]


def _settled(parts: list[str], count: int) -> list[str | None]:
    """The pieces between two separators that came through one after the other, by line."""
    reduced: list[str | None] = [None] * count
    previous = -1
    for piece, number in zip(parts[::2], map(int, parts[1::2]), strict=False):
        if number == previous + 1:
            reduced[number] = piece
        previous = number
    return reduced


def _reduce_one(lines: bytes, passes: Passes) -> tuple[str, str]:
    """The reduction of ``lines`` and a newline alone, or _OPEN if their end is left open;
    and their notes."""
    reduced, notes = passes.whole(_text(lines + _JOIN))
    return (reduced[: -len(_SEPARATOR)] if reduced.endswith(_SEPARATOR) else _OPEN), notes


def _grouped(
    lines: list[bytes],
    found: tuple[list[str], list[str | None]],
    last: bytes,
    passes: Passes,
    memo: LineMemo,
    scope: object,
) -> Lines:
    """The reduction when some lines are left open: each open line with the lines after it,
    twice as many each time, until the group closes; past _MAX_GROUP lines, all the rest."""
    pieces: list[str] = []
    notes: list[str | None] = []
    table, noted = memo.tables(scope)
    start = 0
    while start < len(lines):
        if found[0][start] != _OPEN:
            pieces.append(found[0][start])
            notes.append(found[1][start])
            start += 1
            continue
        size = 2
        while start + size <= len(lines) and size <= _MAX_GROUP:
            group = b"\n".join(lines[start : start + size])  # (a key no one line has)
            reduced, note = table.get(group), noted.get(group, "")
            if reduced is None:
                reduced, note = _reduce_one(group, passes)
                memo.add(scope, [group], ([reduced], {group: note} if note else {}))
            if reduced != _OPEN:
                break
            size *= 2
        else:
            last = b"\n".join(lines[start:]) + b"\n" + last
            break
        pieces.append(reduced)
        notes.append(note)
        start += size
    return Lines(pieces, notes, *(passes.whole(_text(last)) if last else ("", "")))
