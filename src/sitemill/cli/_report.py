"""What the CLI shows at the end of a run: its report (the live line: sitemill.cli._progress)."""

from __future__ import annotations

from typing import TextIO

from sitemill.cli._usage import say
from sitemill.entries import SkipReason
from sitemill.filenames.outputs import MARKDOWN_SUFFIX
from sitemill.lastmod.summary import dated_by
from sitemill.messages import counted
from sitemill.report import (
    Report,
    dates_line,
    extensions_line,
    heads_line,
    needs_line,
    requests_line,
    shards_line,
    style_line,
)


def print_report(report: Report, out_dir: str, stream: TextIO) -> None:
    result = report.result
    files = result.sitemap_count
    children = counted(files - len(result.entry_files), "sitemap")
    kind = "one sitemap" if files == 1 else f"an index of {children}"
    if result.users_named:
        kind += f" and {result.users_named:,} of yours"
    dates = report.lastmod_from or dated_by(report.dates, report.lastmod)
    say(stream, needs_line(report))  # (the warnings were logged to stderr as they were found)
    say(stream, f"{counted(result.url_count, 'URL')} in {kind} in {out_dir} (lastmod: {dates})")
    lines = [f"written: {_names(result.written)}"] if result.written else []
    if result.deleted:  # (a replaced index's children: names another tool chose)
        lines.append(f"deleted: {_names(result.deleted)}")
    _write_outcome(report, lines, "nothing changed", stream)
    if report.skipped:
        counts = ", ".join(
            f"{reason.value} {report.skipped[reason]:,}"
            for reason in SkipReason  # a fixed order: the README's table
            if report.skipped[reason]
        )
        say(stream, f"skipped: {counts}")
    # report.warnings are not repeated here: each was logged (to stderr) when it was found.


def print_preview(report: Report, where: str, stream: TextIO) -> None:
    """What a dry run found: the files that would be written and deleted."""
    result = report.result
    say(stream, f"dry run: nothing was written to {where}")
    say(
        stream,
        f"{counted(result.url_count, 'URL')} in {counted(result.sitemap_count, 'sitemap file')}",
    )
    files = [f"would write: {name}" for name in result.written]
    files += [f"would delete: {name}" for name in result.deleted]
    _write_outcome(report, files, "nothing would change", stream)


def _write_outcome(report: Report, files: list[str], unchanged: str, stream: TextIO) -> None:
    """The end of a run's lines, a dry run's too: its ``files`` lines (written, deleted),
    the llms.txt decision, ``unchanged`` when nothing changed, then the counts."""
    for line in files:
        say(stream, line)
    if report.result.llms.decision:
        say(stream, report.result.llms.decision)
    if not report.result.changed:
        say(stream, unchanged)
    _write_counts(report, stream)


# report.dates keys (sitemill.lastmod.decide.DateReason values): a date kept, or moved and why.
def _write_counts(report: Report, stream: TextIO) -> None:
    """The lines on page heads read and on dates, where there is something to say."""
    lines = (style_line, heads_line, dates_line, extensions_line, shards_line, requests_line)
    for line in (describe(report) for describe in lines):
        if line:
            say(stream, line)
    if report.indexnow is not None:
        say(stream, report.indexnow.line())


def _names(names: list[str]) -> str:
    """The files named, the Markdown twins of pages (llms_pages) counted, not named."""
    twins = [name for name in names if name.endswith(MARKDOWN_SUFFIX)]
    shown = [name for name in names if not name.endswith(MARKDOWN_SUFFIX)]
    if twins:
        shown.append(counted(len(twins), "Markdown twin"))
    return ", ".join(shown)
