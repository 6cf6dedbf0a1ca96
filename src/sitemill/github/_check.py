"""`command: check` in the Action: the live site against the build, annotated, then IndexNow."""
# A job after the deploy (actions/deploy-pages): the check reads the committed state and sitemaps of
# the checkout; each problem is an ``::error::`` (``::warning::`` with warn-only) and a row of the
# job summary's table. With an IndexNow key, the pending URLs that passed are sent and the state is
# committed with the rest, as `command: indexnow` commits it; the check runs once, whatever attempts
# the commit takes.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

from sitemill.check.problems import CheckReport
from sitemill.check.run import CheckOptions
from sitemill.commands.adapters import check_folder
from sitemill.commands.check import Checked, announce_passed
from sitemill.github._announce import Announcer, indexnow_outputs, send_committed
from sitemill.github._push import Committed
from sitemill.github.commands import append_to, workflow_command, write_outputs
from sitemill.github.settings import Settings
from sitemill.github.summary import indexnow_line, indexnow_table, markdown_text
from sitemill.indexnow.outcome import IndexNowOutcome
from sitemill.indexnow.pending import StatePending
from sitemill.jobs.features import OUTPUTS
from sitemill.web.livesite import Limits

MAX_ROWS = 200  # problems the job summary's table shows (every one is an annotation too)


@dataclass
class CheckRun:
    checked: Checked
    committed: Committed | None = None  # the state's, when IndexNow changed what is pending


def check_deploy(settings: Settings, env: Mapping[str, str]) -> CheckRun:
    """Check the live site against the checkout's build; then announce what passed."""
    config, site_dir, out_dir = settings.config, settings.site_dir, settings.out_dir
    options = CheckOptions(every=settings.check_all, outputs=OUTPUTS)
    checked = check_folder(config, site_dir, out_dir, options, Limits(), announce=False)
    if not config.indexnow_key:  # (only a build with IndexNow on leaves URLs pending)
        return CheckRun(checked)

    def send(pending: StatePending, announcer: Announcer) -> IndexNowOutcome:
        return announce_passed(config, pending, checked.report, announcer.deliver)

    checked.indexnow, committed = send_committed(settings, env, send)
    return CheckRun(checked, committed)


def finish_check(settings: Settings, env: Mapping[str, str], run: CheckRun, stdout: TextIO) -> int:
    """Annotations, outputs and the job summary; 1 on any problem unless warn-only."""
    report, outcome = run.checked.report, run.checked.indexnow
    level = "warning" if settings.warn_only else "error"
    for problem in report.sorted_problems():
        stdout.write(workflow_command(level, problem.line(), title="sitemill check") + "\n")
    for note in report.notes:
        stdout.write(workflow_command("notice", note, title="sitemill check") + "\n")
    messages = [] if outcome is None else outcome.messages
    if run.committed is not None:
        messages = [*messages, *run.committed.warnings]
    for message in dict.fromkeys(messages):
        stdout.write(workflow_command("warning", message, title="sitemill") + "\n")
    sha = run.committed.published.sha if run.committed and run.committed.published else None
    outputs = {
        "problems": str(len(report.sorted_problems())),
        "changed": "true" if sha else "false",
        "commit-sha": sha or "",
        **indexnow_outputs(outcome),
    }
    write_outputs(env.get("GITHUB_OUTPUT"), outputs)
    append_to(env.get("GITHUB_STEP_SUMMARY"), render_check_summary(report, outcome))
    return run.checked.exit_code(settings.warn_only)


def render_check_summary(report: CheckReport, outcome: IndexNowOutcome | None) -> str:
    """The job summary: the summary line, a table of the problems, IndexNow's line."""
    problems = report.sorted_problems()
    lines = [f"### sitemill check: {len(problems):,} problem(s)", "", f"- {report.summary()}"]
    if outcome is not None:
        lines.append(f"- {markdown_text(indexnow_line(outcome))}")
    if problems:
        lines += ["", "| URL | kind | problem | fix |", "| --- | --- | --- | --- |"]
        lines += [
            f"| {markdown_text(p.url)} | {p.kind} | {markdown_text(p.what)} | "
            f"{markdown_text(p.fix)} |"
            for p in problems[:MAX_ROWS]
        ]
        if len(problems) > MAX_ROWS:
            lines += ["", f"… and {len(problems) - MAX_ROWS:,} more (see the annotations)."]
    lines += [f"- note: {markdown_text(note)}" for note in report.notes]
    if outcome is not None:
        lines += indexnow_table(outcome)
    return "\n".join(lines) + "\n\n"
