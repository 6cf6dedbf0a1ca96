"""The Action's commit publishes nothing that names a page the sitemaps leave out: every file
of the pushed commit is searched for the names of a page of every kind left out."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    Project,
    make_project,
    no_network,
    run_action,
)

from gitutil import commit, git
from hidden import CONFIG_TOML, SITE, assert_names_no_hidden_page

pytestmark = pytest.mark.usefixtures("no_network")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    made = make_project(tmp_path)
    files = {f"site/{name}": text for name, text in SITE.items()}
    commit(made.workspace, {**files, "sitemill.toml": CONFIG_TOML}, when="2024-02-01T00:00:00")
    git(made.workspace, "push", "-q", "origin", "main")
    return made


def pushed_files(remote: Path) -> dict[str, bytes]:
    """The files the last pushed commit added or changed, by name, as pushed."""
    names = git(remote, "show", "--format=", "--name-only", "main").decode().split()
    return {name.rpartition("/")[2]: git(remote, "show", f"main:{name}") for name in names}


def test_the_commit_names_no_hidden_page(project: Project) -> None:
    inputs = {"base-url": BASE_URL, "path": "site", "config": "sitemill.toml", "max-urls": "1"}
    inputs["robots-txt"] = "true"
    for _ in range(2):  # the second run starts from the committed state
        run = run_action(project.workspace, inputs)
        assert run.returncode == 0, run.stdout + run.stderr
        git(project.workspace, "pull", "-q", "--ff-only")
    files = pushed_files(project.remote)
    assert "sitemill-state.json.gz" in files and "sitemap.xml" in files
    assert_names_no_hidden_page(files)
