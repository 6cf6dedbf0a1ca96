"""What the Action tells the runner: workflow commands (escaped) and the job summary."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from sitemill.github.push import Published
from sitemill.report import Report

# The runner shows only a few annotations per step; the summary has the full counts.
MAX_FILES_LISTED: Final = 20
_BACKTICKS: Final = re.compile(r"`+")


def escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped, as @actions/core does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,``, which end a property."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(name: str, message: str, **properties: str) -> str:
    """One ``::name key=value,…::message`` line.

    See https://docs.github.com/actions/reference/workflow-commands-for-github-actions.
    """
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def skip_annotations(report: Report, site_prefix: str) -> Iterator[str]:
    """A ``::warning file=…::`` per skipped page, paths relative to the workspace."""
    for skip in report.skips:
        detail = f" ({skip.detail})" if skip.detail else ""
        yield workflow_command(
            "warning",
            f"not in the sitemap: {skip.reason.value}{detail}",
            file=site_prefix + skip.path,
            title="sitemill skipped this page",
        )
    unlisted = sum(report.skipped.values()) - len(report.skips)
    if unlisted > 0:
        yield workflow_command("warning", f"{unlisted} more skipped pages are not annotated")


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
