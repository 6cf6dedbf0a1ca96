"""IndexNow in the Action: a build keeps what changed pending (indexnow: later) and commits
it with the state; the key is masked first and shown nowhere but in its own file; bad
inputs fail before anything is written. Sending (`command: indexnow`, indexnow: send) is in
test_action_indexnow_send.py."""

from __future__ import annotations

import gzip
import os
import shlex
import shutil
from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    STATE,
    Project,
    make_project,
    no_network,
    page,
    remote_commit,
    run_action,
)

from gitutil import commit, git
from sitemill.state.parse import parse_state

pytestmark = pytest.mark.usefixtures("no_network")

KEY = "f0e1d2c3b4a5968778695a4b3c2d1e0f"
EDIT_TIME = "2024-03-01T09:00:00+00:00"
# What the edit below does to the site of test_action (about.html, blog/post.html, index.html
# listed): one page changed, one added, one removed.
EDIT: dict[str | bytes, str | bytes | None] = {
    "about.html": page("About us"),
    "news.html": page("News"),
    "blog/post.html": None,
}
FOUND = {
    "https://example.com/about.html": "changed",
    "https://example.com/news.html": "added",
    "https://example.com/blog/post.html": "removed",
}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def edit_and_push(project: Project, files: dict[str | bytes, str | bytes | None]) -> None:
    """A second commit of the site's author, pushed as a workflow's trigger would be."""
    git(project.workspace, "pull", "-q", "--ff-only")
    commit(project.workspace, files, when=EDIT_TIME, message="Edit")
    git(project.workspace, "push", "-q", "origin", "main")


def committed_pending(project: Project, path: str) -> dict[str, str]:
    return parse_state(git(project.remote, "show", f"main:{path}")).pending


def test_a_build_with_indexnow_later_keeps_what_an_edit_changed_pending(
    project: Project,
) -> None:
    inputs = {"base-url": BASE_URL, "indexnow": "later"}
    first = run_action(project.workspace, inputs)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "IndexNow: a first run (no state) announces nothing" in first.stdout
    assert (first.outputs["indexnow-sent"], first.outputs["indexnow-pending"]) == ("0", "0")
    edit_and_push(project, EDIT)

    second = run_action(project.workspace, inputs)

    assert second.returncode == 0, second.stdout + second.stderr
    # The state beside the sitemaps is public: it keeps no removed URL.
    kept = {url: kind for url, kind in FOUND.items() if kind != "removed"}
    assert committed_pending(project, STATE) == kept
    assert remote_commit(project.remote)["changes"] == ["M\tsitemap.xml", f"M\t{STATE}"]
    assert (second.outputs["indexnow-sent"], second.outputs["indexnow-pending"]) == ("0", "2")
    assert (
        "- IndexNow (later): 3 URLs to announce (1 added, 1 changed, 1 removed); "
        "2 kept pending for a `command: indexnow` step"
    ) in second.summary
    (withheld,) = [line for line in second.lines("::warning") if "removed URL" in line]
    assert "1 removed URL(s) are not kept pending: the state beside the sitemaps is public" in (
        withheld
    )


def test_a_state_kept_outside_the_deployed_folder_is_committed_with_removed_urls(
    project: Project,
) -> None:
    # The site is served from site/; the state lies beside it, in the repository only.
    moved: dict[str | bytes, str | bytes | None] = {"site/index.html": page("Home")}
    moved |= {f"site/{name}": page(str(name)) for name in ("about.html", "blog/post.html")}
    commit(project.workspace, moved, when="2024-02-01T00:00:00+00:00", message="Move")
    state = ".sitemill/state.json.gz"
    inputs = {"base-url": BASE_URL, "path": "site", "indexnow": "later", "state": state}
    first = run_action(project.workspace, inputs)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sorted(remote_commit(project.remote)["changes"]) == [
        f"A\t{state}",
        "A\tsite/sitemap.xml",
    ]
    assert f"`{state}`" in first.summary  # the commit line, from the top of the workspace
    edit_and_push(project, {f"site/{name}": text for name, text in EDIT.items()})

    second = run_action(project.workspace, inputs)

    assert second.returncode == 0, second.stdout + second.stderr
    assert committed_pending(project, state) == FOUND
    assert second.outputs["indexnow-pending"] == "3"
    assert second.lines("::warning") == [  # (issue 82: the build says it, before the deploy)
        "::warning title=sitemill::1 URL removed that nothing redirects: /blog/post.html; once "
        "this build is deployed, it answers 404: add a redirect to the page that takes its "
        "place, if one does"
    ]
    assert "3 kept pending for a `command: indexnow` step" in second.summary


