"""Reducing a page line by line, remembering each line's reduction."""
# The versions of one page in git history, and the pages of one site, share most of their lines (an
# article's paragraphs, the navigation, the head), so a page whose other versions were reduced costs
# only its new lines.
#
# The passes of the reduction (fingerprint.reduction) are regular expressions that scan from left to
# right and never look back: where the scan of a line ends at top level (its final newline survives
# the passes: no comment, tag, script or link runs on into the next line), the line's reduction in
# the page is its reduction alone. So a page is cut after each newline; each line is looked up in a
# LineMemo, the lines not found are reduced together in one call (joined by a separator the text
# cannot hold, which a construct left open would swallow), and a line that is left open is reduced
# together with the lines after it. The result is the reduction of the whole page, character for
# character (tests/lastmod/fingerprint/test_linememo.py compares the two on generated markup full of
# constructs that run across lines, on edge cases and on hostile pages).

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_
from typing import Final

from sitemill.lastmod.fingerprint.linebatch import (
    OPEN,
    LineReductions,
    Passes,
    decode_lines,
    reduce_many,
    reduce_one,
)

# Lines reduced together at most before the rest of the page is reduced in one piece.
_MAX_GROUP: Final = 64
_RESULTS: Final = 256  # pages' results a LineMemo holds at most (a walk needs the last few)
# What a LineMemo holds at most (bytes of lines and characters of their reductions), then it
# starts over. Each worker process holds one: at 8 MiB a 5,000-page tree reads as fast as at
# 32 and one process peaks at 42 MB instead of 73 (benchmarks/README.md, tree-pool-5k).
MEMO_CHARS: Final = 8 * 1024 * 1024
# Characters of whole pages' reductions a process's PageMemo holds (the newest): a first run's
# work tree and the versions of its walk around the tip (doxygen's 536 pages: 9 Mi).
PAGE_CHARS: Final = 16 * 1024 * 1024


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


class PageMemo:
    """Whole pages' reductions by their bytes' digest and what else the reduction depends on,
    the newest kept while they hold at most ``limit`` characters (issue 79): a page version
    read twice in one run (the work tree's page, fingerprinted, then its blob at the tip where
    a commit's census names the edit there, history.templateedits) is reduced once. One for
    a run, shared by the LineMemos of its process (jobs.treehistory); pickled empty."""

    __slots__ = ("_held", "_limit", "_size")

    def __init__(self, limit: int = PAGE_CHARS) -> None:
        self._held: dict[tuple[object, ...], str] = {}
        self._size, self._limit = 0, limit

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def get(self, key: tuple[object, ...]) -> str | None:
        return self._held.get(key)

    def add(self, key: tuple[object, ...], reduction: str) -> None:
        if key in self._held or len(reduction) > self._limit:
            return
        self._held[key] = reduction
        self._size += len(reduction)
        while self._size > self._limit:  # (the oldest first)
            self._size -= len(self._held.pop(next(iter(self._held))))


def page_digest_key(data: bytes, *reading: object) -> tuple[object, ...]:
    """A page's key in a PageMemo: its bytes' digest (16 bytes of BLAKE2b) and ``reading``."""
    return (hashlib.blake2b(data, digest_size=16).digest(), *reading)


class LineMemo:
    """Lines (as bytes) with their reductions and notes, for one kind of reduction each
    (``scope``: the content scope); bounded by MEMO_CHARS. Pickled empty: a worker process
    starts its own. ``pages``: whole pages reduced (PageMemo), this one's own or a run's,
    shared with the LineMemos of its other readings of the same pages."""

    __slots__ = ("_digests", "_size", "_tables", "pages", "results")

    def __init__(self, pages: PageMemo | None = None) -> None:
        self.pages = PageMemo() if pages is None else pages
        self._tables: dict[object, tuple[dict[bytes, str], dict[bytes, str]]] = {}
        self._size = 0
        # What the caller made of pages, by what it depends on (fingerprint.reduction: a page whose
        # furniture alone changed is the page it was).
        self.results: dict[object, str] = {}
        # What digest() made of each str in results, by its id (None: not asked yet). A page
        # whose furniture alone changed gets its result, the same str, hashed once.
        self._digests: dict[int, str | None] = {}

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def remember(self, key: object, result: str) -> None:
        """What the caller made of a page (``results``), at most _RESULTS of them."""
        if len(self.results) >= _RESULTS:
            self.results.clear()
            self._digests.clear()
        self.results[key] = result
        self._digests.setdefault(id(result), None)

    def digest(self, reduction: str, compute: Callable[[str], str]) -> str:
        """``compute(reduction)``, remembered while ``reduction`` is a str in ``results`` (an
        id in _digests names a str that results holds: no other can have it meanwhile)."""
        if id(reduction) not in self._digests:
            return compute(reduction)
        found = self._digests[id(reduction)]
        if found is None:
            found = self._digests[id(reduction)] = compute(reduction)
        return found

    def tables(self, scope: object) -> tuple[dict[bytes, str], dict[bytes, str]]:
        """The reductions of the lines, and their notes where not empty."""
        return self._tables.setdefault(scope, ({}, {}))

    def add(self, scope: object, lines: Sequence[bytes], reduced: LineReductions) -> None:
        size = sum(map(len, lines)) + sum(map(len, reduced[0]))
        if self._size + size > MEMO_CHARS:
            for table, noted in self._tables.values():
                table.clear()
                noted.clear()
            self.results.clear()
            self._digests.clear()
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
        reduced = reduce_many(missing, passes)
        if reduced is None:
            return Lines([], [], *passes.whole(decode_lines(data)))
        memo.add(scope, missing, reduced)
        found = list(map(dict(zip(missing, reduced[0], strict=True)).get, lines, found))
        if reduced[1]:
            notes = list(map(reduced[1].get, lines, notes))
    settled: list[str] = found  # type: ignore[assignment]
    if OPEN in settled:
        return _grouped(lines, (settled, notes), last, passes, memo, scope)
    return Lines(settled, notes, *(passes.whole(decode_lines(last)) if last else ("", "")))


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
        if found[0][start] != OPEN:
            pieces.append(found[0][start])
            notes.append(found[1][start])
            start += 1
            continue
        size = 2
        while start + size <= len(lines) and size <= _MAX_GROUP:
            group = b"\n".join(lines[start : start + size])  # (a key no one line has)
            reduced, note = table.get(group), noted.get(group, "")
            if reduced is None:
                reduced, note = reduce_one(group, passes)
                memo.add(scope, [group], ([reduced], {group: note} if note else {}))
            if reduced != OPEN:
                break
            size *= 2
        else:
            last = b"\n".join(lines[start:]) + b"\n" + last
            break
        pieces.append(reduced)
        notes.append(note)
        start += size
    return Lines(pieces, notes, *(passes.whole(decode_lines(last)) if last else ("", "")))
