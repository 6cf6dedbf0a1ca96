"""`command: diff` in the Action: a pull request's site against the live site's state, shown."""
# The build is a dry run in memory (commands.diff): nothing is written, committed or pushed, so the
# job needs no token beyond the default read-only one. It compares with the state a build would
# start from (the checkout's, else previous-state, else the live site's copy; a 404 there is a
# notice). Every URL, target and detail shown is data: in the summary's tables a URL stays a URL
# for GitHub to link, with what a URL may not hold raw percent-encoded; other text is escaped as
# Markdown. The runner shows ten annotations of a kind per step: the summary lists every count.

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from sitemill.commands.adapters import diff_exit
from sitemill.commands.diff import TreeDiff, diff_tree
from sitemill.config.values import PREVIOUS_NONE
from sitemill.diff.model import Removed, SiteDiff, Verdict
from sitemill.diff.suggested import Suggested
from sitemill.errors import DiffError, StateError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.github._deepen import deepen_checkout
from sitemill.github.commands import (
    HeldWarnings,
    append_to,
    log_groups,
    workflow_command,
    write_outputs,
)
from sitemill.github.settings import Settings
from sitemill.github.summary import markdown_text
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.messages import counted, redact, shown
from sitemill.state.download import download
from sitemill.state.previous import PreviousState, previous_state

MAX_REMOVED_ROWS: Final = 100  # removed URLs the summary's table shows (gone ones first)
MAX_URLS_LISTED: Final = 50  # added, and changed, URLs the summary lists
MAX_ANNOTATED: Final = 50  # gone URLs annotated (the runner keeps 50 annotations a job)
MAX_REDIRECT_CHARS: Final = 65_536  # of the suggested redirects shown (the summary's cap: 1 MiB)
TITLE: Final = "sitemill diff"
DIFF_OUTPUTS: Final = ("added", "changed", "removed", "gone")  # counts of URLs
# What a URL may not hold raw (RFC 3986) and Markdown or a table would read: encoded, the same URL.
_NOT_IN_URL: Final = re.compile(r"[|`<>\[\]\\\"{}^\s]")
_URL: Final = re.compile(r"https?://\S+")
_BACKTICKS: Final = re.compile(r"`+")
# The removed URLs in the order a reviewer acts on them: a 404 first, then a redirect to add.
_ORDER: Final = (Verdict.GONE, Verdict.RENAMED, Verdict.REDIRECTED)
_FATE: Final = {
    Verdict.GONE: "gone: nothing redirects it and no new page holds it (a 404)",
    Verdict.RENAMED: "renamed: a new page holds its content (add the redirect below)",
    Verdict.REDIRECTED: "redirected: the change serves a redirect for it",
}


@dataclass
class DiffRun:
    """A pull request's diff (None: the live site has no state yet) and what it compared."""

    tree: TreeDiff | None
    against: str
    redirects: Suggested | None = None
    warnings: list[str] = field(default_factory=list)
    said: str = ""  # a line for the log (the checkout deepened)


def diff_pull_request(settings: Settings, env: Mapping[str, str], stdout: TextIO) -> DiffRun:
    """Build the checkout's site in memory (its history fetched first, as a build's, for the
    same dates; each phase a group of the log) and compare it with the state found."""
    deepened = deepen_checkout(settings, env)
    against = diff_against(settings)
    where = _where(settings, against.location)
    data = against.read()
    if data is None:
        if against.location == settings.config.base_url + STATE_NAME:  # the live site's copy
            return DiffRun(None, where, said=deepened.said)  # (none before the first deploy)
        raise DiffError(f"no state to compare with at {where}")
    with log_groups(stdout) as progress:
        tree = diff_tree(
            settings.config,
            settings.site_dir,
            PreviousState(where, lambda: data),
            RunAsked(OUTPUTS, progress),
        )
    warnings = [deepened.warning] if deepened.warning else []
    warnings += tree.report.warnings
    redirects = tree.suggested(settings.config.base_url, settings.redirects_form)
    return DiffRun(tree, where, redirects, warnings, deepened.said)


