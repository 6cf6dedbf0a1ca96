"""The Action's repository takes names relative to the output directory; one may lead out of
it (a state file elsewhere in the workspace), never out of the work tree."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest

from gitutil import commit, git, git_env, make_repo
from sitemill.errors import GitError
from sitemill.github._repo import GitIdentity, Repo

BOT = GitIdentity("bot", "bot@sitemill.invalid")
STATE = "../.sitemill/state.json.gz"


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    top = make_repo(tmp_path / "top")
    commit(top, {"site/index.html": "<title>Home</title>"}, when="2024-01-01T00:00:00")
    (top / ".sitemill").mkdir()
    (top / ".sitemill" / "state.json.gz").write_bytes(b"state")
    (top / "site" / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    return Repo.open(top / "site", BOT, git_env("2024-02-01T00:00:00"))


def test_a_name_outside_the_output_directory_is_staged_and_committed(repo: Repo) -> None:
    changed = repo.stage(["sitemap.xml", STATE])

    assert sorted(changed) == sorted(["sitemap.xml", STATE])
    repo.commit(changed, "Update sitemap")
    top = repo.workdir.parent
    listed = git(top, "show", "--format=", "--name-only", "HEAD").decode().split()
    assert sorted(listed) == [".sitemill/state.json.gz", "site/sitemap.xml"]
    assert repo.stage(["sitemap.xml", STATE]) == []  # committed: nothing differs


def test_an_ignored_name_outside_the_output_directory_is_found(repo: Repo) -> None:
    top = repo.workdir.parent
    (top / ".gitignore").write_text(".sitemill/\n", encoding="utf-8")

    assert repo.ignored(["sitemap.xml", STATE]) == [STATE]


def test_a_name_outside_the_work_tree_is_refused(repo: Repo) -> None:
    assert repo.outside(["sitemap.xml", STATE, "../../elsewhere.gz"]) == ["../../elsewhere.gz"]
    with pytest.raises(GitError, match="outside the git work tree"):
        repo.stage(["../../elsewhere.gz"])


def test_names_reach_git_on_stdin_never_in_its_argv(tmp_path: Path) -> None:
    """A name (the IndexNow key file's) is in no git command line, whether it is added,
    removed or committed (issue 39, item 10); a name with glob characters is still taken
    literally, and the commit holds exactly the names given."""
    secret, glob = "f0e1d2c3b4a5968778695a4b3c2d1e0f.txt", "[ab].txt"
    top = make_repo(tmp_path / "top")
    files = {f"site/{secret}": "k", "site/index.html": "<title>Home</title>", "site/a.txt": "a"}
    commit(top, files, when="2024-01-01T00:00:00")
    real = shutil.which("git")
    assert real is not None
    log, wrappers = tmp_path / "argv.log", tmp_path / "wrappers"
    wrappers.mkdir()
    (wrappers / "git").write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> {shlex.quote(str(log))}\n'
        f'exec {shlex.quote(real)} "$@"\n',
        encoding="utf-8",
    )
    (wrappers / "git").chmod(0o755)
    env = git_env("2024-02-01T00:00:00") | {"PATH": f"{wrappers}{os.pathsep}{os.environ['PATH']}"}
    repo = Repo.open(top / "site", BOT, env)
    (top / "site" / secret).unlink()
    (top / "site" / glob).write_text("glob", encoding="utf-8")
    (top / "site" / "a.txt").write_text("a, staged by someone else", encoding="utf-8")
    git(top, "add", "site/a.txt")

    changed = repo.stage([secret, glob, "index.html"])
    repo.commit(changed, "Update")

    assert sorted(changed) == sorted([secret, glob])
    listed = git(top, "show", "--format=", "--name-status", "HEAD").decode().splitlines()
    assert sorted(listed) == [f"A\tsite/{glob}", f"D\tsite/{secret}"]
    assert "commit" in log.read_text(encoding="utf-8")
    assert secret not in log.read_text(encoding="utf-8")
