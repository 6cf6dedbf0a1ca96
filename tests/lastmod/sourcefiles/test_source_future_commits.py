"""Rung 2 takes no source change after the run's time: a source committed in 2099, or past the
year 9999, dates no page, raises nothing, and the next rung answers (docs/lastmod.md, "No date
from the future")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sourcerepo import BASE, TableMap, build_site, page

from gitutil import commit, commit_at_seconds, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.lastmod.sourcefiles import rung
from sitemill.sinks import LocalDirSink

URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
YEAR_2099 = 4_070_908_800
YEAR_10000 = 253_402_300_800


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[TableMap]:
    found = TableMap({f"{name}.html": (f"content/{name}.md",) for name in "abc"})
    monkeypatch.setattr(rung, "source_map", found.mapper())
    yield found


def test_a_source_committed_after_the_run_dates_no_page(tmp_path: Path, table: TableMap) -> None:
    repo = make_repo(tmp_path / "repo")
    commit(repo, {".gitignore": "public/\n"}, "2020-01-01T00:00:00")
    commit(repo, {"content/a.md": page("A", "A.")}, "2021-03-01T10:00:00")
    commit_at_seconds(repo, {"content/b.md": page("B", "B.")}, YEAR_2099, "b in 2099")
    commit_at_seconds(repo, {"content/c.md": page("C", "C.")}, YEAR_10000, "c in 10000")
    site = build_site(repo)
    report = build_from_tree(
        load_config({"base_url": BASE}), site, LocalDirSink(site), output_dir=site
    )  # (before: 2099 written for b, and a ValueError for c)
    text = (site / "sitemap.xml").read_text()
    dates = {loc.removeprefix(BASE): lastmod or None for loc, lastmod in URL.findall(text)}
    assert dates == {"a.html": "2021-03-01T10:00:00+00:00", "b.html": None, "c.html": None}
    assert report.dates == {"source": 1, "no date (file times are one build's)": 2}
