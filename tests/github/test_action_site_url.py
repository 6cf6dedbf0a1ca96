"""The Action on sites whose pages carry no canonical link: what else the site says of its URL (its
CNAME, og:url, the generator's config, the previous state) fails a wrong ``base-url`` or a
sub-folder ``path`` in one line and commits nothing; a consistent site, or one that says nothing,
commits."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    Project,
    make_project,
    no_network,
    page,
    run_action,
    subjects,
)

from gitutil import commit, git

pytestmark = pytest.mark.usefixtures("no_network")

LIVE = "https://docs.example.org/"
PAGES = ("index.html", "about.html", "blog/a.html", "blog/b.html", "blog/c.html")
BEFORE = ["Site", "Site", "Start"]  # the remote's subjects before any run
WHEN = "2024-02-01T10:00:00+00:00"


def og_url(url: str, path: str) -> str:
    return page(path, f'<meta property="og:url" content="{url}{path}">')


def work_tree(project: Project) -> dict[str, bytes]:
    """Every file of the work tree (.git aside) with its bytes, and anything left beside it."""
    found = {
        path.relative_to(project.workspace).as_posix(): path.read_bytes()
        for path in project.workspace.rglob("*")
        if path.is_file() and path.relative_to(project.workspace).parts[0] != ".git"
    }
    beside = sorted(p.name for p in project.workspace.parent.iterdir() if "sitemill" in p.name)
    return {**found, **{f"beside: {name}": b"" for name in beside}}


def project_with(tmp_path: Path, files: dict[str | bytes, str | bytes | None]) -> Project:
    """The workspace with a site in public/ (pages without a canonical link) and ``files``."""
    made = make_project(tmp_path)
    site: dict[str | bytes, str | bytes | None] = {f"public/{path}": page(path) for path in PAGES}
    commit(made.workspace, {**site, **files}, when=WHEN, message="Site")
    git(made.workspace, "push", "-q", "origin", "main")
    return made


OG_HTTPS = {f"public/{path}": og_url(LIVE, path) for path in PAGES}


def listing(base: str, *paths: str) -> str:
    """A sitemap.xml listing ``paths`` under ``base``."""
    urls = "".join(f"<url><loc>{base}{path}</loc></url>" for path in paths)
    return f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'


MISTAKES = {
    "a CNAME naming another domain": (
        {"public/CNAME": "docs.example.org\n"},
        {"base-url": "https://staging.example.net/", "path": "public"},
        "base-url",
        "(CNAME)",
    ),
    "og:url with https, base-url http": (
        OG_HTTPS,
        {"base-url": "http://docs.example.org/", "path": "public"},
        "base-url",
        "(og:url on 5 of 5 pages)",
    ),
    "mkdocs.yml site_url of another host": (
        {"mkdocs.yml": f"site_name: Docs\nsite_url: {LIVE}\nsite_dir: public\n"},
        {"base-url": "https://staging.example.net/", "path": "public"},
        "base-url",
        "(mkdocs.yml of mkdocs)",
    ),
    "a sub-folder path og:url reveals": (
        OG_HTTPS,
        {"base-url": LIVE, "path": "public/blog"},
        "path",
        "(og:url on 3 of 3 pages)",
    ),
    # issue 82: pages without canonicals in a sub-folder; the folder above says where it is.
    "a sub-folder path its parent's sitemap lists": (
        {"public/sitemap.xml": listing(LIVE, "", "about.html", "blog/a.html")},
        {"base-url": LIVE, "path": "public/blog"},
        "path",
        "(public/sitemap.xml)",
    ),
    "a sub-folder path below the parent's CNAME and sitemap": (
        {"public/CNAME": "docs.example.org\n", "public/sitemap.xml": listing(LIVE, "about.html")},
        {"base-url": LIVE, "path": "public/blog"},
        "path",
        "(public/CNAME, public/sitemap.xml)",
    ),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_what_the_site_says_fails_a_wrong_input_in_one_line(tmp_path: Path, name: str) -> None:
    files, inputs, key, where = MISTAKES[name]
    project = project_with(tmp_path, files)
    before = work_tree(project)
    run = run_action(project.workspace, inputs)
    assert run.returncode == 1, run.stdout + run.stderr
    assert work_tree(project) == before  # (a refused run leaves the tree as it found it)
    (error,) = run.lines("::error")
    assert error.startswith(f"::error title=sitemill::{key}: ")
    assert where in error and "nothing was committed" in error
    assert "allow-base-url-mismatch: true" in error
    if key == "path":
        assert "Set path to 'public'" in error and f"base-url to {LIVE}blog/" in error
    else:
        assert f"Set base-url to {LIVE} " in error
    assert "Traceback" not in run.stdout + run.stderr
    assert subjects(project.remote) == BEFORE
    assert run.outputs.get("changed", "") != "true"
    # Meant (a domain move): the override commits, and the finding stays one warning.
    run = run_action(project.workspace, {**inputs, "allow-base-url-mismatch": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]
    asked = [line for line in run.lines("::warning") if "is --base-url right?" in line]
    assert len(asked) == 1


def test_a_previous_state_at_another_base_url_fails_the_step(tmp_path: Path) -> None:
    """The state the last run committed beside the sitemaps names the base URL it was
    written at: a run at another host fails, naming it."""
    project = project_with(tmp_path, {})
    first = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert first.returncode == 0, first.stdout + first.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]
    git(project.workspace, "pull", "-q", "origin", "main")
    before = work_tree(project)
    run = run_action(
        project.workspace, {"base-url": "https://staging.example.net/", "path": "public"}
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert work_tree(project) == before  # (the sitemap and the state not rewritten)
    (error,) = run.lines("::error")
    assert error.startswith("::error title=sitemill::base-url: https://staging.example.net/ ")
    assert f"{LIVE} (the previous state)" in error and "nothing was committed" in error
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def test_an_http_state_does_not_refuse_the_move_to_https(tmp_path: Path) -> None:
    """A state written at http:// does not hold back the correction to https://."""
    project = project_with(tmp_path, {})
    first = run_action(
        project.workspace, {"base-url": "http://docs.example.org/", "path": "public"}
    )
    assert first.returncode == 0, first.stdout + first.stderr
    git(project.workspace, "pull", "-q", "origin", "main")
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote)[:2] == ["Update sitemap", "Update sitemap"]


