"""What the CLI shows on a terminal: a progress counter and the report of a run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from sitemill.entries import SkipReason
from sitemill.report import (
    Report,
    dates_line,
    extensions_line,
    heads_line,
    requests_line,
    shards_line,
    style_line,
)


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
    files = result.sitemap_count
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
    write_counts(report, stream)
    if report.skipped:
        counts = ", ".join(
            f"{reason.value} {report.skipped[reason]:,}"
            for reason in SkipReason  # a fixed order: the README's table
            if report.skipped[reason]
        )
        stream.write(f"skipped: {counts}\n")
    # report.warnings are not repeated here: each was logged (to stderr) when it was found.


# report.dates keys (sitemill.state.dating.DateReason values): a date kept, or moved and why.
def write_counts(report: Report, stream: TextIO) -> None:
    """The lines on page heads read and on dates, where there is something to say."""
    lines = (style_line, heads_line, dates_line, extensions_line, shards_line, requests_line)
    for line in (describe(report) for describe in lines):
        if line:
            stream.write(f"{line}\n")
    if report.indexnow is not None:
        stream.write(f"{report.indexnow.line()}\n")
