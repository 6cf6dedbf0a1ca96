"""The GitHub Action adapter: inputs from env → Config → build → commit/push → outputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

from sitemill.commands.adapters import announced_exit
from sitemill.config.model import Config, IndexNowMode, env_name
from sitemill.config.tables import group_names
from sitemill.errors import SitemillError
from sitemill.filenames.groupnames import known_groups
from sitemill.filenames.outputs import ROBOTS_TXT, STATE_NAME, is_own_name
from sitemill.github._announce import Announced, Announcer, announce_pending, indexnow_outputs
from sitemill.github._check import check_deploy, finish_check
from sitemill.github._deepen import deepen_checkout
from sitemill.github._diff import diff_pull_request, finish_diff
from sitemill.github._mismatch import project_site_question, refuse_mismatch
from sitemill.github._previous import Messages, action_previous, keeps_state_beside, state_name
from sitemill.github._push import Pushed, commit_outputs
from sitemill.github.commands import (
    append_to,
    log_groups,
    log_lines,
    mask_secret,
    skip_annotations,
    workflow_command,
    write_outputs,
)
from sitemill.github.settings import Command, Settings, read_inputs
from sitemill.github.summary import render_failure, render_indexnow_summary, render_summary
from sitemill.indexnow.key import key_file_name
from sitemill.indexnow.outcome import outcome_of
from sitemill.jobs.afterpublish import folder_writer
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.jobs.tree import TreeAsked, build_tree
from sitemill.listing.siteurl import QUESTION
from sitemill.progress import Progress
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.llmsfiles import is_llms_file
from sitemill.state.store import open_state_store


@dataclass
class Outcome:
    """The final build report and what happened in git."""

    report: Report
    published: Pushed | None = None
    not_committed: str = ""  # why, when commit was asked for and not done
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # expected, but worth a line (::notice::)

    @property
    def changed(self) -> bool:
        if self.published is not None:
            return self.published.sha is not None
        return self.report.result.changed


def run_github_action(env: Mapping[str, str], cwd: Path, stdout: TextIO, stderr: TextIO) -> int:
    """Run the Action once; 0 on success, 1 (after one ``::error::`` line) on a SitemillError."""
    # First of all: the runner hides the key in every later line of the log.
    stdout.writelines(mask_secret(env.get(KEY_ENV, "")))
    with log_lines(stderr) as held:
        try:
            settings = read_inputs(env, cwd)
            if settings.config.indexnow_key != env.get(KEY_ENV, "").strip():
                stdout.writelines(mask_secret(settings.config.indexnow_key))  # sitemill.toml's
            if settings.command is Command.CHECK:
                return finish_check(settings, env, check_deploy(settings, env), stdout)
            if settings.command is Command.DIFF:  # (never commits)
                run_diff = diff_pull_request(settings, env, stdout)
                return finish_diff(settings, env, run_diff, stdout, held)
            if settings.command is Command.INDEXNOW:
                run: Outcome | Announced = announce_pending(settings, env)
            else:
                deepened = deepen_checkout(settings, env)
                stdout.write(deepened.said + "\n" if deepened.said else "")
                with log_groups(stdout) as progress:
                    run = execute(settings, env, progress)
                run.warnings[:0] = [deepened.warning] if deepened.warning else []
        except SitemillError as exc:
            held.flush_to(stderr)
            stdout.write(workflow_command("error", str(exc), title="sitemill") + "\n")
            append_to(env.get("GITHUB_STEP_SUMMARY"), render_failure(str(exc)))
            return 1
    if isinstance(run, Announced):
        said = [*run.outcome.messages, *run.warnings, *run.committed.warnings]
        run.warnings.extend(held.unsaid(said))
        return finish_announce(settings, env, run, stdout)
    run.warnings.extend(held.unsaid([*run.report.warnings, *run.warnings]))
    return finish_build(settings, env, run, stdout)


def finish_build(
    settings: Settings, env: Mapping[str, str], outcome: Outcome, stdout: TextIO
) -> int:
    """A build's annotations, outputs and job summary."""
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


