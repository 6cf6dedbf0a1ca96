"""A bucket with a partitioned state names the user's sitemaps (`sitemaps`) in robots.txt only,
its index none: written there with robots_txt, else the line to add is said."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_partitioned import STATE_BUCKET, config_of, run

from s3util import BASE, BUCKET, moto_bucket, put_pages

NAMED = ["blog-sitemap.xml", "https://shop.example.net/sitemap.xml"]


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def test_robots_txt_names_them_and_the_index_does_not(s3: Any) -> None:
    put_pages(s3, "a/p.html", "b/p.html")
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"User-agent: *\nDisallow:\n")
    report = run(s3, config_of(robots_txt=True, sitemaps=NAMED))
    robots = s3.get_object(Bucket=BUCKET, Key="robots.txt")["Body"].read().decode()
    assert robots == (
        f"User-agent: *\nDisallow:\nSitemap: {BASE}sitemap.xml\nSitemap: {BASE}blog-sitemap.xml\n"
        "Sitemap: https://shop.example.net/sitemap.xml\n"
    )
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    assert "blog-sitemap.xml" not in index
    assert not [line for line in report.warnings if line.startswith("sitemaps:")]


def test_without_robots_txt_the_lines_to_add_are_said(s3: Any) -> None:
    put_pages(s3, "a/p.html")
    report = run(s3, config_of(sitemaps=NAMED))
    said = [line for line in report.warnings if line.startswith("sitemaps:")]
    assert said == [
        f"sitemaps: a bucket with a partitioned state names {url} in robots.txt only, not in its "
        f"index: add `Sitemap: {url}` to the host's robots.txt (or set robots_txt = true)"
        for url in (f"{BASE}blog-sitemap.xml", "https://shop.example.net/sitemap.xml")
    ]
