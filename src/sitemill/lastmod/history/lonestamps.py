"""Stamps at a commit few pages stop at: a page whose deploy changed only its stamps."""
# What the commit knows of itself is a stamp on however few pages (issue 79): a deploy that
# changed two FAQ pages' "Published: <the deploy's day>" and nothing else, or three tag pages whose
# only change is a listed post's date printed as the deploy's day (2026年7月8日), moves no date.
# history.templateedits names the stops where at least MIN_SECTION pages, or most of a section,
# stop at one commit; any other stop (most are a page's own edit, and reducing both versions of
# every one would cost a first run most of its time again) is read here as bytes only: its two
# versions, as git keeps them, compared with the commits' stamps (history.stamps) as placeholders.
# Two versions that differ beside their digits and month names are told apart without the
# stamps' expressions (_undated): a lone stop's stamp is a date (an author's name or a hash
# changed alone is judged where the counts name stops). Where they differ in the commits' stamps
# alone, the stop is named as the others are (stopedits.name_stops:
# its reductions compared, remembered); a stop an earlier run named is recalled, never read.

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.dateforms import MONTHS
from sitemill.lastmod.history.stamps import CommitStamps
from sitemill.lastmod.history.stopedits import STAMP_EDIT, Edits, recall_name, stop_keys
from sitemill.lastmod.history.versions import Version
from sitemill.lastmod.history.walk import Run

# Digits, and month names (dateforms.MONTHS, whole or cut to three letters), taken out of a
# version before two are compared (_undated).
_NO_DIGITS: Final = str.maketrans("", "", "0123456789")
_MONTH_NAMES: Final = re.compile(
    "|".join(sorted({*MONTHS, *(name[:3] for name in MONTHS)}, key=len, reverse=True))
)
# A stop: a page's path and its run's end there.
Stop = tuple[str, int]


class LoneStamps:
    """The stops no round named, each read once for its stamps alone (see above), with the
    git ``batch`` to read blobs with, the commits' ``stamps`` and what names stops (``name``:
    stopedits.name_stops, the number of blobs read)."""

    def __init__(
        self, batch: GitBatch, stamps: CommitStamps, name: Callable[[list[Stop]], int]
    ) -> None:
        self._reader = (batch, stamps, name)
        self._tried: set[Stop] = set()

    def stamped(
        self,
        every: list[Stop],
        pages: Mapping[str, Run],
        remembered: tuple[Mapping[str, str], dict[str, str]],
        edits: Edits,
    ) -> tuple[list[Stop], int]:
        """The stops of ``every`` no round has named (none in ``edits``) nor read here before
        whose edit changed only their commits' stamps, named; and the blobs read."""
        lone = [stop for stop in every if stop not in self._tried and stop not in edits]
        self._tried.update(lone)
        read = _name_lone_stamps(lone, pages, remembered, self._reader) if lone else 0
        return [stop for stop in lone if edits.get(stop) == STAMP_EDIT], read


def _name_lone_stamps(
    lone: list[Stop],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    reader: tuple[GitBatch, CommitStamps, Callable[[list[Stop]], int]],
) -> int:
    """Name, with ``reader``'s naming, the stops of ``lone`` an earlier run named and those
    whose versions' bytes differ only in their commits' stamps (see above); return the blobs
    read."""
    batch, stamps, name = reader
    recalled: list[Stop] = []
    unknown: list[Stop] = []
    for path, end in lone:
        keys = stop_keys(path, pages[path], end)
        if keys is None:
            continue  # (a version deleted: no stop to name)
        known = all(recall_name(remembered, key) is not None for key in keys)
        (recalled if known else unknown).append((path, end))
    blobs = (version.blob for stop in unknown for version in _around(pages[stop[0]], stop[1]))
    wanted = sorted({blob for blob in blobs if blob is not None})
    data = dict(read_blobs(batch, wanted))
    stamped = []
    for path, end in unknown:
        newer, older = _around(pages[path], end)
        texts = [data.get(version.blob) if version.blob else None for version in (newer, older)]
        if texts[0] is None or texts[1] is None:
            continue
        decoded = (texts[0].decode("utf-8", "replace"), texts[1].decode("utf-8", "replace"))
        if _undated(decoded[0]) != _undated(decoded[1]):
            continue  # (they differ beside their dates: most stops, told without an expression)
        if stamps.is_stamp_edit(*decoded, (newer.time, older.time)):
            stamped.append((path, end))
    named = recalled + stamped
    return len(wanted) + (name(named) if named else 0)


def _undated(text: str) -> str:
    """``text`` without its digits and month names: two versions that differ only in their
    dates are alike so (a cheap test before the stamps' expressions, which cost milliseconds
    to compile and to run over a whole page)."""
    return _MONTH_NAMES.sub("", text.translate(_NO_DIGITS))


def _around(run: Run, end: int) -> tuple[Version, Version]:
    """The newer and the older version around the stop at ``end``."""
    return run.chain[end - 1], run.chain[end]
