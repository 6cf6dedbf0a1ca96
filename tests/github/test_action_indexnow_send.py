"""The Action sends to IndexNow: `command: indexnow` after a deploy sends what the committed
state holds pending and commits the state with what is left; a build with indexnow: send
sends before its commit, and a retried push sends nothing twice. The shared stand
(tests/enginestand.py, the `stand` fixture) on 127.0.0.1 is the engine (POST /indexnow) and
the live site (its key file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    Project,
    make_project,
    no_network,
    page,
    push_concurrently_before_each_push,
    remote_commit,
    run_action,
    subjects,
)
from test_action_indexnow import committed_pending, edit_and_push

from enginestand import KEY, Reply, Stand
from gitutil import git

pytestmark = pytest.mark.usefixtures("no_network")
STATE = "sitemill-state.json.gz"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def sent(stand: Stand) -> list[list[str]]:
    return [post["urlList"] for post in stand.posts]


def base(stand: Stand) -> str:
    return f"{stand.origin}/"


def built_with_pending(project: Project, stand: Stand) -> dict[str, str]:
    """Two builds with indexnow: later around an edit (one page changed, one added, one
    removed); what the committed state holds pending (no removed URL: it is public)."""
    inputs = {"base-url": base(stand), "indexnow": "later"}
    assert run_action(project.workspace, inputs).returncode == 0
    edit_and_push(project, {"about.html": page("About us"), "news.html": page("News")})
    assert run_action(project.workspace, inputs).returncode == 0
    git(project.workspace, "pull", "-q", "--ff-only")
    pending = committed_pending(project, STATE)
    site = base(stand)
    assert pending == {f"{site}about.html": "changed", f"{site}news.html": "added"}
    return pending


def announce(project: Project, stand: Stand) -> Any:
    inputs = {
        "base-url": base(stand),
        "command": "indexnow",
        "indexnow-key": KEY,
        "indexnow-endpoint": f"{base(stand)}indexnow",
    }
    return run_action(project.workspace, inputs)


def test_command_indexnow_sends_what_is_pending_and_commits_the_state(
    project: Project, stand: Stand
) -> None:
    pending = built_with_pending(project, stand)

    run = announce(project, stand)

    assert run.returncode == 0, run.stdout + run.stderr
    assert stand.posts == [
        {
            "host": "127.0.0.1",
            "key": KEY,
            "keyLocation": f"{base(stand)}{KEY}.txt",
            "urlList": sorted(pending),
        }
    ]
    assert committed_pending(project, STATE) == {}
    assert subjects(project.remote)[0] == "IndexNow: update the URLs still to announce"
    assert remote_commit(project.remote)["changes"] == [f"M\t{STATE}"]
    assert run.outputs["indexnow-sent"] == "2"
    assert run.outputs["indexnow-pending"] == "0"
    assert run.outputs["commit-sha"] == git(project.remote, "rev-parse", "main").decode().strip()
    assert run.summary.startswith("### sitemill indexnow: 2 sent, 0 pending, 0 refused\n")
    assert "2 URLs to announce (2 from earlier runs); 2 sent, 0 pending, 0 refused" in run.summary
    first, *rest = run.stdout.splitlines()
    assert first == f"::add-mask::{KEY}"
    assert KEY not in "\n".join(rest) + run.stderr + run.summary + str(run.outputs)

    # The next build starts from the committed state: nothing is sent or kept again.
    git(project.workspace, "pull", "-q", "--ff-only")
    later = run_action(project.workspace, {"base-url": base(stand), "indexnow": "later"})
    assert later.returncode == 0, later.stdout + later.stderr
    assert later.outputs["indexnow-pending"] == "0"
    assert later.outputs["changed"] == "false"


@pytest.mark.parametrize(
    ("status", "live", "row", "returncode"),
    [
        (200, False, "| pending | 2 | key file not live |", 0),
        (422, True, "| refused | 2 | 422 URLs not for this host or key |", 1),
    ],
    ids=["key file not live", "refused"],
)
def test_what_an_engine_does_not_take_is_counted_by_reason(
    project: Project, stand: Stand, status: int, live: bool, row: str, returncode: int
) -> None:
    pending = built_with_pending(project, stand)
    before = git(project.remote, "rev-parse", "main")
    stand.replies = [Reply(status)]
    if not live:
        stand.files.clear()

    run = announce(project, stand)

    assert run.returncode == returncode, run.stdout + run.stderr
    assert row in run.summary
    assert run.lines("::warning")  # the engine's answer, or the key file's
    errors = run.lines("::error")
    assert errors == (
        []
        if returncode == 0
        else [
            "::error title=sitemill::IndexNow: 2 URL(s) refused (see the warnings); "
            "they are not sent again"
        ]
    )
    held = pending if not live else {}  # kept for the next run, or dropped for good
    assert committed_pending(project, STATE) == held
    assert run.outputs["indexnow-pending"] == str(len(held))
    if not live:  # the state did not change: no commit
        assert git(project.remote, "rev-parse", "main") == before
        assert "Nothing changed: no commit" in run.summary
    assert KEY not in run.stdout.split("\n", 1)[1] + run.stderr + run.summary


def test_a_build_that_sends_sends_nothing_twice_when_its_push_is_retried(
    project: Project, stand: Stand
) -> None:
    inputs = {
        "base-url": base(stand),
        "indexnow": "send",
        "indexnow-key": KEY,
        "indexnow-endpoint": f"{base(stand)}indexnow",
    }
    assert run_action(project.workspace, inputs).returncode == 0  # a first run: no state
    edit_and_push(project, {"about.html": page("About us")})
    push_concurrently_before_each_push(project, times=1)  # adds new-1.html meanwhile

    run = run_action(project.workspace, inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    assert "after 2 attempts" in run.summary
    site = base(stand)
    assert sent(stand) == [[f"{site}about.html"], [f"{site}new-1.html"]]
    assert run.outputs["indexnow-sent"] == "2"  # both attempts' together
    assert run.outputs["indexnow-pending"] == "0"
    assert committed_pending(project, STATE) == {}