def diff_against(settings: Settings) -> PreviousState:
    """The state in the checkout, else ``previous-state``, else ``<base-url>`` + the state's
    name; a URL that cannot be fetched (but for a 404) is a DiffError: nothing to compare."""
    config = settings.config
    kept = Path(config.state) if config.state is not None else settings.out_dir / STATE_NAME
    if kept.is_file():
        return previous_state(str(kept))
    if config.previous_state == PREVIOUS_NONE:
        raise DiffError(
            f"no state to compare with: none at {kept.name} in the checkout, and "
            "previous-state is none (name a state file or URL, or leave it empty for the "
            "live site's copy)"
        )
    return previous_state(config.previous_state or config.base_url + STATE_NAME, fetch=_fetch)


def _where(settings: Settings, location: str) -> str:
    """A URL (its user info hidden), or a path relative to the workspace."""
    if "://" in location:
        return redact(location)
    try:
        return f"{Path(location).relative_to(settings.workspace).as_posix()} in the checkout"
    except ValueError:  # (a state input naming a file outside the workspace)
        return location


def _fetch(url: str) -> bytes | None:
    try:
        return download(url)
    except StateError as exc:
        raise DiffError(f"{exc}: nothing to compare with") from exc


def finish_diff(
    settings: Settings, env: Mapping[str, str], run: DiffRun, stdout: TextIO, held: HeldWarnings
) -> int:
    """Annotations, outputs and the job summary; 1 on a gone URL with fail-on-removed."""
    stdout.write(run.said + "\n" if run.said else "")
    warnings = list(dict.fromkeys(run.warnings))
    warnings += held.unsaid(warnings)
    for warning in warnings:
        stdout.write(workflow_command("warning", warning, title="sitemill") + "\n")
    if run.tree is None:
        said = f"no state at {run.against} yet (before the first deploy?): nothing to compare with"
        stdout.write(workflow_command("notice", said, title="sitemill diff") + "\n")
        write_outputs(env.get("GITHUB_OUTPUT"), dict.fromkeys(DIFF_OUTPUTS, ""))
        append_to(env.get("GITHUB_STEP_SUMMARY"), render_nothing_to_compare(said))
        return 0
    diff = run.tree.diff
    for line in gone_annotations(diff, fail=settings.fail_on_removed):
        stdout.write(line + "\n")
    write_outputs(env.get("GITHUB_OUTPUT"), diff_outputs(diff))
    summary = render_diff_summary(diff, run.against, run.redirects, warnings)
    append_to(env.get("GITHUB_STEP_SUMMARY"), summary)
    return diff_exit(diff, fail_on_removed=settings.fail_on_removed)


def diff_outputs(diff: SiteDiff) -> dict[str, str]:
    """The step outputs of `command: diff`: counts of URLs, as strings."""
    counts = diff.counts()
    return {name: str(counts[name]) for name in DIFF_OUTPUTS}


def gone_annotations(diff: SiteDiff, *, fail: bool) -> Iterator[str]:
    """An ``::error`` (``::warning`` unless ``fail``) per removed URL that is gone, up to
    MAX_ANNOTATED; then one that counts the rest."""
    level = "error" if fail else "warning"
    for item in diff.gone[:MAX_ANNOTATED]:
        detail = f" ({item.detail})" if item.detail else ""
        message = (
            f"{item.url} is removed and nothing redirects it: readers and crawlers will get "
            f"a 404{detail}"
        )
        yield workflow_command(level, message, title=TITLE)
    rest = len(diff.gone) - MAX_ANNOTATED
    if rest > 0:
        said = f"{counted(rest, 'more removed URL')} without a redirect: see the job summary"
        yield workflow_command(level, said, title=TITLE)


