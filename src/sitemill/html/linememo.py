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

Passes = Callable[[str], str]


class LineMemo:
    """Lines and their reductions, for one kind of reduction each (``scope``: the content
    scope); bounded by MEMO_CHARS. Pickled empty: a worker process starts its own."""

    __slots__ = ("_size", "_tables")

    def __init__(self) -> None:
        self._tables: dict[object, dict[str, str]] = {}
        self._size = 0

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def table(self, scope: object) -> dict[str, str]:
        return self._tables.setdefault(scope, {})

    def add(self, table: dict[str, str], lines: Sequence[str], reductions: Sequence[str]) -> None:
        size = sum(map(len, lines)) + sum(map(len, reductions))
        if self._size + size > MEMO_CHARS:
            for each in self._tables.values():
                each.clear()
            self._size = 0
        table.update(zip(lines, reductions, strict=True))
        self._size += size


def reduce_lines(text: str, passes: Passes, memo: LineMemo, scope: object) -> str:
    """``passes(text)``, computed line by line with ``memo`` (see above)."""
    lines = text.split("\n")  # (each but the last followed by a newline)
    last = lines.pop()
    table = memo.table(scope)
    found = list(map(table.get, lines))
    if None in found:
        missing = list(
            dict.fromkeys(line for line, got in zip(lines, found, strict=True) if got is None)
        )
        reduced = _reduce_many(missing, passes)
        if reduced is None:
            return passes(text)
        memo.add(table, missing, reduced)
        known = dict(zip(missing, reduced, strict=True))
        found = [
            known[line] if got is None else got for line, got in zip(lines, found, strict=True)
        ]
    settled: list[str] = found  # type: ignore[assignment]
    if _OPEN in settled:
        return _grouped(lines, settled, last, passes, (memo, table))
    return "".join(settled) + (passes(last) if last else "")


def _reduce_many(lines: Sequence[str], passes: Passes) -> list[str] | None:
    """Each line's reduction alone (_OPEN for a line left open), in one call: the lines whose
    separators before and after are left are settled; the others are reduced one by one
    (None: too many of them)."""
    batch = "".join([line + _SEPARATOR.format(number) for number, line in enumerate(lines)])
    parts = _SEPARATORS.split(passes(batch))
    reduced: list[str | None] = [None] * len(lines)
    previous = -1
    for piece, number in zip(parts[::2], parts[1::2], strict=False):  # (and the rest)
        if int(number) == previous + 1:
            reduced[previous + 1] = piece + "\n"
        previous = int(number)
    unsettled = [index for index, piece in enumerate(reduced) if piece is None]
    if len(unsettled) > _MAX_UNSETTLED:
        return None
    for index in unsettled:
        reduced[index] = _reduce_one(lines[index], passes)
    return reduced  # type: ignore[return-value]


def _reduce_one(lines: str, passes: Passes) -> str:
    """The reduction of ``lines`` and a newline alone, or _OPEN if their end is left open."""
    end = _SEPARATOR.format(0)
    reduced = passes(lines + end)
    return reduced[: -len(end)] + "\n" if reduced.endswith(end) else _OPEN


def _grouped(
    lines: list[str],
    found: list[str],
    last: str,
    passes: Passes,
    memo: tuple[LineMemo, dict[str, str]],
) -> str:
    """The reduction when some lines are left open: each open line with the lines after it,
    twice as many each time, until the group closes; past _MAX_GROUP lines, all the rest."""
    pieces = []
    start = 0
    while start < len(lines):
        if found[start] != _OPEN:
            pieces.append(found[start])
            start += 1
            continue
        size = 2
        while start + size <= len(lines) and size <= _MAX_GROUP:
            group = "\n".join(lines[start : start + size])  # (a key no one line has)
            reduced = memo[1].get(group)
            if reduced is None:
                reduced = _reduce_one(group, passes)
                memo[0].add(memo[1], [group], [reduced])
            if reduced != _OPEN:
                break
            size *= 2
        else:
            pieces.append(passes("\n".join(lines[start:]) + "\n" + last))
            return "".join(pieces)
        pieces.append(reduced)
        start += size
    return "".join(pieces) + (passes(last) if last else "")
