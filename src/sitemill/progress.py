"""A run's progress, as a port: the core tells what it is doing, the front end shows it."""
# The front end shows it: a live line on a terminal, sitemill.cli._progress; a log group per
# phase in the Action, sitemill.github.commands.LogGroups; nothing in the Lambda. The core stays
# free of any display.

from __future__ import annotations

from collections.abc import Callable
from typing import Final

# Told (phase, done, total): ``total`` None while unknown. A phase is over when done == total.
Progress = Callable[[str, int, "int | None"], None]

LISTING: Final = "listing"  # files found in the site's folder
HISTORY: Final = "history"  # commits git log gave
READING: Final = "reading"  # pages read (heads, fingerprints), of the pages listed
DATES: Final = "dates"  # files walked back through their versions (content dates)
PAGES: Final = "pages"  # pages checked and listed (or left out), of those found
WRITING: Final = "writing"  # URLs written to sitemap files

# What a phase counts, after its figures: one, more.
_UNITS: Final = {
    LISTING: ("file", "files"),
    HISTORY: ("commit", "commits"),
    READING: ("page", "pages"),
    DATES: ("file with older versions", "files with older versions"),
    WRITING: ("URL", "URLs"),
}


def phase_text(phase: str, done: int, total: int | None) -> str:
    """``pages: 2,310 of 3,119``; ``history: 1,204 commits``; ``listing: 1 file``."""
    figures = f"{done:,}" if total is None or done == total else f"{done:,} of {total:,}"
    units = _UNITS.get(phase)
    if units is None:
        return f"{phase}: {figures}"
    return f"{phase}: {figures} {units[0] if (total or done) == 1 else units[1]}"


# Steps between two ticks: cheap enough per page (a call), often enough for a live line.
EVERY: Final = 100


class Ticker:
    """Counts the steps of one phase and tells ``progress`` when it starts (unless not
    ``start``), every ``every`` steps, and when it ends (done == total); does nothing
    without ``progress``."""

    def __init__(
        self,
        progress: Progress | None,
        phase: str,
        total: int | None = None,
        *,
        every: int = EVERY,
        start: bool = True,
    ) -> None:
        self.progress, self.phase, self.total, self.every = progress, phase, total, every
        self.done = 0
        self._next = every
        if progress is not None and start:
            progress(phase, 0, total)

    def begin(self, total: int | None) -> None:
        """Start the phase now that its total is known (a Ticker made with ``start=False``)."""
        self.total = total
        if self.progress is not None:
            self.progress(self.phase, self.done, total)

    def step(self, count: int = 1) -> None:
        self.done += count
        if self.progress is not None and self.done >= self._next:
            self._next = self.done + self.every
            self.progress(self.phase, self.done, self.total)

    def to(self, done: int) -> None:
        """Set the count (a total so far, as git's commits are counted)."""
        self.step(done - self.done)

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.phase, self.done, self.done)


def file_progress(progress: Progress | None) -> Callable[[str, int], None] | None:
    """Tell the URLs written, once per finished sitemap file of several (told the URLs so
    far): no per-URL cost. One sitemap file is written as the pages are checked."""
    if progress is None:
        return None
    ticker = Ticker(progress, WRITING, every=1, start=False)

    def on_file(name: str, url_count: int) -> None:
        ticker.to(url_count)

    return on_file