def render_diff_summary(
    diff: SiteDiff, against: str, redirects: Suggested | None, warnings: Sequence[str] = ()
) -> str:
    """The Markdown for $GITHUB_STEP_SUMMARY: the counts, the removed URLs with their fate,
    the suggested redirects, then the added and the changed URLs."""
    counts = diff.counts()
    lines = [
        f"### sitemill diff: {counted(counts['added'], 'URL')} added, "
        f"{counts['changed']:,} changed, {counts['removed']:,} removed "
        f"({counts['gone']:,} gone)",
        "",
        f"Compared with the state at {cell(against)}; nothing was written or committed.",
        "",
        "| URLs | count |",
        "| --- | ---: |",
        f"| added | {counts['added']:,} |",
        f"| changed | {counts['changed']:,} |",
        *(f"| removed, {_FATE[v]} | {counts[v.value]:,} |" for v in _ORDER),
    ]
    for warning in dict.fromkeys(warnings):
        lines += ["", "> [!WARNING]", f"> {markdown_text(warning)}"]
    if diff.gone:
        lines += ["", "> [!CAUTION]", f"> {_gone_line(len(diff.gone))}"]
    lines += _removed_table(diff.removed)
    lines += _redirects_block(redirects)
    lines += _listed("Added", [cell(url) for url in diff.added])
    # (the evidence names the new date: "2024-05-02T10:00:00+00:00 from the page's git history")
    changed = [f"{cell(c.url)} ({cell(c.evidence or c.lastmod or '')})" for c in diff.changed]
    lines += _listed("Changed", changed)
    return "\n".join(lines) + "\n\n"


def render_nothing_to_compare(said: str) -> str:
    """The job summary of a diff with no state to compare with."""
    return f"### sitemill diff: nothing to compare with\n\n{cell(said)}\n\n"


def _gone_line(count: int) -> str:
    return (
        f"{counted(count, 'removed URL')} {'is' if count == 1 else 'are'} gone: readers and "
        "crawlers will get a 404. Add a redirect for each, or keep the page."
    )


def _removed_table(removed: Sequence[Removed]) -> list[str]:
    if not removed:
        return []
    rows = sorted(removed, key=lambda item: (_ORDER.index(item.verdict), item.url))
    lines = ["", "#### Removed URLs", "", "| URL | fate | target | evidence |"]
    lines.append("| --- | --- | --- | --- |")
    for item in rows[:MAX_REMOVED_ROWS]:
        target = cell(item.target) if item.target else ""
        if item.target and item.resemblance is not None:
            target += f" ({item.resemblance:.0%} alike)"
        fate, detail = item.verdict.value, cell(item.detail)
        lines.append(f"| {cell(item.url)} | {fate} | {target} | {detail} |")
    return lines + _more(len(rows), MAX_REMOVED_ROWS)


def _redirects_block(redirects: Suggested | None) -> list[str]:
    if redirects is None or not redirects.text.strip():
        return []
    text = "\n".join(shown(line) for line in redirects.text.splitlines())
    cut = len(text) > MAX_REDIRECT_CHARS
    if cut:
        text = text[: text.rfind("\n", 0, MAX_REDIRECT_CHARS) + 1].rstrip("\n")
    fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(text))])
    heading = f"{counted(redirects.count, 'suggested redirect')}, in the"
    lines = ["", f"#### {heading} {markdown_text(redirects.form)} form", ""]
    unsaid = [note for note in redirects.notes if note not in text]  # (a form with comments)
    lines += [markdown_text(" ".join(unsaid)), ""] if unsaid else []
    lines += [fence + "text", text, fence]
    if cut:
        lines += ["", "… cut here: `sitemill diff --write-redirects FILE` writes them all."]
    return lines


def _listed(heading: str, items: Sequence[str]) -> list[str]:
    if not items:
        return []
    lines = ["", f"#### {heading} URLs", ""]
    return (
        lines
        + [f"- {item}" for item in items[:MAX_URLS_LISTED]]
        + _more(len(items), MAX_URLS_LISTED)
    )


def _more(count: int, shown_count: int) -> list[str]:
    return ["", f"… and {count - shown_count:,} more."] if count > shown_count else []


def cell(text: str) -> str:
    """``text`` on one line as plain text in a Markdown table cell: its URLs kept URLs, with
    the characters a URL may not hold raw percent-encoded; the rest escaped as Markdown."""
    encoded = _URL.sub(lambda m: _NOT_IN_URL.sub(_percent, m[0]), shown(text))
    return markdown_text(encoded)


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match[0].encode("utf-8"))
