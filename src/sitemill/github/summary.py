"""The job summary ($GITHUB_STEP_SUMMARY): counts, files, skips by reason, the commit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from sitemill.github.push import Published
from sitemill.report import Report

# The runner shows only a few annotations per step; the summary has the full counts.
MAX_FILES_LISTED: Final = 20
_BACKTICKS: Final = re.compile(r"`+")


def render_summary(
    report: Report,
    files: Sequence[str],
    published: Published | None,
    not_committed: str,
    warnings: Sequence[str],
    out_prefix: str = "",
) -> str:
    """The Markdown for $GITHUB_STEP_SUMMARY: counts, files, skips by reason, the commit.

    ``files`` are relative to the workspace; ``out_prefix`` leads to the output directory.
    """
    result = report.result
    count = len(files)
    lines = [
        f"### sitemill: {result.url_count:,} URLs in {count} file{'' if count == 1 else 's'}",
        "",
        f"- Entry file: {_code(files[0])} (lastmod from {report.lastmod.value})"
        if files
        else "- No files",
        f"- Files: {', '.join(_code(name) for name in files[:MAX_FILES_LISTED])}"
        + (f" and {count - MAX_FILES_LISTED} more" if count > MAX_FILES_LISTED else ""),
        f"- {_commit_line(result.changed, published, not_committed, out_prefix)}",
    ]
    skipped = sum(report.skipped.values())
    if skipped:
        lines += ["", f"Skipped {skipped} page{'' if skipped == 1 else 's'}:", ""]
        lines += ["| reason | pages |", "| --- | ---: |"]
        for reason, number in sorted(report.skipped.items(), key=lambda item: item[0].value):
            lines.append(f"| {reason.value} | {number} |")
    for warning in warnings:
        lines += ["", "> [!WARNING]", f"> {' '.join(warning.split())}"]
    return "\n".join(lines) + "\n\n"


def _commit_line(
    written: bool, published: Published | None, not_committed: str, out_prefix: str
) -> str:
    if published is None:
        state = "the files changed" if written else "nothing changed"
        return f"Not committed: {not_committed}; {state}"
    if published.sha is None:
        return "Nothing changed: no commit"
    retried = f" after {published.attempts} attempts" if published.attempts > 1 else ""
    paths = ", ".join(_code(out_prefix + name) for name in published.paths)
    return f"Committed {_code(published.sha[:12])} to {_code(published.branch)}{retried}: {paths}"


def render_failure(message: str) -> str:
    """The job summary of a run that failed."""
    return f"### sitemill failed\n\n{_code(message)}\n\n"


def _code(text: str) -> str:
    """A Markdown code span that holds any text (a fence longer than its longest backtick run)."""
    flat = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(flat)), default=0) + 1)
    return f"{fence} {flat} {fence}" if "`" in flat else f"{fence}{flat}{fence}"
