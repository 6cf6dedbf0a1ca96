"""The job summary ($GITHUB_STEP_SUMMARY): counts, files, skips by reason, the commit."""
# Its charts are Mermaid (GitHub renders it in a summary): the listed pages by the month of their
# lastmod, so that a site stamped on one day stands out, and the pages left out by reason.

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from sitemill.entries import SkipReason
from sitemill.github._push import Pushed
from sitemill.indexnow.outcome import IndexNowOutcome, outcome_of
from sitemill.messages import counted, shown
from sitemill.report import (
    Report,
    dates_line,
    extensions_line,
    needs_line,
    shards_line,
    style_line,
)
from sitemill.state.pending import CHANGE_KINDS

# The runner shows only a few annotations per step; the summary has the full counts.
MAX_FILES_LISTED: Final = 20
_BACKTICKS: Final = re.compile(r"`+")
# What each reason means, in the words of the Action's inputs (README, "Which pages are listed").
SKIP_REASONS: Final = {
    SkipReason.EXCLUDED: "a 404 page, a `_static/` theme asset, a search-engine verification "
    "file, or a `[[rules]]` exclude",
    SkipReason.NOT_A_PAGE: "an .html file that is no HTML document (a template, a macro file)",
    SkipReason.ROBOTS_TXT: "the site's robots.txt disallows it (`respect-robots-txt`)",
    SkipReason.NOINDEX: "its robots meta tag says noindex (`respect-noindex`)",
    SkipReason.REDIRECT: "a meta refresh redirect stub (`respect-redirects`)",
    SkipReason.CANONICAL: "its canonical is another page of this sitemap (`respect-canonical`)",
    SkipReason.DUPLICATE: "a second file for a URL already listed (the first is kept)",
    SkipReason.TOO_LONG: "its URL would be longer than 2,048 characters",
    SkipReason.OFF_SITE: "not under the base URL",
}
# report.dates keys (sitemill.lastmod.decide.DateReason values): kept, or moved and why.
# Markdown would read these in a warning's text (`**/node_modules/**` as bold, `<meta …>` as
# HTML); URLs are left as they are, for GitHub to link.
_MARKDOWN: Final = re.compile(r"([\\`*_\[\]<>|~#&!])")
_URL: Final = re.compile(r"(https?://\S+)")
_MONTH: Final = re.compile(r"\d{4}-\d{2}")


def render_summary(
    report: Report,
    files: Sequence[str],
    published: Pushed | None,
    not_committed: str,
    warnings: Sequence[str],
    out_prefix: str = "",
    *,
    notices: Sequence[str] = (),
) -> str:
    """The Markdown for $GITHUB_STEP_SUMMARY: whether anything needs the user, counts, files,
    the dates by month and the skips by reason (charts), the commit.

    ``files`` are relative to the workspace; ``out_prefix`` leads to the output directory.
    """
    result = report.result
    count = len(files)
    needs = markdown_text(needs_line(report))
    lines = [
        f"### sitemill: {counted(result.url_count, 'URL')} in {counted(count, 'file')}; {needs}",
        "",
        f"- Entry file: {_code(files[0])} (lastmod from {report.lastmod.value})"
        if files
        else "- No files",
        f"- Files: {', '.join(_code(name) for name in files[:MAX_FILES_LISTED])}"
        + (f" and {count - MAX_FILES_LISTED} more" if count > MAX_FILES_LISTED else ""),
        f"- {_commit_line(result.changed, published, not_committed, out_prefix)}",
    ]
    for extra in (extensions_line(report), dates_line(report), shards_line(report)):
        if extra:
            lines.insert(3, f"- {extra}")
    if report.url_style is not None:  # (what auto decided, and why)
        lines.insert(3, f"- {markdown_text(style_line(report))}")
    announced = outcome_of(report)
    if announced is not None:
        lines[-1:-1] = [f"- {indexnow_line(announced)}"]
    for warning in dict.fromkeys(warnings):
        lines += ["", "> [!WARNING]", f"> {markdown_text(warning)}"]
    for notice in dict.fromkeys(notices):
        lines += ["", "> [!NOTE]", f"> {markdown_text(notice)}"]
    if announced is not None:
        lines += indexnow_table(announced)
    lines += dates_chart(report.months)
    skipped = sum(report.skipped.values())
    if skipped:
        lines += skips_chart(report.skipped)
        lines += ["", f"Skipped {skipped:,} page{'' if skipped == 1 else 's'}:", ""]
        lines += ["| reason | pages | why |", "| --- | ---: | --- |"]
        for reason in SkipReason:  # the order of the README's table, fixed
            if report.skipped[reason]:
                why = SKIP_REASONS.get(reason, "")
                lines.append(f"| {reason.value} | {report.skipped[reason]:,} | {why} |")
    return "\n".join(lines) + "\n\n"


def render_indexnow_summary(
    outcome: IndexNowOutcome,
    published: Pushed | None,
    not_committed: str,
    changed: bool,
    warnings: Sequence[str],
    out_prefix: str = "",
) -> str:
    """The job summary of `command: indexnow`: the counts, what is pending or refused by
    reason, the commit of the state."""
    sent, refused = sum(outcome.sent.values()), sum(outcome.refused.values())
    lines = [
        f"### sitemill indexnow: {sent:,} sent, {outcome.pending:,} pending, {refused:,} refused",
        "",
        f"- {indexnow_line(outcome)}",
        f"- {_commit_line(changed, published, not_committed, out_prefix)}",
    ]
    for warning in dict.fromkeys(warnings):
        lines += ["", "> [!WARNING]", f"> {markdown_text(warning)}"]
    return "\n".join([*lines, *indexnow_table(outcome)]) + "\n\n"


