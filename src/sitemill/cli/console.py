"""What the CLI shows at the end of a run: its report (the live line: sitemill.cli.liveline)."""

from __future__ import annotations

from typing import TextIO

from sitemill.entries import SkipReason
from sitemill.messages import counted
from sitemill.report import (
    Report,
    dates_line,
    extensions_line,
    heads_line,
    requests_line,
    shards_line,
    style_line,
)


def print_report(report: Report, out_dir: str, stream: TextIO) -> None:
    result = report.result
    files = result.sitemap_count
    kind = (
        "one sitemap" if files == 1 else f"an index of {files - len(result.entry_files)} sitemaps"
    )
    dates = report.lastmod_from or report.lastmod.value
    stream.write(f"{counted(result.url_count, 'URL')} in {kind} in {out_dir} (lastmod: {dates})\n")
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