def finish_announce(
    settings: Settings, env: Mapping[str, str], announced: Announced, stdout: TextIO
) -> int:
    """`command: indexnow`'s warnings, outputs and job summary; 1 when an engine refused
    URLs (400, 422: sending them again cannot help), as `sitemill indexnow` exits."""
    outcome, committed = announced.outcome, announced.committed
    warnings = list(dict.fromkeys([*outcome.messages, *announced.warnings, *committed.warnings]))
    for warning in warnings:
        stdout.write(workflow_command("warning", warning, title="sitemill") + "\n")
    published = committed.published
    sha = published.sha if published is not None else None
    changed = sha is not None if published is not None else announced.changed
    outputs = {
        "sitemap": "",
        "url-count": "",
        "files": "",
        "changed": "true" if changed else "false",
        "commit-sha": sha or "",
        **indexnow_outputs(outcome),
    }
    write_outputs(env.get("GITHUB_OUTPUT"), outputs)
    summary = render_indexnow_summary(
        outcome,
        published,
        committed.not_committed,
        announced.changed,
        warnings,
        _relative(settings.out_dir, settings.workspace),
    )
    append_to(env.get("GITHUB_STEP_SUMMARY"), summary)
    code = announced_exit(outcome)
    if code:
        refused = sum(outcome.refused.values())
        why = f"IndexNow: {refused:,} URL(s) refused (see the warnings); they are not sent again"
        stdout.write(workflow_command("error", why, title="sitemill") + "\n")
    return code


def execute(
    settings: Settings, env: Mapping[str, str], progress: Progress | None = None
) -> Outcome:
    """Build the sitemaps, write the IndexNow key file and (indexnow = send) announce; when
    asked, commit and push them all (regenerating on a retry); ``progress`` is told each
    phase of the build."""
    reports: list[Report] = []
    messages = Messages()
    state_store = open_state_store(settings.config)  # a path, or None: beside the sitemaps
    previous = action_previous(settings, messages)
    announcer = Announcer(settings.config)
    sink = LocalDirSink(settings.out_dir)

    def produce() -> list[str]:
        report = build_tree(
            settings.config,
            settings.site_dir,
            sink,
            RunAsked(OUTPUTS, progress, state_store=state_store, previous=previous),
            output_dir=settings.out_dir,
            tree=TreeAsked(site_url_check=partial(refuse_mismatch, settings)),
        )  # (refused: nothing written, announced or committed)
        announcer.after_publishing(report, folder_writer(sink))
        reports.append(report)
        return output_names(report, settings.config)

    committed = commit_outputs(settings, env, produce, committed_extras(settings))
    found = [*messages.warnings, *committed.warnings]
    question = project_site_question(settings.config.base_url, env.get("GITHUB_REPOSITORY"))
    if question is not None and not any(QUESTION in line for line in reports[-1].warnings):
        found.insert(0, question)  # (the canonicals, when they tell, ask it already)
    return Outcome(
        reports[-1], committed.published, committed.not_committed, found, messages.notices
    )


def committed_extras(settings: Settings) -> dict[str, str]:
    """The files a build commits besides its outputs (name -> what leaving it out costs):
    the state beside the sitemaps; the ``state`` input's file when it keeps the URLs still
    to announce (for `command: indexnow` in a later job, and the next build); the key file."""
    config = settings.config
    extras = {}
    if keeps_state_beside(config):
        extras[STATE_NAME] = "the next run starts from the live site's copy, or from plain dates"
    elif config.state is not None and config.indexnow is not IndexNowMode.OFF:
        extras[state_name(settings)] = (
            "a later checkout (the next build, `command: indexnow`) starts without it"
        )
    if config.indexnow_write_key_file:
        extras[key_file_name(config.indexnow_key)] = (
            "a site served from the repository serves no key file"
        )
    return extras


def output_names(report: Report, config: Config) -> list[str]:
    """sitemill's own files in the output directory this run wrote, kept or deleted."""
    result, groups = report.result, known_groups(group_names(config.groups), report.result.deleted)
    names = [name for name in (*result.files, *result.deleted) if is_own_name(name, groups)]
    # llms.txt and its kin sitemill keeps, and those it deleted (llms.run)
    names += [*result.llms.files, *(name for name in result.deleted if is_llms_file(name))]
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
        **indexnow_outputs(outcome_of(outcome.report)),
    }


KEY_ENV = env_name("indexnow_key")  # what the indexnow-key input is passed as


def _file_paths(settings: Settings, outcome: Outcome) -> list[str]:
    prefix = _relative(settings.out_dir, settings.workspace)
    return [prefix + name for name in outcome.report.result.files]


def _relative(directory: Path, workspace: Path) -> str:
    """``directory`` relative to the workspace as a POSIX prefix: "" or "public/"."""
    text = directory.relative_to(workspace).as_posix()
    return "" if text == "." else text + "/"
