"""The default GitHub Pages recipe end to end (docs/github-pages.md): a real MkDocs project with
its history, a shallow checkout, `mkdocs build`, the Action with commit off on site/, the
built folder deployed to a live site on 127.0.0.1, then the next workflow runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_action import STATE, Run, run_action

from gitutil import commit, git, make_repo, shallow_clone
from livesite import serve_folder

# The project's history: the dates the pages must carry, and the commits that must move none.
STARTED = "2024-01-10T09:00:00+00:00"  # index.md and guide/install.md
ABOUT_ADDED = "2024-02-12T10:00:00+00:00"  # about.md
INSTALL_EDITED = "2024-03-15T11:00:00+00:00"  # a body edit of guide/install.md
FRONT_MATTER = "2024-04-18T12:00:00+00:00"  # about.md's front matter only: no reader sees it
THEME = "2024-05-20T13:00:00+00:00"  # nav and theme: every built page changes
RENAMED = "2024-05-22T09:00:00+00:00"  # about.md -> team.md, and a big image renamed and edited
INSTALL_AGAIN = "2024-06-15T14:00:00+00:00"  # after the second deploy
INSTALL = "guide/install/"
TEAM = "team/"  # from about.md, renamed
PHOTO = b"\x89PNG" + b"1" * 1_200_000  # over the 1 MiB the deepening leaves on the server


def mkdocs_yml(base_url: str, theme: str, pages: str) -> str:
    return f"site_name: Widgets\nsite_url: {base_url}\ntheme:\n  name: {theme}\nnav:\n{pages}"


NAV = "  - Home: index.md\n  - Install: guide/install.md\n"
ABOUT_NAV = NAV + "  - About: about.md\n"
INDEX_MD = "# Widgets\n\nWidgets make sitemaps.\n"
INSTALL_MD = "# Install\n\nRun the installer.\n"
ABOUT_MD = "---\ntitle: About us\n---\n\n# About\n\nWe are a small team.\n"


def make_history(seed: Path, base_url: str) -> None:
    make_repo(seed)
    files: dict[str | bytes, str | bytes | None] = {
        "mkdocs.yml": mkdocs_yml(base_url, "mkdocs", NAV),
        ".gitignore": "site/\n",
        "docs/index.md": INDEX_MD,
        "docs/guide/install.md": INSTALL_MD,
    }
    commit(seed, files, when=STARTED, message="Start the docs")
    about = {
        "mkdocs.yml": mkdocs_yml(base_url, "mkdocs", ABOUT_NAV),
        "docs/about.md": ABOUT_MD,
        "docs/img/photo.png": PHOTO,
    }
    commit(seed, about, when=ABOUT_ADDED, message="About")
    install = INSTALL_MD + "\nThen restart.\n"
    commit(seed, {"docs/guide/install.md": install}, when=INSTALL_EDITED, message="Restart")
    owned = ABOUT_MD.replace("title: About us\n", "title: About us\nowner: docs-team\n")
    commit(seed, {"docs/about.md": owned}, when=FRONT_MATTER, message="Front matter")
    nav = ABOUT_NAV.replace("Install", "Installing")
    commit(seed, {"mkdocs.yml": mkdocs_yml(base_url, "readthedocs", nav)}, when=THEME)
    # A rename the history follows, in a commit whose other rename git's rename detection
    # would read old big blobs for: the deepened clone does not hold them.
    renamed = {
        "mkdocs.yml": mkdocs_yml(base_url, "readthedocs", nav.replace("about.md", "team.md")),
        "docs/about.md": None,
        "docs/team.md": owned,
        "docs/img/photo.png": None,
        "docs/img/hero.png": PHOTO + b"2",
    }
    commit(seed, renamed, when=RENAMED, message="Rename")


def mkdocs_build(workspace: Path) -> Path:
    """`mkdocs build` as a workflow runs it: every file of site/ written now."""
    env = {name: value for name, value in os.environ.items() if name != "SOURCE_DATE_EPOCH"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "--strict"],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return workspace / "site"


def lastmods(sitemap: Path, base_url: str) -> dict[str, str]:
    text = "".join(sitemap.read_text(encoding="utf-8").split())
    found: dict[str, str] = {}
    for entry in re.findall(r"<url>(.*?)</url>", text):
        (loc,) = re.findall(r"<loc>([^<]*)</loc>", entry)
        dates = re.findall(r"<lastmod>([^<]*)</lastmod>", entry)
        found[loc.removeprefix(base_url)] = dates[0] if dates else ""
    return found


@dataclass
class Deploy:
    """One workflow run: its Action run, the built folder and the sitemap's dates."""

    run: Run
    site: Path
    dates: dict[str, str]
    sitemap: bytes
    state: bytes
    missing: set[str]  # objects of HEAD's history not local after the run
    started: datetime = field(default_factory=lambda: datetime.now(UTC))


@dataclass
class Recipe:
    base_url: str
    seed: Path
    deploys: list[Deploy]


