"""Reducing many lines in one call, each as if alone (fingerprint.linememo)."""
# The lines are joined by a separator that a construct left open at a line's end swallows, so that
# each line whose separators came through is settled, and the others are found and reduced one by
# one.

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import contains, or_
from typing import Final

# After each line of a batch, "\n" and a separator: never in a text the passes read (the
# reduction replaces U+0002 first) nor in what they write; and never whole in a value the passes
# copy (a link's target): a quoted value holds one kind of quote only, an unquoted one no space.
# So a separator is either where it was, the scan there at top level, or gone; one that came
# through has its newline before it (a construct that swallows the newline ends at a ">" or at
# the end of the text, and a separator holds no ">"). Numbered when some do not come through.
LINE_SEPARATOR: Final = "\x02\" '\x02"
JOIN: Final = b"\n" + LINE_SEPARATOR.encode()
_NUMBERED: Final = re.compile("\x02\" '([0-9]+)\x02")
OPEN: Final = ""  # a line whose reduction runs on into the next one (a closed one ends "\n")
# Lines of a page whose batch left them unsettled (reduced one by one) at most: a page of more
# is reduced in one piece.
_MAX_UNSETTLED: Final = 256


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


# Lines' reductions, and the notes of those with any.
LineReductions = tuple[list[str], dict[bytes, str]]


def decode_lines(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def reduce_many(lines: Sequence[bytes], passes: Passes) -> LineReductions | None:
    """Each line's reduction alone (OPEN for a line left open), in one call when all come
    through; else the lines whose numbered separators before and after came through are
    settled, and the others reduced one by one (None: too many of them)."""
    first = passes.first(decode_lines(JOIN.join(lines) + JOIN))
    reduced = passes.rest(first)
    pieces = reduced.split(LINE_SEPARATOR)
    if len(pieces) == len(lines) + 1:  # (all came through: each piece ends "\n")
        pieces.pop()
        noted = passes.notes(first, reduced)
        return pieces, _notes(lines, first.split(LINE_SEPARATOR), pieces, passes) if noted else {}
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


def _reduce_numbered(lines: Sequence[bytes], passes: Passes) -> LineReductions | None:
    """_reduce_many when some line is left open (see there)."""
    numbered = b"".join([line + b"\n\x02\" '%d\x02" % number for number, line in enumerate(lines)])
    first = passes.first(decode_lines(numbered))
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
        reduced[index], note = reduce_one(lines[index], passes)
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


def reduce_one(lines: bytes, passes: Passes) -> tuple[str, str]:
    """The reduction of ``lines`` and a newline alone, or OPEN if their end is left open;
    and their notes."""
    reduced, notes = passes.whole(decode_lines(lines + JOIN))
    return (reduced[: -len(LINE_SEPARATOR)] if reduced.endswith(LINE_SEPARATOR) else OPEN), notes
