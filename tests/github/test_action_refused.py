"""A run the Action refuses (a base URL the site contradicts) writes nothing at all: the decision
is made once every page is read, before the first file is written (jobs.tree.TreeAsked), so no
file is replaced, created or deleted, and what another step writes meanwhile stays."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
import test_action
from test_action import Project, action_env, make_project, page, run_action, subjects

from gitutil import commit, git
from sitemill.github.action import run_github_action

no_network = test_action.no_network  # (a fixture: no proxy of the developer's for urllib)
pytestmark = pytest.mark.usefixtures("no_network")

LIVE = "https://docs.example.org/"
STAGING = "https://staging.example.net/"
PAGES = ("index.html", "about.html", "blog/a.html", "blog/b.html", "blog/c.html")
BEFORE = ["Site", "Site", "Start"]  # the remote's subjects before any run


def stamps(workspace: Path) -> dict[str, tuple[bytes | None, int, int]]:
    """Each file and folder of the work tree (.git aside), with a file's bytes, its inode and
    its time of change: a file written and put back, or a folder where an entry was created,
    renamed or deleted, has another."""
    found = {}
    for top, folders, files in os.walk(workspace):
        folders[:] = [name for name in folders if name != ".git"]
        for name in [*folders, *files, *([] if top != str(workspace) else ["."])]:
            path = Path(top, name)
            info = path.lstat()
            data = path.read_bytes() if path.is_file() else None
            found[path.relative_to(workspace).as_posix()] = (data, info.st_ino, info.st_mtime_ns)
    return found


def beside(workspace: Path) -> list[str]:
    """What a run left next to the work tree (a snapshot folder, a staging copy)."""
    return sorted(path.name for path in workspace.parent.iterdir() if "sitemill" in path.name)


def project_with(tmp_path: Path, files: dict[str | bytes, str | bytes | None]) -> Project:
    """The workspace with a site in public/ (pages without a canonical link) and ``files``."""
    made = make_project(tmp_path)
    site: dict[str | bytes, str | bytes | None] = {f"public/{path}": page(path) for path in PAGES}
    commit(made.workspace, {**site, **files}, when="2024-02-01T10:00:00+00:00", message="Site")
    git(made.workspace, "push", "-q", "origin", "main")
    return made


class ConcurrentStep(io.StringIO):
    """The step's stdout; when the run starts on its pages (its log group opens), another step
    of the job writes files into the site, as a build or an upload running beside it would."""

    def __init__(self, files: dict[Path, bytes]) -> None:
        super().__init__()
        self.files, self.wrote = files, False

    def write(self, text: str) -> int:
        if text.startswith("::group::sitemill: pages") and not self.wrote:
            self.wrote = True
            for path, data in self.files.items():
                path.write_bytes(data)
        return super().write(text)


def test_what_another_step_writes_during_a_refused_run_stays(tmp_path: Path) -> None:
    """The run's sitemap and state from a first run at LIVE stay as they are (not written and
    put back), and the files that appear during the refused run are not the run's to delete,
    even one named like a sitemap child."""
    project = project_with(tmp_path, {})
    first = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert first.returncode == 0, first.stdout + first.stderr
    git(project.workspace, "pull", "-q", "origin", "main")
    site = project.workspace / "public"
    assert (site / "sitemap.xml").is_file() and (site / "sitemill-state.json.gz").is_file()
    before, left = stamps(project.workspace), beside(project.workspace)
    theirs = {site / "blog" / "notes.txt": b"a user's notes", site / "blog" / "sitemap-9.xml": b"x"}
    stdout, stderr = ConcurrentStep(theirs), io.StringIO()
    env = action_env(project.workspace, {"base-url": STAGING, "path": "public"})

    status = run_github_action(env, project.workspace, stdout, stderr)

    assert stdout.wrote, stdout.getvalue()  # (the other step did write, during the run)
    assert status == 1, stdout.getvalue() + stderr.getvalue()
    (error,) = [line for line in stdout.getvalue().splitlines() if line.startswith("::error")]
    assert error.startswith(f"::error title=sitemill::base-url: {STAGING} ")
    assert f"{LIVE} (the previous state)" in error
    for path, data in theirs.items():
        assert path.read_bytes() == data
    after = stamps(project.workspace)
    assert {name: after[name] for name in before if name != "public/blog"} == {
        name: stamp for name, stamp in before.items() if name != "public/blog"
    }
    assert set(after) - set(before) == {"public/blog/notes.txt", "public/blog/sitemap-9.xml"}
    assert beside(project.workspace) == left
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def test_a_refused_first_run_with_every_output_writes_nothing(tmp_path: Path) -> None:
    """A CNAME naming another domain refuses a run that would write an index and its children,
    sitemap.html, llms.txt, robots.txt's lines and the state: none of them is created, no
    file or folder changes, and nothing is left beside the work tree."""
    project = project_with(tmp_path, {"public/CNAME": "docs.example.org\n"})
    before, left = stamps(project.workspace), beside(project.workspace)
    inputs = {
        "base-url": STAGING,
        "path": "public",
        "max-urls": "2",
        "shards": "off",
        "html-sitemap": "true",
        "llms-txt": "true",
        "robots-txt": "true",
    }
    run = run_action(project.workspace, inputs)
    assert run.returncode == 1, run.stdout + run.stderr
    (error,) = run.lines("::error")
    assert error.startswith(f"::error title=sitemill::base-url: {STAGING} ") and "(CNAME)" in error
    assert stamps(project.workspace) == before
    assert beside(project.workspace) == left
    assert subjects(project.remote) == BEFORE
    # Meant: the same run writes them all.
    run = run_action(project.workspace, {**inputs, "allow-base-url-mismatch": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    written = {"sitemap.xml", "sitemap-1.xml", "sitemap.html", "llms.txt", "robots.txt"}
    assert written <= {path.name for path in (project.workspace / "public").iterdir()}
