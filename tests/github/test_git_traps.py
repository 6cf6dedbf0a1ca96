"""A checked-out repository is untrusted: no git command sitemill runs may start a program that
the repository names. Each trap below is committed content (or the repository configuration a
hook manager writes from committed content) that leaves a marker file if it ever runs; each
runs against the CLI and the Action in its three ways of running (commit on a branch, commit on
a detached pull-request checkout, commit: false), and sitemill must still do its job."""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    Project,
    make_project,
    no_network,
    page,
    push_concurrently_before_each_push,
    remote_commit,
    remote_file,
    run_action,
)

from gitutil import commit, git, head
from sitemill.cli.main import main

# (heavy: run first, tests/conftest.py)
pytestmark = [pytest.mark.usefixtures("no_network"), pytest.mark.heavy]

HOOKS = (
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "reference-transaction",
    "post-checkout",
    "post-rewrite",
    "pre-rebase",
    "pre-push",
    "pre-auto-gc",
    "post-index-change",
)
Plant = Callable[[Path, Path], None]  # (workspace, marker folder)


def program(markers: Path, name: str, then: str = "") -> str:
    """A shell command that leaves the marker ``name`` (and then runs ``then``)."""
    touch = f"touch {shlex.quote(str(markers / name))}"
    return f"{touch}; {then}" if then else touch


def script(markers: Path, name: str, then: str = "") -> str:
    return f"#!/bin/sh\n{program(markers, name, then)}\n"


def committed(workspace: Path, files: dict[str, str], executable: tuple[str, ...] = ()) -> None:
    """Commit these files in the workspace (as the repository's own content)."""
    for name, text in files.items():
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if name in executable:
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    git(workspace, "add", "--", *files)
    git(workspace, "commit", "-q", "--no-verify", "-m", "Content")


def bare_trap(config: str, more: dict[str, str] | None = None) -> Plant:
    """Committed files that make the site folder look like a bare repository whose config
    is ``config`` (formatted with the marker folder as {m})."""

    def plant(workspace: Path, markers: Path) -> None:
        text = "[core]\n\trepositoryformatversion = 0\n\tworktree = .\n" + config.format(
            m=shlex.quote(str(markers))
        )
        files = {
            "site/HEAD": "ref: refs/heads/main\n",
            "site/objects/info/.keep": "",
            "site/refs/heads/.keep": "",
            "site/config": text,
            **{name: body.format(m=markers) for name, body in (more or {}).items()},
        }
        committed(workspace, files, executable=tuple(name for name in files if "/hooks/" in name))

    return plant


def hooks_in(folder: str) -> dict[str, str]:
    return {f"{folder}/{hook}": f"#!/bin/sh\ntouch {{m}}/hook-{hook}\n" for hook in HOOKS}


def real_config(settings: dict[str, str], files: dict[str, str] | None = None) -> Plant:
    """Committed ``files`` and the workspace's own .git/config set as a tool run from
    committed content would set it (husky's core.hooksPath, a filter, an fsmonitor)."""

    def plant(workspace: Path, markers: Path) -> None:
        if files:
            written = {name: body.format(m=markers) for name, body in files.items()}
            executable = tuple(name for name in written if not name.endswith(".gitattributes"))
            committed(workspace, written, executable=executable)
        for key, value in settings.items():
            git(workspace, "config", key, value.format(m=shlex.quote(str(markers))))
        # Every file stat-dirty: git must compare contents, through a clean filter if any.
        for path in workspace.rglob("*"):
            if path.is_file() and ".git" not in path.parts:
                os.utime(path, (1_700_000_000, 1_700_000_000))

    return plant


def git_hooks_folder(workspace: Path, markers: Path) -> None:
    """The pre-commit framework's way: .git/hooks/<hook> runs committed configuration."""
    committed(
        workspace, {"scripts/check.sh": script(markers, "committed-check")}, ("scripts/check.sh",)
    )
    for hook in HOOKS:
        path = workspace / ".git" / "hooks" / hook
        path.write_text(f"#!/bin/sh\nsh {shlex.quote(str(workspace / 'scripts/check.sh'))}\n")
        path.chmod(0o755)


