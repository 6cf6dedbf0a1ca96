"""A file or key whose name can name no page (a newline, a backslash) is left out of the page
set by the walk and the bucket listing alike, so the state never remembers it (issue 78): the
next run's state holds nothing it must drop, and says nothing about it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, PAGE, make_config, moto_bucket
from sitemill.config.model import load_config
from sitemill.entries import SkipReason
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state

ODD = "new\nline.html"
LINE = (
    "excluded 1 file(s) whose name can name no page of the site (a control character such "
    "as a newline or a tab, a backslash, an empty, '.' or '..' segment), e.g. 'new\\nline.html'"
)


def about_the_state(report: Report) -> list[str]:
    return [line for line in report.warnings if "of the state" in line or "ignoring" in line]


def test_a_tree_built_twice_says_nothing_of_its_state(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page(), "a.html": page(), ODD: page()})
    out = tmp_path / "out"
    config = load_config({"base_url": BASE_URL})
    first = build_from_tree(config, site, LocalDirSink(out))
    state = parse_state((out / STATE_NAME).read_bytes())
    assert sorted(state.pages) == ["a.html", "index.html"]  # (the name is never remembered)
    second = build_from_tree(config, site, LocalDirSink(out))
    assert about_the_state(second) == []  # (before: "ignoring 1 page name(s) of the state …")
    for report in (first, second):
        assert report.skipped == {SkipReason.EXCLUDED: 1}
        assert [line for line in report.warnings if "no page" in line] == [LINE]
    text = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "line.html" not in text and f"{BASE_URL}a.html" in text


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_built_twice_says_nothing_of_its_state(s3: Any) -> None:
    for key in ("index.html", "a.html", ODD, "back\\slash.html"):
        s3.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
    reports = [rebuild_bucket(make_config(), s3, BucketSite(BUCKET)) for _ in range(2)]
    state = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert sorted(state.pages) == ["a.html", "index.html"]
    assert about_the_state(reports[1]) == []  # (before: "ignoring 2 page name(s) …")
    for report in reports:
        assert report.skipped == {SkipReason.EXCLUDED: 2}
        assert [line for line in report.warnings if "no page" in line] == [
            LINE.replace("excluded 1", "excluded 2").replace(
                "'new\\nline.html'", "'back\\\\slash.html'"
            )
        ]
    sitemap = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    assert "line.html" not in sitemap and "slash" not in sitemap