@pytest.fixture(scope="module")
def recipe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recipe]:
    """Three workflow runs of the recipe: the first deploy; a rebuild with nothing changed,
    starting from the live site's state; a rebuild after one page's source was edited."""
    root = tmp_path_factory.mktemp("recipe")
    served = root / "live"
    served.mkdir()
    with serve_folder(served) as base_url:
        seed, remote = root / "seed", root / "remote.git"
        make_history(seed, base_url)
        git(root, "init", "-q", "--bare", str(remote))
        git(remote, "config", "uploadpack.allowFilter", "true")
        git(seed, "push", "-q", str(remote), "HEAD:refs/heads/main")
        deploys: list[Deploy] = []
        for number in (1, 2, 3):
            if number == 3:
                edited = INSTALL_MD + "\nThen restart, and check the log.\n"
                commit(seed, {"docs/guide/install.md": edited}, when=INSTALL_AGAIN)
                git(seed, "push", "-q", str(remote), "HEAD:refs/heads/main")
            started = datetime.now(UTC)
            workspace = shallow_clone(root / f"run-{number}" / "workspace", remote)
            site = mkdocs_build(workspace)
            inputs = {"base-url": base_url, "path": "site", "commit": "false"}
            run = run_action(workspace, inputs)
            assert run.returncode == 0, run.stdout + run.stderr
            sitemap = site / "sitemap.xml"
            dates = lastmods(sitemap, base_url)
            state = (site / STATE).read_bytes()
            listed = git(workspace, "rev-list", "--objects", "--missing=print", "HEAD").decode()
            missing = {line[1:] for line in listed.split() if line.startswith("?")}
            deploys.append(Deploy(run, site, dates, sitemap.read_bytes(), state, missing, started))
            shutil.rmtree(served)  # actions/deploy-pages: the artifact replaces the live site
            shutil.copytree(site, served)
        yield Recipe(base_url, seed, deploys)


PAGES = {"", INSTALL, TEAM, "search.html"}  # (the theme's search page: no source)


def test_every_run_deepens_the_shallow_checkout(recipe: Recipe) -> None:
    # Every version of every source is local; the big image's old version is not.
    before_rename = "HEAD~2"  # (the seed holds the third run's edit too)
    old_photo = (
        git(recipe.seed, "rev-parse", f"{before_rename}:docs/img/photo.png").decode().strip()
    )
    assert recipe.deploys[0].missing == {old_photo}
    for number, deploy in enumerate(recipe.deploys, start=1):
        commits = 6 if number < 3 else 7
        said = [line for line in deploy.run.stdout.splitlines() if line.startswith("Deepened")]
        assert said == [
            line
            for line in said
            if line.startswith(f"Deepened the shallow checkout to its {commits} commits, ")
        ]
        assert len(said) == 1, deploy.run.stdout


def test_the_first_deploy_lists_the_pages_and_no_date_is_the_builds(recipe: Recipe) -> None:
    first = recipe.deploys[0]
    assert set(first.dates) == PAGES  # (404.html left out; mkdocs' own sitemap replaced)
    built_on = first.started.date().isoformat()
    assert not [date for date in first.dates.values() if date.startswith(built_on)]
    (notice,) = first.run.lines("::notice")
    assert f"no state at {recipe.base_url}{STATE} yet" in notice


def test_a_rebuild_with_nothing_changed_moves_no_date_and_changes_nothing(
    recipe: Recipe,
) -> None:
    first, second = recipe.deploys[:2]
    # Every file of site/ is new, and mkdocs wrote its own sitemap again; the state comes
    # from the live site (first's deploy): the same sitemap and state, byte for byte.
    assert second.dates == first.dates
    assert second.sitemap == first.sitemap
    assert second.state == first.state
    assert second.run.lines("::notice") == second.run.lines("::warning") == []


def test_an_edited_source_moves_that_page_only(recipe: Recipe) -> None:
    second, third = recipe.deploys[1:]
    moved = {page for page in PAGES if third.dates[page] != second.dates[page]}
    assert moved == {INSTALL}
    assert third.dates[INSTALL] >= INSTALL_AGAIN  # when its change was deployed at the latest
    assert third.run.lines("::warning") == []


def test_the_first_deploy_dates_each_page_by_its_sources_last_text_change(recipe: Recipe) -> None:
    first = recipe.deploys[0]
    # Not the build's time, not the front-matter-only commit, not the theme's, not the rename.
    assert first.dates == {
        "": STARTED,
        INSTALL: INSTALL_EDITED,
        TEAM: ABOUT_ADDED,  # followed through its rename
        "search.html": "",  # rendered from no source: no evidence, no date
    }
    assert (
        "- lastmod: 3 dated by their source's last change, 1 without a date: no evidence on a "
        "first run (file times are one build's)"
    ) in first.run.summary
    second = recipe.deploys[1]
    assert "- lastmod: 3 kept, 1 without a date: unchanged" in second.run.summary
