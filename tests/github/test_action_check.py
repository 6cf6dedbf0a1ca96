"""`command: check` in a job after the deploy: an error annotation and a summary row per
problem, exit 1 (0 with warn-only); with IndexNow on, the engine gets only the pending URLs
that passed and the state is committed with the rest. The stand (tests/enginestand.py) on
127.0.0.1 is the live site and the engine."""

from __future__ import annotations

import io
import mimetypes
from pathlib import Path

import pytest
from test_action import (  # noqa: F401
    Project,
    make_project,
    no_network,
    run_action,
    runner_env,
)
from test_action_indexnow import committed_pending
from test_action_indexnow_send import STATE, base, built_with_pending

from actionsteps import parse_outputs
from enginestand import KEY, Stand
from gitutil import git
from llmsrecord import keep_llms_digests
from sitemill.github.action import run_github_action

pytestmark = pytest.mark.usefixtures("no_network")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def deploy(workspace: Path, stand: Stand) -> None:
    """What actions/deploy-pages would publish: the checkout's files, each at its path."""
    stand.files.clear()
    for file in sorted(workspace.rglob("*")):
        rel = file.relative_to(workspace).as_posix()
        if file.is_file() and not rel.startswith(".git/"):
            kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
            stand.files["/" + rel] = (200, file.read_bytes(), {"Content-Type": kind})
    stand.files["/"] = stand.files["/index.html"]
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/plain"})


def check_inputs(stand: Stand, **more: str) -> dict[str, str]:
    return {
        "base-url": base(stand),
        "command": "check",
        "indexnow": "later",
        "indexnow-key": KEY,
        "indexnow-endpoint": f"{base(stand)}indexnow",
        **more,
    }


def test_check_annotates_each_problem_and_announces_only_what_passed(
    project: Project, stand: Stand
) -> None:
    pending = built_with_pending(project, stand)
    site_commit = git(project.workspace, "rev-parse", ":/^Site").decode().strip()
    old_about = git(project.workspace, "show", f"{site_commit}:about.html")
    deploy(project.workspace, stand)
    stand.files["/about.html"] = (200, old_about, {"Content-Type": "text/html"})

    run = run_action(project.workspace, check_inputs(stand))

    assert run.returncode == 1, run.stdout + run.stderr
    errors = run.lines("::error")
    assert len(errors) == 1 and f"{base(stand)}about.html: serves another version" in errors[0]
    assert errors[0].startswith("::error title=sitemill check::")
    assert [post["urlList"] for post in stand.posts] == [[f"{base(stand)}news.html"]]
    assert committed_pending(project, STATE) == {f"{base(stand)}about.html": "changed"}
    assert set(pending) == {f"{base(stand)}about.html", f"{base(stand)}news.html"}
    assert run.outputs["problems"] == "1" and run.outputs["indexnow-sent"] == "1"
    assert "| URL | kind | problem | fix |" in run.summary and "| stale |" in run.summary
    shown = run.stdout.replace(f"::add-mask::{KEY}\n", "") + run.stderr + run.summary
    assert KEY not in shown  # (but in the runner's mask)


def test_warn_only_annotates_warnings_and_succeeds(project: Project, stand: Stand) -> None:
    built_with_pending(project, stand)
    deploy(project.workspace, stand)
    del stand.files["/news.html"]
    run = run_action(project.workspace, check_inputs(stand, **{"warn-only": "true"}))
    assert run.returncode == 0, run.stdout + run.stderr
    (warning,) = [line for line in run.lines("::warning") if "sitemill check" in line]
    assert "news.html: answers 404" in warning
    assert stand.posts == [] or all("news.html" not in p["urlList"] for p in stand.posts)


def test_an_unreachable_site_is_one_annotation_with_the_reason(
    project: Project, stand: Stand
) -> None:
    built_with_pending(project, stand)
    stand.httpd.shutdown()  # (the site is down: every connection refused)
    stand.httpd.server_close()
    run = run_action(project.workspace, check_inputs(stand))
    assert run.returncode == 1, run.stdout + run.stderr
    (error,) = run.lines("::error")
    assert f"{base(stand)}: could not be reached (" in error and "refused" in error
    assert run.outputs["problems"] == "1"


def test_a_removed_url_that_answers_404_is_an_annotation_and_a_summary_row(
    project: Project, stand: Stand
) -> None:
    from sitemill.state.model import dump_state
    from sitemill.state.parse import parse_state
    from sitemill.state.removedurls import RemovedUrl

    built_with_pending(project, stand)
    deploy(project.workspace, stand)
    state_file = project.workspace / STATE
    state = parse_state(state_file.read_bytes())
    state.removed = {f"{base(stand)}old.html": RemovedUrl("renamed", f"{base(stand)}news.html")}
    state_file.write_bytes(dump_state(state))
    run = run_action(project.workspace, check_inputs(stand))
    assert run.returncode == 1, run.stdout + run.stderr
    (error,) = run.lines("::error")
    assert f"{base(stand)}old.html: answers 404: the last build removed it" in error
    assert "redirect it: /old.html -> /news.html" in error
    assert run.outputs["problems"] == "1"
    assert "| removed |" in run.summary and "1 of 1 removed URL(s)" in run.summary


def test_an_llms_file_a_cache_serves_older_is_an_annotation_and_a_summary_row(
    project: Project, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process (the state's digests name the llms file, as a build with llms-txt keeps it)."""
    assert run_action(project.workspace, {"base-url": base(stand)}).returncode == 0
    deploy(project.workspace, stand)
    llms = b"# Example\n\n- [About](/about.html)\n"
    keep_llms_digests(monkeypatch, {"llms.txt": llms})
    older = {"Content-Type": "text/plain; charset=utf-8", "Age": "90"}
    stand.files["/llms.txt"] = (200, b"# Example\n", older)
    output, summary = project.root / "llms-output", project.root / "llms-summary"
    env = {
        **runner_env(project.root),
        "GITHUB_WORKSPACE": str(project.workspace),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "SITEMILL_BASE_URL": base(stand),
        "SITEMILL_LLMS_TXT": "true",
        "SITEMILL_ACTION_COMMAND": "check",
    }
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_github_action(env, project.workspace, stdout, stderr) == 1, stdout.getvalue()
    (error,) = [line for line in stdout.getvalue().splitlines() if line.startswith("::error")]
    assert (
        f"{base(stand)}llms.txt: is not the file this build published (a cached copy 90 s" in error
    )
    assert "invalidate /llms.txt" in error
    text = summary.read_text(encoding="utf-8")
    assert "| llms |" in text and "1 llms file(s)" in text
    assert parse_outputs(output.read_text(encoding="utf-8"))["problems"] == "1"
