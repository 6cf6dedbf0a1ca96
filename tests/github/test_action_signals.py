"""The Action cancelled once its build is under way (the runner sends SIGINT, then SIGTERM):
one line, never a traceback, and no git, worker, fork server or resource tracker left when it
has exited (issue 82: a killed run leaves no process behind)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    action_env,
    action_run_step,
    make_project,
    no_network,
)

from gitutil import commit
from signalrun import started

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="/proc and a fork server"),
    pytest.mark.usefixtures("no_network"),
]

PAGES, PAGE_LINES = 400, 2_000  # (enough bytes that the fork server starts: test_cli_signals)


@pytest.mark.parametrize(
    ("sent", "line"),
    [
        (signal.SIGINT, "sitemill: interrupted; nothing half-written was published"),
        (signal.SIGTERM, "sitemill: terminated; nothing half-written was published"),
    ],
    ids=["sigint", "sigterm"],
)
def test_a_cancelled_action_ends_in_one_line_leaving_nothing(
    tmp_path: Path, sent: signal.Signals, line: str
) -> None:
    project = make_project(tmp_path / "project")
    lines = "".join(f"<p>line {number} of a page</p>\n" for number in range(PAGE_LINES))
    pages = {
        f"d{number % 10}/p{number}.html": f"<title>p{number}</title><main>{lines}</main>"
        for number in range(PAGES)
    }
    commit(project.workspace, pages, when="2024-03-01T10:00:00+00:00", message="Pages")
    env = action_env(project.workspace, {"base-url": BASE_URL})
    argv = ["bash", "-c", action_run_step()["run"]]
    with started(argv, tmp_path / "run", env, cwd=project.workspace) as run:
        run.under_way()
        os.killpg(run.process.pid, sent)  # (the job's processes, as a cancel reaches them)
        run.process.wait()
        left = run.marked()
        said = run.said()
        assert line in said.splitlines(), said
        assert "Traceback" not in said and "leaked" not in said, said
        assert left == []