CONSISTENT = {
    **OG_HTTPS,
    "public/CNAME": "docs.example.org\n",
    "mkdocs.yml": f"site_name: Docs\nsite_url: {LIVE}\nsite_dir: public\n",
}


@pytest.mark.parametrize("files", [CONSISTENT, {}], ids=["consistent", "says nothing"])
def test_a_consistent_site_or_a_silent_one_commits(
    tmp_path: Path, files: dict[str | bytes, str | bytes | None]
) -> None:
    project = project_with(tmp_path, files)
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.lines("::error") == []
    assert not [line for line in run.lines("::warning") if "is --base-url right?" in line]
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def test_one_weak_source_alone_commits(tmp_path: Path) -> None:
    """A generator config that builds into another folder than the one given is weak: alone
    it fails nothing."""
    mkdocs = {"mkdocs.yml": "site_name: Docs\nsite_url: https://staging.example.net/\n"}
    project = project_with(tmp_path, mkdocs)  # (site_dir: its default, site/)
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def test_a_parents_cname_alone_commits(tmp_path: Path) -> None:
    """A CNAME above the folder is weak (GitHub Pages may serve a folder below it at the
    CNAME's root): alone it fails nothing."""
    project = project_with(tmp_path, {"public/CNAME": "docs.example.org\n"})
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public/blog"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def mkdocs_sitemap(base: str) -> str:
    """A sitemap.xml as MkDocs writes it (its shape tells whose it is)."""
    urls = "".join(
        f"    <url>\n         <loc>{base}{path}</loc>\n    </url>\n" for path in ("", "blog/a/")
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{urls}</urlset>"
    )


def test_the_generator_sitemap_and_config_agree_against_the_input(tmp_path: Path) -> None:
    """Two weak witnesses that agree (a config building elsewhere, the generator's sitemap
    in the folder) fail the step; the sitemap alone commits."""
    files = {
        "mkdocs.yml": f"site_name: Docs\nsite_url: {LIVE}\n",
        "public/sitemap.xml": mkdocs_sitemap(LIVE),
    }
    project = project_with(tmp_path, files)
    run = run_action(
        project.workspace, {"base-url": "https://staging.example.net/", "path": "public"}
    )
    assert run.returncode == 1, run.stdout + run.stderr
    (error,) = run.lines("::error")
    assert f": {LIVE} (mkdocs.yml of mkdocs, MkDocs' sitemap.xml); nothing was" in error
    assert subjects(project.remote) == BEFORE


def test_the_generator_sitemap_alone_commits(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"public/sitemap.xml": mkdocs_sitemap(LIVE)})
    run = run_action(
        project.workspace, {"base-url": "https://staging.example.net/", "path": "public"}
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]