def indexnow_line(outcome: IndexNowOutcome) -> str:
    """What a run found to announce, and what became of it."""
    parts = [f"{outcome.found[kind]:,} {kind}" for kind in CHANGE_KINDS if outcome.found[kind]]
    if outcome.carried:
        parts.append(f"{outcome.carried:,} from earlier runs")
    count = len(outcome.urls)
    line = f"IndexNow ({outcome.mode.value}): {count:,} URL{'' if count == 1 else 's'} to announce"
    line += f" ({', '.join(parts)})" if parts else ""
    if not outcome.delivered:
        return f"{line}; {outcome.pending:,} kept pending for a `command: indexnow` step"
    sent, refused = sum(outcome.sent.values()), sum(outcome.refused.values())
    return f"{line}; {sent:,} sent, {outcome.pending:,} pending, {refused:,} refused"


def indexnow_table(outcome: IndexNowOutcome) -> list[str]:
    """The URLs kept pending and those refused, by reason (none: no table)."""
    rows = [("pending", reason, count) for reason, count in sorted(outcome.held.items())]
    rows += [("refused", reason, count) for reason, count in sorted(outcome.refused.items())]
    if not rows:
        return []
    lines = ["", "IndexNow, by reason:", "", "| URLs | count | reason |", "| --- | ---: | --- |"]
    return lines + [f"| {what} | {n:,} | {markdown_text(why)} |" for what, why, n in rows]


def markdown_text(text: str) -> str:
    """``text`` on one line, as plain text in Markdown: what Markdown would read as markup is
    escaped, except in URLs."""
    parts = _URL.split(shown(" ".join(text.split())))
    return "".join(
        part if index % 2 else _MARKDOWN.sub(r"\\\1", part) for index, part in enumerate(parts)
    )


def _commit_line(
    written: bool, published: Pushed | None, not_committed: str, out_prefix: str
) -> str:
    if published is None:
        state = "the files changed" if written else "nothing changed"
        return f"Not committed: {not_committed}; {state}"
    if published.sha is None:
        return "Nothing changed: no commit"
    retried = f" after {published.attempts} attempts" if published.attempts > 1 else ""
    # (shown: the IndexNow key file's name is the key)
    paths = ", ".join(
        _code(shown(posixpath.normpath(out_prefix + name))) for name in published.paths
    )
    return f"Committed {_code(published.sha[:12])} to {_code(published.branch)}{retried}: {paths}"


def render_failure(message: str) -> str:
    """The job summary of a run that failed."""
    return f"### sitemill failed\n\n{_code(shown(message))}\n\n"


def _code(text: str) -> str:
    """A Markdown code span that holds any text (a fence longer than its longest backtick run)."""
    flat = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(flat)), default=0) + 1)
    return f"{fence} {flat} {fence}" if "`" in flat else f"{fence}{flat}{fence}"


def dates_chart(months: Mapping[str, int]) -> list[str]:
    """A bar a month for this year and the last, a bar a year before them; none when no
    listed page has a date. ``months``: listed URLs by their lastmod's month ("" none)."""
    dated = {month: count for month, count in months.items() if _MONTH.fullmatch(month)}
    if not dated:
        return []
    bars = _bars(dated)
    title = "Listed pages by the month of their lastmod"
    undated = months.get("", 0)
    apart = [f"{undated:,} without one"] if undated else []
    if year_only := sum(months.values()) - sum(dated.values()) - undated:  # (a URL list's)
        apart.append(f"{year_only:,} with a year only")
    if apart:
        title += f" ({', '.join(apart)})"
    labels = [f'"{label}"' for label, _ in bars]  # (digits and a dash: nothing to escape)
    return [
        "",
        "```mermaid",
        "xychart-beta",
        f'    title "{title}"',
        f"    x-axis [{', '.join(labels)}]",
        '    y-axis "pages"',
        f"    bar [{', '.join(str(count) for _, count in bars)}]",
        "```",
    ]


def skips_chart(skipped: Counter[SkipReason]) -> list[str]:
    """A pie of the pages left out by reason (in the README's order); none when none was."""
    slices = [(reason.value, skipped[reason]) for reason in SkipReason if skipped[reason]]
    if not slices:
        return []
    lines = ["", "```mermaid", "pie title Pages left out, by reason"]
    return [*lines, *(f'    "{reason}" : {count}' for reason, count in slices), "```"]


def _bars(dated: dict[str, int]) -> list[tuple[str, int]]:
    """(label, pages) from the oldest dated month to the newest: months from January of the
    year before the newest date's, years before that (every one between, empty or not)."""
    first, last = min(dated), max(dated)
    since = f"{int(last[:4]) - 1:04d}-01"
    years: Counter[str] = Counter()
    for month, count in dated.items():
        if month < since:
            years[month[:4]] += count
    bars = [(str(year), years[str(year)]) for year in range(int(first[:4]), int(since[:4]))]
    start = max(first, since)
    return bars + [(month, dated.get(month, 0)) for month in _months(start, last)]


def _months(first: str, last: str) -> Iterator[str]:
    """Every month from ``first`` to ``last`` (``YYYY-MM``), both included."""
    year, month = int(first[:4]), int(first[5:])
    while (label := f"{year:04d}-{month:02d}") <= last:
        yield label
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
