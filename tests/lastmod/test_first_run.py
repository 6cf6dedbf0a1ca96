"""No date without evidence, end to end: a first run dates a page by its history or by file
times that are no stamp, else writes no <lastmod>; a run that saw the site dates a changed
page by the deploy that brought it (docs/lastmod.md, "No date without evidence")."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from gitutil import commit, make_repo
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, make_config, moto_bucket
from sitemill.config.model import load_config
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report, dates_line
from sitemill.sinks import LocalDirSink
from xsd import assert_xsd_valid

BASE = "https://www.example.com/"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "site"
URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
DAY = 86_400
OLD = 1_700_000_000  # 2023-11-14T22:13:20Z


def fresh_copy(tmp_path: Path) -> Path:
    """examples/site copied as a CI build writes it: every file new, this minute."""
    site = tmp_path / "public"
    shutil.copytree(EXAMPLE, site, copy_function=shutil.copy)  # (new mtimes)
    return site


def build(site: Path, **values: Any) -> Report:
    config = load_config({"base_url": BASE, **values})
    return build_from_tree(config, site, LocalDirSink(site), output_dir=site)


def listed(data: bytes | str) -> dict[str, str | None]:
    text = data.decode() if isinstance(data, bytes) else data
    return {loc: lastmod or None for loc, lastmod in URL.findall(text)}


def test_a_fresh_build_on_a_first_run_gets_no_lastmod_and_the_report_says_why(
    tmp_path: Path,
) -> None:
    site = fresh_copy(tmp_path)
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert len(urls) == 8 and set(urls.values()) == {None}  # (before: the run's minute on all 8)
    assert report.dates == {"no date (file times are one build's)": 8}
    assert dates_line(report) == (
        "lastmod: 8 without a date: no evidence on a first run (file times are one build's)"
    )
    assert_xsd_valid((site / "sitemap.xml").read_bytes())
    # The next run over the same build moves nothing; a later edit is dated by that deploy.
    again = build(site)
    assert again.dates == {"no date (unchanged, none remembered)": 8}
    assert not again.result.written
    about = site / "about.html"
    about.write_text(about.read_text().replace("</body>", "<p>One more line.</p></body>"))
    os.utime(about, (OLD + 300 * DAY,) * 2)
    edited = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert urls[f"{BASE}about.html"] == "2024-09-09T22:13:20+00:00"
    assert edited.dates["content changed"] == 1
    assert sum(1 for when in urls.values() if when is None) == 7


def test_spread_old_mtimes_are_a_first_runs_dates(tmp_path: Path) -> None:
    site = fresh_copy(tmp_path)
    files = sorted(path for path in site.rglob("*") if path.is_file())
    for number, path in enumerate(files):  # months apart, as a site edited over time
        os.utime(path, (OLD - number * 30 * DAY,) * 2)
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    expected = {
        path: datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
        for path in files
    }
    assert urls[BASE] == expected[site / "index.html"]
    assert urls[f"{BASE}about.html"] == expected[site / "about.html"]
    assert None not in urls.values()
    assert report.dates == {"file time": 8}
    # A second run from the state: a fresh rebuild (new mtimes, same content) keeps them all.
    for path in files:
        os.utime(path, None)
    assert build(site).dates == {"kept": 8}
    assert listed((site / "sitemap.xml").read_bytes()) == urls


def test_content_dates_off_keeps_the_plain_mtime_as_the_user_chose(tmp_path: Path) -> None:
    site = fresh_copy(tmp_path)
    for path in site.rglob("*"):
        os.utime(path, (OLD, OLD))
    build(site, content_dates=False)
    assert set(listed((site / "sitemap.xml").read_bytes()).values()) == {
        "2023-11-14T22:13:20+00:00"
    }


def test_committed_pages_keep_their_history_and_an_untracked_fresh_page_gets_none(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo")
    page = "<!DOCTYPE html><html><head><title>{0}</title></head><body><p>{0}</p></body></html>"
    commit(
        repo, {"index.html": page.format("Home"), "a.html": page.format("A")}, "2024-01-10 09:00:00"
    )
    commit(repo, {"a.html": page.format("A, edited")}, "2024-02-20 10:00:00")
    (repo / "fresh.html").write_text(page.format("Fresh"))  # built just now, not committed
    out = tmp_path / "out"
    report = build_from_tree(
        load_config({"base_url": BASE, "lastmod": "git"}), repo, LocalDirSink(out), output_dir=out
    )
    assert listed((out / "sitemap.xml").read_bytes()) == {
        BASE: "2024-01-10T09:00:00+00:00",
        f"{BASE}a.html": "2024-02-20T10:00:00+00:00",
        f"{BASE}fresh.html": None,
    }
    assert report.dates == {"the last commit": 2, "no date (file times are one build's)": 1}


def test_an_index_dates_each_child_by_when_it_was_written_dated_urls_or_none(
    tmp_path: Path,
) -> None:
    site = tmp_path / "public"
    site.mkdir()
    body = "<!DOCTYPE html><html><head><title>{0}</title></head><body><p>{0}</p></body></html>"
    for name in ("a1", "a2", "b1", "b2", "c1", "c2"):
        (site / f"{name}.html").write_text(body.format(name))
    for number, name in enumerate(("a1", "a2", "b1", "b2")):  # the c pages: built just now
        os.utime(site / f"{name}.html", (OLD + number * 40 * DAY,) * 2)
    os.utime(site / "c1.html", (OLD + 400 * DAY,) * 2)  # within the stamp's own window ...
    os.utime(site / "c2.html", (OLD + 400 * DAY + 60,) * 2)  # ... of two of six: spread
    build(site, max_urls=2)
    index = (site / "sitemap.xml").read_bytes()
    assert_xsd_valid(index)
    children = re.findall(rb"<sitemap><loc>[^<]*/(sitemap[^<]*)</loc>(?:<lastmod>([^<]*))?", index)
    assert len(children) == 3 and all(lastmod for _, lastmod in children)
    for name, _ in children:
        assert_xsd_valid((site / name.decode()).read_bytes())
    # A fresh build of the same pages on a first run: no child has a dated URL, yet each is a
    # file written now (the protocol's index <lastmod>: when the sitemap file was modified).
    shutil.rmtree(site)
    site.mkdir()
    for name in ("a1", "a2", "b1", "b2", "c1", "c2"):
        (site / f"{name}.html").write_text(body.format(name))
    start = datetime.now(UTC).replace(microsecond=0)
    build(site, max_urls=2)
    index = (site / "sitemap.xml").read_bytes()
    assert_xsd_valid(index)
    written = re.findall(rb"<sitemap><loc>[^<]*/(sitemap[^<]*)</loc><lastmod>([^<]*)<", index)
    assert len(written) == 3
    for name, lastmod in written:
        assert start <= datetime.fromisoformat(lastmod.decode()) <= datetime.now(UTC)
        assert b"<lastmod>" not in (site / name.decode()).read_bytes()


def test_the_text_format_is_the_same_on_a_first_run(tmp_path: Path) -> None:
    site = fresh_copy(tmp_path)
    report = build(site, format="txt")
    lines = (site / "sitemap.txt").read_text().split()
    assert len(lines) == 8 and all(line.startswith(BASE) for line in lines)
    assert report.dates == {"no date (file times are one build's)": 8}


# --- a bucket -------------------------------------------------------------------------------

PAGES = {f"p{n}.html": f"<!doctype html><title>p{n}</title><p>page {n}".encode() for n in range(6)}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def sync(client: Any, times: list[datetime]) -> None:
    """Upload every page, each given its LastModified (moto would set "now")."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for (key, body), when in zip(PAGES.items(), times, strict=True):
        client.put_object(Bucket=BUCKET, Key=key, Body=body)
        backend.get_object(BUCKET, key).last_modified = when


