"""The GitHub Action adapter: inputs from env → Config → build → commit/push → outputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sitemill.config.model import Config
from sitemill.errors import SinkError, SitemillError
from sitemill.github.commands import (
    append_to,
    log_lines,
    skip_annotations,
    workflow_command,
    write_outputs,
)
from sitemill.github.previous import Messages, action_previous, keeps_state_beside
from sitemill.github.push import Published, commit_and_push
from sitemill.github.repo import Repo
from sitemill.github.settings import Settings, read_settings
from sitemill.github.summary import render_failure, render_summary
from sitemill.jobs.tree import build_from_tree
from sitemill.outputs import ROBOTS_TXT, STATE_NAME, is_own_name
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.store import open_state_store


@dataclass
class Outcome:
    """The final build report and what happened in git."""

    report: Report
    published: Published | None = None
    not_committed: str = ""  # why, when commit was asked for and not done
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # expected, but worth a line (::notice::)

    @property
    def changed(self) -> bool:
        if self.published is not None:
            return self.published.sha is not None
        return self.report.result.changed


def main(env: Mapping[str, str], cwd: Path, stdout: TextIO, stderr: TextIO) -> int:
    """Run the Action once; 0 on success, 1 (after one ``::error::`` line) on a SitemillError."""
    with log_lines(stderr):
        try:
            settings = read_settings(env, cwd)
            outcome = execute(settings, env)
        except SitemillError as exc:
            stdout.write(workflow_command("error", str(exc), title="sitemill") + "\n")
            append_to(env.get("GITHUB_STEP_SUMMARY"), render_failure(str(exc)))
            return 1
    # The run's warnings first: the runner shows at most ten warning annotations per step, and
    # one warning (a wrong site URL in every canonical) matters more than ten skipped pages.
    warnings = list(dict.fromkeys([*outcome.report.warnings, *outcome.warnings]))
    for warning in warnings:
        stdout.write(workflow_command("warning", warning, title="sitemill") + "\n")
    for notice in dict.fromkeys(outcome.notices):
        stdout.write(workflow_command("notice", notice, title="sitemill") + "\n")
    for line in skip_annotations(outcome.report, _relative(settings.site_dir, settings.workspace)):
        stdout.write(line + "\n")
    write_outputs(env.get("GITHUB_OUTPUT"), action_outputs(settings, outcome))
    summary = render_summary(
        outcome.report,
        _file_paths(settings, outcome),
        outcome.published,
        outcome.not_committed,
        warnings,
        _relative(settings.out_dir, settings.workspace),
        notices=outcome.notices,
    )
    append_to(env.get("GITHUB_STEP_SUMMARY"), summary)
    return 0


def execute(settings: Settings, env: Mapping[str, str]) -> Outcome:
    """Build the sitemaps; when asked, commit and push them (regenerating on a retry)."""
    reports: list[Report] = []
    messages = Messages()
    state_store = open_state_store(settings.config)  # a path, or None: beside the sitemaps
    previous = action_previous(settings, messages)
    state_names = [STATE_NAME] if keeps_state_beside(settings.config) else []

    def produce() -> list[str]:
        report = build_from_tree(
            settings.config,
            settings.site_dir,
            LocalDirSink(settings.out_dir),
            output_dir=settings.out_dir,
            state_store=state_store,
            previous=previous,
        )
        reports.append(report)
        return [*output_names(report, settings.config), *state_names]

    def outcome(published: Published | None = None, why: str = "", *warnings: str) -> Outcome:
        found = [*messages.warnings, *warnings]
        return Outcome(reports[-1], published, why, found, messages.notices)

    if not settings.commit:
        produce()
        return outcome(None, "commit is false")
    try:  # git needs a working directory to run in; the sink would create it anyway
        settings.out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SinkError(f"cannot create {settings.out_dir}: {exc.strerror or exc}") from exc
    repo = Repo.open(settings.out_dir, settings.committer, env)
    branch = repo.current_branch()
    if branch is None:
        # A pull_request checkout is a detached merge commit: nothing to push to.
        produce()
        why = "HEAD is detached (a pull_request or tag checkout?)"
        advice = "check out a branch (actions/checkout `ref:`) or set commit: false"
        return outcome(None, why, f"{why}: the sitemaps were written but not committed; {advice}")
    ignored = repo.ignored(state_names) if state_names else []
    if ignored:
        state_names.clear()
        messages.warnings.append(
            f"git ignores {STATE_NAME} (.gitignore), so it is not committed: the next run "
            "starts from the live site's copy, or from plain dates"
        )
    return outcome(commit_and_push(repo, branch, produce, settings.message))


def output_names(report: Report, config: Config) -> list[str]:
    """sitemill's own files in the output directory this run wrote, kept or deleted."""
    result = report.result
    names = [name for name in (*result.files, *result.deleted) if is_own_name(name)]
    if config.robots_txt:
        names.append(ROBOTS_TXT)
    return list(dict.fromkeys(names))


def action_outputs(settings: Settings, outcome: Outcome) -> dict[str, str]:
    """The step outputs of action.yml, as strings."""
    result = outcome.report.result
    files = _file_paths(settings, outcome)
    sha = outcome.published.sha if outcome.published is not None else None
    return {
        "sitemap": files[0] if files else "",
        "url-count": str(result.url_count),
        "files": "\n".join(files),
        "changed": "true" if outcome.changed else "false",
        "commit-sha": sha or "",
    }


def _file_paths(settings: Settings, outcome: Outcome) -> list[str]:
    prefix = _relative(settings.out_dir, settings.workspace)
    return [prefix + name for name in outcome.report.result.files]


def _relative(directory: Path, workspace: Path) -> str:
    """``directory`` relative to the workspace as a POSIX prefix: "" or "public/"."""
    text = directory.relative_to(workspace).as_posix()
    return "" if text == "." else text + "/"
