"""`command: diff` in the Action: a pull request's site against the live site's state."""
# The build is a dry run in memory (commands.diff): nothing is written into the site, and nothing is
# committed or pushed, whatever the commit input says, so the job needs no token beyond the default
# read-only one. It compares with the state a build would start from: the state in the checkout
# (beside the sitemaps, or the state input's file), else previous-state, else the live site's copy;
# a live site that has none yet (a 404: before the first deploy) is a notice and nothing to compare.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sitemill.commands.diff import TreeDiff, diff_tree
from sitemill.config.values import PREVIOUS_NONE
from sitemill.diff.suggested import Suggested
from sitemill.errors import DiffError, StateError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.github._deepen import deepen_checkout
from sitemill.github._diffsummary import (
    DIFF_OUTPUTS,
    diff_outputs,
    gone_annotations,
    render_diff_summary,
    render_nothing_to_compare,
)
from sitemill.github.commands import (
    HeldWarnings,
    append_to,
    log_groups,
    workflow_command,
    write_outputs,
)
from sitemill.github.settings import Settings
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.messages import redact
from sitemill.state.download import download
from sitemill.state.previous import PreviousState, previous_state


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
    return 1 if settings.fail_on_removed and diff.gone else 0
