"""A URL list's lastmods after the run's time, dropped from their lines and said once."""
# A lastmod the list gives is published as given, but none after the run's time (docs/lastmod.md,
# "No date from the future"): a 2099 or a 9999-12-31 is no time a page changed. The line stays
# listed without its lastmod; one warning counts them and quotes the first.

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from sitemill.entries import Entry, UrlBlock, UrlBlocks
from sitemill.lastmod.decide import evidence_ceiling

log = logging.getLogger(__name__)


@dataclass
class LateLastmods:
    """Drops each lastmod that sorts after ``ceiling`` (sitemill.lastmod.decide: the
    written forms sort as the instants they name), counting them."""

    ceiling: str
    count: int = 0
    first: tuple[str, str] | None = None  # a dropped one's URL and lastmod

    @classmethod
    def now(cls) -> LateLastmods:
        """For a run that starts now."""
        return cls(evidence_ceiling(datetime.now(UTC)))

    def dropped(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """``entries`` (UrlBlocks: a block at a time) with no lastmod after the ceiling."""
        if isinstance(entries, UrlBlocks):
            return UrlBlocks(map(self._block, entries.blocks))
        return map(self._entry, entries)

    def _entry(self, entry: Entry) -> Entry:
        if entry.lastmod is None or entry.lastmod <= self.ceiling:
            return entry
        self._note(entry.loc, entry.lastmod)
        return Entry(entry.loc, None, entry.changefreq, entry.priority)

    def _block(self, block: UrlBlock) -> UrlBlock:
        ceiling, stamps = self.ceiling.encode("ascii"), block.lastmods
        if stamps is None or (block.newest or max(filter(None, stamps), default=b"")) <= ceiling:
            return block  # (the usual block: its newest found as it was read, or one pass in C)
        kept: list[bytes | None] = []
        for loc, stamp in zip(block.locs, stamps, strict=True):
            if stamp is not None and stamp > ceiling:
                self._note(loc.decode("ascii"), stamp.decode("ascii"))
                stamp = None
            kept.append(stamp)
        return UrlBlock(block.locs, kept if any(kept) else None)

    def _note(self, loc: str, lastmod: str) -> None:
        self.count += 1
        self.first = self.first or (loc, lastmod)

    def warnings(self) -> list[str]:
        """The one line that says what was dropped (none: [])."""
        if self.first is None:
            return []
        loc, lastmod = self.first
        message = (
            f"{self.count:,} lastmod(s) after the run's time dropped (no time a page changed; "
            f"the URLs stay listed without one), e.g. {loc} {lastmod!r}"
        )
        log.warning("%s", message)
        return [message]
