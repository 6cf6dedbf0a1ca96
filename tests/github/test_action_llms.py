"""The Action with llms-txt (issue 67), as a runner runs its step against a bare remote: the push
holds llms.txt and fr/llms.txt (and llms-full.txt, the twins) beside the sitemap; a second run
with nothing new commits nothing; turned off, the push deletes sitemill's own."""

from __future__ import annotations

from pathlib import Path

from test_action import (
    BASE_URL,
    SEED_TIME,
    STATE,
    Project,
    no_network,
    remote_commit,
    remote_file,
    run_action,
)

from gitutil import commit, git, head, make_repo
from llmssite import LLMS_FILES, SITE, TWINS, links

__all__ = ["no_network"]  # (autouse: the live site's state is never fetched)
ALL = {"llms-txt": "true", "llms-full": "true", "llms-pages": "true"}


def make_llms_project(tmp_path: Path) -> Project:
    """A bare remote holding llmssite's site in two languages, and a clone as the workspace."""
    seed = make_repo(tmp_path / "seed")
    commit(seed, dict(SITE), when=SEED_TIME, message="Site")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(remote, "symbolic-ref", "HEAD", "refs/heads/main")
    git(seed, "push", "-q", str(remote), "main")
    git(tmp_path, "clone", "-q", str(remote), "workspace")
    return Project(tmp_path, remote, tmp_path / "workspace")


def test_llms_txt_is_committed_in_the_push(tmp_path: Path) -> None:
    project = make_llms_project(tmp_path)
    run = run_action(project.workspace, {"base-url": BASE_URL, "llms-txt": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    changes = remote_commit(project.remote)["changes"]
    assert changes == ["A\tfr/llms.txt", "A\tllms.txt", "A\tsitemap.xml", f"A\t{STATE}"]
    assert links(remote_file(project.remote, "fr/llms.txt")) == [BASE_URL + "fr/"]
    assert BASE_URL + "docs/guide.html" in links(remote_file(project.remote, "llms.txt"))
    assert git(project.workspace, "status", "--porcelain") == b""


def test_a_second_run_commits_nothing_and_off_deletes_sitemills_own(tmp_path: Path) -> None:
    project = make_llms_project(tmp_path)
    first = run_action(project.workspace, {"base-url": BASE_URL, **ALL})
    assert first.returncode == 0, first.stdout + first.stderr
    added = {line.split("\t")[1] for line in remote_commit(project.remote)["changes"]}
    assert added == LLMS_FILES | TWINS | {STATE, "sitemap.xml"}
    pushed = head(project.remote)
    second = run_action(project.workspace, {"base-url": BASE_URL, **ALL})
    assert second.returncode == 0, second.stderr
    assert head(project.remote) == pushed
    assert second.outputs["changed"] == "false" and second.outputs["commit-sha"] == ""
    off = run_action(project.workspace, {"base-url": BASE_URL})
    assert off.returncode == 0, off.stdout + off.stderr
    changes = remote_commit(project.remote)["changes"]
    deleted = {line.split("\t")[1] for line in changes if line.startswith("D\t")}
    assert deleted == LLMS_FILES | TWINS
    assert git(project.workspace, "status", "--porcelain") == b""