ATTRIBUTES = "* filter=trap diff=trap merge=trap\n"
TRAPS: dict[str, Plant] = {
    "bare repository: fsmonitor": bare_trap('\tfsmonitor = "touch {m}/fsmonitor; false"\n'),
    "bare repository: hooksPath to committed hooks": bare_trap(
        "\thooksPath = hooks-dir\n", hooks_in("site/hooks-dir")
    ),
    "bare repository: clean and smudge filters": bare_trap(
        '[filter "trap"]\n\tclean = "touch {m}/clean; cat"\n\tsmudge = "touch {m}/smudge; cat"\n'
        '\tprocess = "touch {m}/process"\n\trequired = true\n',
        {"site/.gitattributes": ATTRIBUTES},
    ),
    "bare repository: pager, external diff, textconv, signing": bare_trap(
        '\tpager = "touch {m}/pager; cat"\n'
        '[diff]\n\texternal = "touch {m}/external-diff"\n'
        '[diff "trap"]\n\ttextconv = "touch {m}/textconv; cat"\n'
        '[gpg]\n\tprogram = "touch {m}/gpg"\n'
        "[commit]\n\tgpgSign = true\n[log]\n\tshowSignature = true\n",
        {"site/.gitattributes": ATTRIBUTES},
    ),
    "husky: core.hooksPath to committed hooks": real_config(
        {"core.hooksPath": ".husky"}, {**hooks_in(".husky")}
    ),
    "pre-commit framework: .git/hooks run committed scripts": git_hooks_folder,
    "filter driver the runner configures, chosen by .gitattributes": real_config(
        {
            "filter.trap.clean": "sh -c 'touch {m}/clean; cat'",
            "filter.trap.smudge": "sh -c 'touch {m}/smudge; cat'",
            "filter.trap.process": "sh -c 'touch {m}/process'",
            "filter.trap.required": "true",
            "merge.trap.driver": "touch {m}/merge-driver",
            "diff.trap.textconv": "sh -c 'touch {m}/textconv; cat'",
            "diff.trap.command": "touch {m}/diff-command",
        },
        {".gitattributes": ATTRIBUTES, "site/.gitattributes": ATTRIBUTES},
    ),
    "fsmonitor, pager and signing in .git/config": real_config(
        {
            "core.fsmonitor": "touch {m}/fsmonitor; false",
            "core.pager": "touch {m}/pager; cat",
            "core.editor": "touch {m}/editor",
            "diff.external": "touch {m}/external-diff",
            "gpg.program": "touch {m}/gpg",
            "commit.gpgSign": "true",
            "log.showSignature": "true",
            "alias.status": "!touch {m}/alias",
        }
    ),
}


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    made = make_project(tmp_path)
    # The site lives in a folder of the repository, as it does for most generators.
    committed(made.workspace, {"site/index.html": page("Home"), "site/a.html": page("A")})
    git(made.workspace, "push", "-q", "origin", "main")
    yield made


def markers_of(project: Project) -> Path:
    markers = project.root / "markers"
    markers.mkdir(exist_ok=True)
    return markers


def fired(markers: Path) -> list[str]:
    return sorted(path.name for path in markers.iterdir())


@pytest.fixture
def clean_git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """For the in-process CLI: none of the developer's own git configuration."""
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.mark.parametrize("trap", TRAPS.values(), ids=list(TRAPS))
def test_the_cli_runs_no_program_the_repository_names(
    project: Project, trap: Plant, clean_git_env: None
) -> None:
    markers = markers_of(project)
    trap(project.workspace, markers)
    assert fired(markers) == []
    out = project.root / "out"
    site = project.workspace / "site"
    assert main(["-q", "build", str(site), "--base-url", BASE_URL, "--out", str(out)]) == 0
    assert fired(markers) == []
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "https://example.com/a.html" in sitemap
    # Dated by git, not by the file times the trap set.
    assert "<lastmod>2023-" not in sitemap


@pytest.mark.parametrize("trap", TRAPS.values(), ids=list(TRAPS))
@pytest.mark.parametrize("mode", ["commit on a branch", "detached checkout", "commit: false"])
def test_the_action_runs_no_program_the_repository_names(
    project: Project, trap: Plant, mode: str
) -> None:
    markers = markers_of(project)
    if mode == "detached checkout":  # a pull_request checkout: a detached merge commit
        git(project.workspace, "checkout", "-q", "--detach")
    trap(project.workspace, markers)
    assert fired(markers) == []
    inputs = {"base-url": BASE_URL, "path": "site"}
    if mode == "commit: false":
        inputs["commit"] = "false"
    before = head(project.remote)

    run = run_action(project.workspace, inputs, inherited={"GITHUB_TOKEN": "ghs_s3cr3tT0ken"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert fired(markers) == []
    assert "https://example.com/a.html" in (project.workspace / "site/sitemap.xml").read_text()
    if mode == "commit on a branch":
        assert run.outputs["commit-sha"] == head(project.remote) != before
        assert "site/sitemap.xml" in "".join(remote_commit(project.remote)["changes"])
        assert "a.html" in remote_file(project.remote, "site/sitemap.xml")
    else:
        assert head(project.remote) == before


@pytest.mark.parametrize(
    "trap",
    [TRAPS["husky: core.hooksPath to committed hooks"], git_hooks_folder],
    ids=["husky", "pre-commit framework"],
)
def test_a_replay_after_a_concurrent_push_runs_no_hook(project: Project, trap: Plant) -> None:
    # The replay resets and rebases: post-checkout, post-rewrite, pre-rebase would run here.
    markers = markers_of(project)
    git(project.workspace, "push", "-q", "origin", "main")  # the planted commit is pushed
    trap(project.workspace, markers)
    git(project.workspace, "-c", "core.hooksPath=/dev/null", "push", "-q", "origin", "main")
    assert fired(markers) == []
    counter = push_concurrently_before_each_push(project, times=1)

    run = run_action(project.workspace, {"base-url": BASE_URL, "path": "site"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert counter.read_text().count("push") == 2
    assert fired(markers) == []
    assert run.outputs["commit-sha"] == head(project.remote)


def test_a_committed_bare_repository_does_not_hide_the_real_one(project: Project) -> None:
    # Before: git took site/ for the repository, saw no history and dated nothing by git.
    commit(project.workspace, {"site/b.html": page("B")}, when="2024-02-02T02:02:02+00:00")
    TRAPS["bare repository: fsmonitor"](project.workspace, markers_of(project))
    run = run_action(project.workspace, {"base-url": BASE_URL, "path": "site", "commit": "false"})
    assert run.returncode == 0, run.stdout + run.stderr
    sitemap = "".join((project.workspace / "site/sitemap.xml").read_text().split())
    assert "<loc>https://example.com/b.html</loc><lastmod>2024-02-02T02:02:02+00:00" in sitemap
