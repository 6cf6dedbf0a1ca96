"""lastmod from real git history, end to end: commit dates, fallbacks, shallow clones."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import BASE_URL, FIXED_MTIME, page
from gitutil import commit, git, make_repo
from sitemill.config.model import LastmodMode, load_config
from sitemill.errors import GitError
from sitemill.jobs.tree import build_from_tree
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


def test_modified_and_untracked_pages_use_their_mtime(repo: Path) -> None:
    site = repo / "site"
    (site / "a.html").write_text(page("edited"))
    (site / "new.html").write_text(page("new"))
    for name in ("a.html", "new.html"):
        os.utime(site / name, (FIXED_MTIME, FIXED_MTIME))
    sink, _ = build(site)
    found = lastmods(sink)
    assert found[f"{BASE_URL}a.html"] == "2024-03-01T12:00:00+00:00"
    assert found[f"{BASE_URL}new.html"] == "2024-03-01T12:00:00+00:00"
    assert found[BASE_URL] == ONE


def test_the_build_time_is_never_a_lastmod(repo: Path) -> None:
    # The pages were written just now (their mtime is the build time): every lastmod must be
    # one of the fixed commit times instead, whatever year the test runs in.
    sink, _ = build(repo / "site")
    stamps = lastmods(sink)
    assert len(stamps) == 3
    assert set(stamps.values()) <= {ONE, TWO, THREE}


def test_lastmod_mtime_ignores_history(repo: Path) -> None:
    for path in (repo / "site").iterdir():
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    sink, report = build(repo / "site", lastmod="mtime")
    assert report.lastmod is LastmodMode.MTIME  # type: ignore[attr-defined]
    assert set(lastmods(sink).values()) == {"2024-03-01T12:00:00+00:00"}


def test_a_shallow_clone_warns_and_falls_back_to_mtime(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    for path in (clone / "site").iterdir():
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    sink, report = build(clone / "site")
    assert report.lastmod is LastmodMode.MTIME  # type: ignore[attr-defined]
    assert "shallow clone" in report.warnings[0]  # type: ignore[attr-defined]
    assert "fetch-depth: 0" in report.warnings[0]  # type: ignore[attr-defined]
    assert set(lastmods(sink).values()) == {"2024-03-01T12:00:00+00:00"}
    with pytest.raises(GitError, match="shallow clone"):
        build(clone / "site", lastmod="git")
