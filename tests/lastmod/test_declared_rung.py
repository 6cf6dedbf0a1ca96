"""Rung 3 asked by the ladder: a first-seen page with no history and no state is dated by its
declared modification date (in the page, or in the generator sitemap sitemill replaces) when
the build-stamp check accepts it (docs/lastmod.md, "Declared dates")."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends
from test_first_run import BASE, bucket_urls, build, listed

from outputlist import rebuild_bucket
from s3util import BUCKET, make_config, moto_bucket
from sitemill.jobs.bucket import BucketSite
from sitemill.report import dates_line

PAGE = (
    "<!DOCTYPE html><html><head><title>{name}</title>{meta}</head>"
    "<body><main><h1>{name}</h1><p>What {name} says.</p></main></body></html>"
)
MODIFIED = '<meta property="article:modified_time" content="{0}">'
SPREAD = [f"2024-0{n + 1}-1{n}T08:3{n}:00+00:00" for n in range(6)]  # months apart
NAMES = [f"p{n}" for n in range(6)]


def fresh_site(tmp_path: Path, declared: list[str | None]) -> Path:
    """Pages as a CI build writes them (every mtime this minute), each declaring its date."""
    site = tmp_path / "public"
    site.mkdir()
    for number, when in enumerate(declared):
        name = f"p{number}"
        meta = "" if when is None else MODIFIED.format(when)
        (site / f"{name}.html").write_text(PAGE.format(name=name, meta=meta))
    return site


def test_a_first_run_dates_pages_by_their_declared_modification_time(tmp_path: Path) -> None:
    site = fresh_site(tmp_path, list(SPREAD))
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert urls == {f"{BASE}{name}.html": when for name, when in zip(NAMES, SPREAD, strict=True)}
    assert report.dates == {"declared": 6}  # (before: no date, the file times one build's)
    assert dates_line(report) == "lastmod: 6 dated by their declared modification date"
    # The second run over a fresh rebuild of the same pages moves nothing.
    for path in site.glob("*.html"):
        os.utime(path, None)
    again = build(site)
    assert again.dates == {"kept": 6} and not again.result.written
    assert listed((site / "sitemap.xml").read_bytes()) == urls


def test_one_instant_declared_by_most_pages_is_a_build_stamp(tmp_path: Path) -> None:
    # A theme that writes the build's time into six pages of eight; two pages say their own.
    site = fresh_site(tmp_path, ["2024-03-01T10:00:00+00:00"] * 6 + SPREAD[:2])
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert {urls[f"{BASE}{name}.html"] for name in NAMES} == {None}
    assert urls[f"{BASE}p6.html"] == SPREAD[0] and urls[f"{BASE}p7.html"] == SPREAD[1]
    assert report.dates == {"declared": 2, "no date (file times are one build's)": 6}


HUGO_SITEMAP = (
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{0}</urlset>\n'
)


def hugo_sitemap(site: Path, dates: dict[str, str]) -> None:
    """Hugo's sitemap.xml as `hugo` writes it beside the pages (locs for the site's URL)."""
    urls = "".join(
        f"  <url>\n    <loc>{BASE}{name}.html</loc>\n    <lastmod>{when}</lastmod>\n  </url>\n"
        for name, when in dates.items()
    )
    (site / "sitemap.xml").write_text(HUGO_SITEMAP.format(urls))


def test_the_replaced_generator_sitemaps_dates_date_pages_that_declare_nothing(
    tmp_path: Path,
) -> None:
    # p0 and p1 declare their own date (it wins over the sitemap's); the others only in
    # Hugo's sitemap, which sitemill replaces.
    site = fresh_site(tmp_path, [SPREAD[0], SPREAD[1], None, None, None, None])
    hugo_sitemap(
        site, {name: f"2023-0{n + 1}-0{n + 2}T12:00:00+02:00" for n, name in enumerate(NAMES)}
    )
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert urls[f"{BASE}p0.html"] == SPREAD[0] and urls[f"{BASE}p1.html"] == SPREAD[1]
    assert urls[f"{BASE}p2.html"] == "2023-03-04T10:00:00+00:00"
    assert urls[f"{BASE}p5.html"] == "2023-06-07T10:00:00+00:00"
    assert report.dates == {"declared": 6}


def test_a_replaced_sitemap_that_dates_most_pages_alike_is_refused(tmp_path: Path) -> None:
    site = fresh_site(tmp_path, [SPREAD[0], None, None, None, None, None])
    hugo_sitemap(site, dict.fromkeys(NAMES, "2024-05-05"))  # the build's day on every page
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert urls[f"{BASE}p0.html"] == SPREAD[0]  # its own declaration stands
    assert {urls[f"{BASE}{name}.html"] for name in NAMES[1:]} == {None}
    assert report.dates == {"declared": 1, "no date (file times are one build's)": 5}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_first_rebuild_dates_pages_by_their_declared_dates(s3: Any) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    synced = datetime(2026, 5, 1, 9, 30)  # `aws s3 sync` of a fresh build: one minute
    for number, (name, when) in enumerate(zip(NAMES, SPREAD, strict=True)):
        body = PAGE.format(name=name, meta=MODIFIED.format(when) if number < 4 else "")
        s3.put_object(
            Bucket=BUCKET, Key=f"{name}.html", Body=body.encode(), ContentType="text/html"
        )
        backend.get_object(BUCKET, f"{name}.html").last_modified = synced + timedelta(
            seconds=number
        )
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    urls = bucket_urls(s3)
    assert urls["https://example.com/p0.html"] == SPREAD[0]
    assert urls["https://example.com/p3.html"] == SPREAD[3]
    assert urls["https://example.com/p4.html"] is None
    assert report.dates == {"declared": 4, "no date (upload times are one sync's)": 2}
    # The next rebuild (the same bytes re-uploaded) keeps them: the state remembers the dates.
    again = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    assert bucket_urls(s3) == urls
    assert again.dates == {"kept": 4, "no date (unchanged, none remembered)": 2}
