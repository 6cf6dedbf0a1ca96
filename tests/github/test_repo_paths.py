"""The Action's repository takes names relative to the output directory; one may lead out of
it (a state file elsewhere in the workspace), never out of the work tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitutil import commit, git, git_env, make_repo
from sitemill.errors import GitError
from sitemill.github.repo import Identity, Repo

BOT = Identity("bot", "bot@sitemill.invalid")
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