def bucket_urls(client: Any) -> dict[str, str | None]:
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert_xsd_valid(data)
    return listed(data)


def test_a_bucket_first_rebuild_after_one_sync_writes_no_lastmod(s3: Any) -> None:
    minute = datetime(2026, 5, 1, 9, 30)
    sync(s3, [minute + timedelta(seconds=n) for n in range(6)])  # `aws s3 sync` of a build
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    urls = bucket_urls(s3)
    assert len(urls) == 6 and set(urls.values()) == {None}  # (before: the sync's minute)
    assert report.dates == {"no date (upload times are one sync's)": 6}
    assert "(upload times are one sync's)" in dates_line(report)


def test_a_bucket_synced_over_months_is_dated_by_each_upload(s3: Any) -> None:
    start = datetime(2025, 1, 1, 8, 0)
    sync(s3, [start + timedelta(days=30 * n) for n in range(6)])
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    urls = bucket_urls(s3)
    assert urls["https://example.com/p0.html"] == "2025-01-01T08:00:00+00:00"
    assert urls["https://example.com/p5.html"] == "2025-05-31T08:00:00+00:00"
    assert report.dates == {"file time": 6}
    # A later full re-upload of the same bytes (one minute): every date stays.
    sync(s3, [datetime(2026, 1, 1, 0, 0)] * 6)
    again = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    assert again.dates == {"kept": 6} and bucket_urls(s3) == urls
