"""What the CLI shows on a terminal: a progress counter and the report of a run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from sitemill.entries import SkipReason
from sitemill.report import Report


class Progress:
    """A one-line counter on a terminal's stderr; silent when stderr is not a TTY."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.shown = False

    def __call__(self, count: int) -> None:
        if self.active:
            self.stream.write(f"\rsitemill: {count:,} …")
            self.stream.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")


@contextmanager
def terminal_progress(stream: TextIO) -> Iterator[Progress]:
    progress = Progress(stream)
    try:
        yield progress
    finally:
        progress.close()


def print_report(report: Report, out_dir: str, stream: TextIO) -> None:
    result = report.result
    files = len(result.files)
    kind = (
        "one sitemap" if files == 1 else f"an index of {files - len(result.entry_files)} sitemaps"
    )
    stream.write(
        f"{result.url_count:,} URLs in {kind} in {out_dir} (lastmod: {report.lastmod.value})\n"
    )
    if result.written:
        stream.write(f"written: {', '.join(result.written)}\n")
    if result.deleted:
        stream.write(f"deleted: {', '.join(result.deleted)}\n")
    if not result.changed:
        stream.write("nothing changed\n")
    if report.heads_read or report.heads_reused:
        # A bucket's pages: a ranged GET each, unless the state remembers their ETag.
        stream.write(
            f"page heads: {report.heads_read:,} read, {report.heads_reused:,} remembered from "
            "the last run\n"
        )
    dates = dates_line(report)
    if dates:
        stream.write(f"{dates}\n")
    if report.skipped:
        counts = ", ".join(
            f"{reason.value} {report.skipped[reason]:,}"
            for reason in SkipReason  # a fixed order: the README's table
            if report.skipped[reason]
        )
        stream.write(f"skipped: {counts}\n")
    # report.warnings are not repeated here: each was logged (to stderr) when it was found.


# report.dates keys (sitemill.dating.DateReason values): a date kept, or moved and why.
_KEPT, _NO_HISTORY = "kept", "no history"
_MOVED_ORDER = ("new page", "content changed")


def dates_line(report: Report) -> str:
    """``lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)``; empty when
    no date was decided by content (content dates off, or no page listed)."""
    dates = report.dates
    others = sorted(set(dates) - {_KEPT, _NO_HISTORY, *_MOVED_ORDER})
    moved = {reason: dates[reason] for reason in (*_MOVED_ORDER, *others) if dates[reason]}
    parts = []
    if dates[_KEPT] or moved:
        parts.append(f"{dates[_KEPT]:,} kept")
    if moved:
        why = ", ".join(f"{reason} {count:,}" for reason, count in moved.items())
        parts.append(f"{sum(moved.values()):,} moved ({why})")
    if dates[_NO_HISTORY]:
        parts.append(f"{dates[_NO_HISTORY]:,} from plain dates (no history: a first run)")
    return f"lastmod: {', '.join(parts)}" if parts else ""
