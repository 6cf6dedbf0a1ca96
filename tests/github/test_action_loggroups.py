"""The Action's log folds each phase of a run in a group (issue 41: a long first run showed
nothing until the end)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from test_action import BASE_URL, make_project, run_action

from sitemill.github.commands import LogGroups


def test_the_action_log_folds_each_phase_in_a_group(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_action(project.workspace, {"base-url": BASE_URL})
    assert run.returncode == 0, run.stdout + run.stderr
    folded = re.findall(r"::group::sitemill: (\w+)\n(.*?)::endgroup::", run.stdout, re.S)
    phases = [phase for phase, _ in folded]
    assert phases[0] == "listing" and {"history", "reading", "pages"} <= set(phases)
    assert run.stdout.count("::group::") == run.stdout.count("::endgroup::")  # none left open
    assert "sitemill: listing: 6 files\n" in dict(folded)["listing"]  # its count, at its end
    assert "sitemill: history: 2 commits" in run.stdout


def test_a_phase_starting_beside_another_ends_the_open_group() -> None:
    log = io.StringIO()
    groups = LogGroups(log)
    groups("history", 0, None)
    groups("reading", 0, 3)  # git log runs in a thread while the pages are read
    groups("history", 1_204, 1_204)
    groups("reading", 3, 3)
    groups("dates", 0, 0)  # nothing to walk: begun and finished at once, told once
    groups("dates", 0, 0)
    groups.close()
    assert log.getvalue() == (
        "::group::sitemill: history\n"
        "::endgroup::\n"
        "::group::sitemill: reading\n"
        "sitemill: history: 1,204 commits\n"
        "sitemill: reading: 3 pages\n"
        "::endgroup::\n"
        "::group::sitemill: dates\n"
        "sitemill: dates: 0 files with older versions\n"
        "::endgroup::\n"
    )