def test_the_key_is_masked_first_and_shown_nowhere_but_in_its_file(project: Project) -> None:
    inputs = {
        "base-url": BASE_URL,
        "indexnow": "later",
        "indexnow-key": KEY,
        "indexnow-write-key-file": "true",
    }

    run = run_action(project.workspace, inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    first, *rest = run.stdout.splitlines()
    assert first == f"::add-mask::{KEY}"
    assert KEY not in "\n".join(rest) + run.stderr + run.summary + str(run.outputs)
    changes = remote_commit(project.remote)["changes"]
    assert f"A\t{KEY}.txt" in changes
    assert "`***.txt`" in run.summary  # the commit line names its file, not the key
    holding = []
    for name in git(project.remote, "ls-tree", "-r", "--name-only", "main").decode().split():
        data = git(project.remote, "show", f"main:{name}")
        if KEY.encode() in (gzip.decompress(data) if name.endswith(".gz") else data):
            holding.append(name)
    assert holding == [f"{KEY}.txt"]
    assert (project.workspace / f"{KEY}.txt").read_text(encoding="ascii") == KEY


@pytest.mark.parametrize(
    ("inputs", "error"),
    [
        (
            {"indexnow-key": "not a key, but a secret all the same"},
            "indexnow_key: is not 8 to 128 characters",
        ),
        ({"command": "indexnow"}, "indexnow_key: is required to send"),
        ({"indexnow": "send"}, "indexnow_key: is required to send"),
        ({"indexnow-write-key-file": "true"}, "indexnow_write_key_file: needs indexnow_key"),
        ({"command": "announce"}, "command: 'announce' is not one of: build, indexnow"),
        ({"indexnow": "later", "content-dates": "false"}, "indexnow: needs content dates"),
    ],
    ids=["bad key", "command without key", "send without key", "key file", "command", "dates"],
)
def test_bad_indexnow_inputs_fail_before_anything_is_written(
    project: Project, inputs: dict[str, str], error: str
) -> None:
    before = git(project.remote, "rev-parse", "main")

    run = run_action(project.workspace, {"base-url": BASE_URL, **inputs})

    assert run.returncode == 1
    (line,) = run.lines("::error")
    assert error in line
    assert git(project.remote, "rev-parse", "main") == before
    assert not (project.workspace / "sitemap.xml").exists()
    key = inputs.get("indexnow-key")
    if key is not None:  # masked first, quoted nowhere
        assert run.stdout.splitlines()[0] == f"::add-mask::{key}"
        assert key not in run.stdout.split("\n", 1)[1] + run.stderr + run.summary


def test_the_key_is_in_the_argv_of_no_git_command(project: Project, tmp_path: Path) -> None:
    """Every git the Action runs is recorded (a `git` first on PATH, before the real one):
    the key file's name reaches git through stdin or a file, never its command line, which
    any process of the runner may read (issue 39, item 10); the commit still holds exactly
    the files of the run."""
    real = shutil.which("git")
    assert real is not None
    wrappers, log = tmp_path / "wrappers", tmp_path / "argv.log"
    wrappers.mkdir()
    wrapper = wrappers / "git"
    wrapper.write_text(
        f'#!/bin/sh\nfor arg in "$@"; do printf "%s\\n" "$arg"; done >> {shlex.quote(str(log))}\n'
        f'printf "%s\\n" "--" >> {shlex.quote(str(log))}\nexec {shlex.quote(real)} "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    inputs = {
        "base-url": BASE_URL,
        "indexnow": "later",
        "indexnow-key": KEY,
        "indexnow-write-key-file": "true",
    }
    path = {"PATH": f"{wrappers}{os.pathsep}{os.environ['PATH']}"}

    first = run_action(project.workspace, inputs, inherited=path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sorted(remote_commit(project.remote)["changes"]) == sorted(
        [f"A\t{KEY}.txt", "A\tsitemap.xml", f"A\t{STATE}"]
    )
    edit_and_push(project, EDIT)
    second = run_action(project.workspace, inputs, inherited=path)
    assert second.returncode == 0, second.stdout + second.stderr
    assert sorted(remote_commit(project.remote)["changes"]) == ["M\tsitemap.xml", f"M\t{STATE}"]

    argv = log.read_text(encoding="utf-8")
    commands = argv.split("\n--\n")
    assert any("commit" in command.split("\n") for command in commands), argv[:2000]
    assert any("add" in command.split("\n") for command in commands), argv[:2000]
    assert KEY not in argv
