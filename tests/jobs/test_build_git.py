"""lastmod from real git history, end to end: commit dates, fallbacks, shallow clones."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import BASE_URL, FIXED_MTIME, page
from gitutil import commit, git, make_repo
from outputlist import build_from_tree
from sitemill.config.model import LastmodMode, load_config
from sitemill.errors import GitError
from sitemill.sinks import MemorySink
from xsd import assert_xsd_valid


def lastmods(sink: MemorySink) -> dict[str, str | None]:
    text = sink.files["sitemap.xml"].decode()
    found = {}
    for block in re.findall(r"<url>(.*?)</url>", text):
        loc = re.search(r"<loc>(.*?)</loc>", block)
        stamp = re.search(r"<lastmod>(.*?)</lastmod>", block)
        assert loc is not None
        found[loc.group(1)] = stamp.group(1) if stamp else None
    return found


DAY = 86_400

# The fixed times of the repository's three commits, as <lastmod> spells them.
ONE, TWO, THREE = (
    "2023-01-02T03:04:05+00:00",
    "2024-02-03T04:05:06+00:00",
    "2025-03-04T05:06:07+00:00",
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"site/index.html": page("home"), "site/a.html": page("a")}, ONE, "one")
    commit(repo, {"site/a.html": page("a v2"), "site/b.html": page("b")}, TWO, "two")
    commit(repo, {"README.md": "not in the site"}, THREE, "three")
    return repo


def build(site: Path, **values: object) -> tuple[MemorySink, object]:
    sink = MemorySink()
    report = build_from_tree(load_config({"base_url": BASE_URL, **values}), site, sink)
    return sink, report


def test_lastmod_is_the_last_commit_that_touched_each_page(repo: Path) -> None:
    sink, report = build(repo / "site")
    assert report.lastmod is LastmodMode.GIT  # type: ignore[attr-defined]
    assert lastmods(sink) == {
        f"{BASE_URL}a.html": TWO,
        f"{BASE_URL}b.html": TWO,
        BASE_URL: ONE,
    }
    assert_xsd_valid(sink.files["sitemap.xml"])
    sink, _ = build(repo / "site", lastmod_precision="date")
    assert lastmods(sink)[BASE_URL] == "2023-01-02"


def test_a_versioned_folder_behind_a_link_is_listed_and_dated_by_its_own_path(
    tmp_path: Path,
) -> None:
    """pyproj's gh-pages commits ``dev -> latest``: the pages are listed under latest/,
    the path git tracks, so each gets its history's date (through dev/: none)."""
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"index.html": page("home"), "latest/guide.html": page("guide")}, ONE, "one")
    (repo / "dev").symlink_to("latest")
    git(repo, "add", "dev")
    commit(repo, {"latest/guide.html": page("guide, edited")}, TWO, "two")

    sink, _ = build(repo)

    assert lastmods(sink) == {f"{BASE_URL}": ONE, f"{BASE_URL}latest/guide.html": TWO}


def test_modified_and_untracked_pages_use_their_mtime(repo: Path) -> None:
    # Their mtimes are months apart (no build's stamp): on a first run they are evidence.
    site = repo / "site"
    (site / "a.html").write_text(page("edited"))
    (site / "new.html").write_text(page("new"))
    os.utime(site / "a.html", (FIXED_MTIME, FIXED_MTIME))
    os.utime(site / "new.html", (FIXED_MTIME + 90 * DAY, FIXED_MTIME + 90 * DAY))
    sink, _ = build(site)
    found = lastmods(sink)
    assert found[f"{BASE_URL}a.html"] == "2024-03-01T12:00:00+00:00"
    assert found[f"{BASE_URL}new.html"] == "2024-05-30T12:00:00+00:00"
    assert found[BASE_URL] == ONE


def test_modified_and_untracked_pages_of_one_build_get_no_date(repo: Path) -> None:
    # Written in one minute (a build's) and no run has seen them: no evidence, no date.
    site = repo / "site"
    (site / "a.html").write_text(page("edited"))
    (site / "new.html").write_text(page("new"))
    sink, report = build(site)
    found = lastmods(sink)
    assert found[f"{BASE_URL}a.html"] is None and found[f"{BASE_URL}new.html"] is None
    assert found[BASE_URL] == ONE
    assert report.dates["no date (file times are one build's)"] == 2  # type: ignore[attr-defined]
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_the_build_time_is_never_a_lastmod(repo: Path) -> None:
    # The pages were written just now (their mtime is the build time): every lastmod must be
    # one of the fixed commit times instead, whatever year the test runs in.
    sink, _ = build(repo / "site")
    stamps = lastmods(sink)
    assert len(stamps) == 3
    assert set(stamps.values()) <= {ONE, TWO, THREE}


def test_lastmod_mtime_ignores_history(repo: Path) -> None:
    files = sorted((repo / "site").iterdir())
    for number, path in enumerate(files):  # months apart: no build's stamp
        os.utime(path, (FIXED_MTIME + number * 60 * DAY,) * 2)
    sink, report = build(repo / "site", lastmod="mtime")
    assert report.lastmod is LastmodMode.MTIME  # type: ignore[attr-defined]
    assert sorted(lastmods(sink).values()) == [  # type: ignore[type-var]
        "2024-03-01T12:00:00+00:00",
        "2024-04-30T12:00:00+00:00",
        "2024-06-29T12:00:00+00:00",
    ]


def test_a_shallow_clone_warns_and_falls_back_to_mtime(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    for path in (clone / "site").iterdir():
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    sink, report = build(clone / "site")
    assert report.lastmod is LastmodMode.MTIME  # type: ignore[attr-defined]
    assert "shallow clone" in report.warnings[0]  # type: ignore[attr-defined]
    assert "fetch-depth: 0" in report.warnings[0]  # type: ignore[attr-defined]
    # One instant on every file (the checkout's): no evidence on a first run, no date.
    assert set(lastmods(sink).values()) == {None}
    assert report.dates == {"no date (file times are one build's)": 3}  # type: ignore[attr-defined]
    with pytest.raises(GitError, match="shallow clone"):
        build(clone / "site", lastmod="git")
