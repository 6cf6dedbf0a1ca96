"""url_style = "auto" in a bucket: decided from the heads read and the facts the state
remembers, kept in the state, and kept by every later run (incremental: few heads read)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from outputlist import rebuild_bucket, rebuild_partitioned
from s3util import BUCKET, live_files, make_config, moto_bucket
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.report import Report, shards_line
from sitemill.state.parse import parse_state
from sitemill.urls import UrlStyle
from sitemill.urlstyle import StyleDecision


def page(canonical: str) -> bytes:
    return (
        f'<!doctype html><html><head><link rel="canonical" href="{canonical}">'
        "<title>t</title></head><body>t</body></html>"
    ).encode()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def put(client: Any, pages: dict[str, bytes]) -> None:
    for key, body in pages.items():
        client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html")


def rebuild(client: Any, **values: Any) -> Report:
    config = make_config(**values)
    return rebuild_bucket(config, client, BucketSite(BUCKET))


def locs(client: Any) -> list[str]:
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    return re.findall(r"<loc>(.*?)</loc>", data.decode())


def kept(client: Any) -> StyleDecision | None:
    data = client.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    return parse_state(data).url_style


CLEAN_PAGES = {f"posts/p{n}.html": page(f"https://example.com/posts/p{n}") for n in range(12)}


@pytest.mark.parametrize("content_dates", [False, True])
def test_a_bucket_decides_once_and_its_incremental_runs_keep_it(
    s3: Any, content_dates: bool
) -> None:
    put(s3, CLEAN_PAGES)
    first = rebuild(s3, content_dates=content_dates)
    assert first.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12)
    assert "https://example.com/posts/p0" in locs(s3)
    assert kept(s3) == StyleDecision(UrlStyle.CLEAN, 12, 12)
    for n in range(2, 12):
        s3.delete_object(Bucket=BUCKET, Key=f"posts/p{n}.html")
    put(s3, {f"old{n}.html": page(f"https://example.com/old{n}.html") for n in range(5)})
    second = rebuild(s3, content_dates=content_dates)
    assert second.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12, kept=True)
    assert second.heads_read == 5 and second.heads_reused == 2
    assert sorted(locs(s3)) == [
        *(f"https://example.com/old{n}" for n in range(5)),
        "https://example.com/posts/p0",
        "https://example.com/posts/p1",
    ]
    assert kept(s3) == StyleDecision(UrlStyle.CLEAN, 12, 12)
    third = rebuild(s3, content_dates=content_dates)  # nothing changed: nothing read, nothing moves
    assert third.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12, kept=True)
    assert third.heads_read == 0 and not third.result.written


def test_the_votes_come_from_remembered_facts_too(s3: Any) -> None:
    put(s3, CLEAN_PAGES)
    assert rebuild(s3, url_style="directory").url_style is None  # a style set: no decision
    assert kept(s3) is None
    assert "https://example.com/posts/p0.html" in locs(s3)
    report = rebuild(s3)  # auto now: every head is remembered, none is read again
    assert report.heads_read == 0 and report.heads_reused == 12
    assert report.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12)
    assert "https://example.com/posts/p0" in locs(s3)
    assert kept(s3) == StyleDecision(UrlStyle.CLEAN, 12, 12)


STATE_BUCKET = "state-bucket"


def live_locs(client: Any) -> set[bytes]:
    """The URLs of the live index's children (a sharded bucket keeps old ones a while)."""
    files = live_files(client).values()
    return {url for data in files for url in re.findall(rb"<loc>(.*?)</loc>", data)}


def partitioned(s3: Any, **values: Any) -> Callable[[list[str] | None], Report]:
    """A sharded bucket with a partitioned state: its runs (``changed`` None: in full)."""
    s3.create_bucket(Bucket=STATE_BUCKET)
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", shards="on", **values
    )
    store = open_partitioned(config, s3, BucketSite(BUCKET))
    assert store is not None

    def run(changed: list[str] | None = None) -> Report:
        return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, changed=changed)

    return run


def test_a_partitioned_bucket_decides_in_full_and_its_shards_keep_it(s3: Any) -> None:
    run = partitioned(s3, max_urls=5, shard_fill=4)

    sections = {
        f"{section}/p{n}.html": page(f"https://example.com/{section}/p{n}")
        for section in "abc"
        for n in range(4)
    }
    put(s3, sections)
    full = run()
    assert full.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12)
    urls = live_locs(s3)
    assert b"https://example.com/b/p1" in urls and not any(url.endswith(b".html") for url in urls)
    # a one-page deploy: its shard alone, in the style the full rebuild decided
    put(s3, {"b/p10.html": page("https://example.com/b/p10.html")})
    report = run(changed=["b/p10.html"])
    assert shards_line(report).endswith("1 touched")
    urls = live_locs(s3)
    assert b"https://example.com/b/p10" in urls
    assert not any(url.endswith(b".html") for url in urls)
    # and a full rebuild after it keeps the decision
    assert run().url_style == StyleDecision(UrlStyle.CLEAN, 12, 12, kept=True)


def test_a_shard_never_decides_for_the_site(s3: Any) -> None:
    run = partitioned(s3, max_urls=15, shard_fill=12)
    plain = b"<!doctype html><title>t</title>"
    put(s3, {f"{section}/p{n}.html": plain for section in "ac" for n in range(12)})
    put(s3, {f"b/p{n}.html": page(f"https://example.com/b/p{n}") for n in range(9)})
    assert run().url_style == StyleDecision(UrlStyle.DIRECTORY, 0, 9)  # too few: not decided
    new = {f"b/p{n}.html": page(f"https://example.com/b/p{n}") for n in range(9, 12)}
    put(s3, new)
    report = run(sorted(new))  # shard b alone now has 12 votes: it still renders as the site
    assert shards_line(report).endswith("1 touched")
    assert not [line for line in report.warnings if "url_style" in line]
    assert b"https://example.com/b/p10.html" in live_locs(s3)
    assert b"https://example.com/a/p1.html" in live_locs(s3)
    full = run()  # the site's 12 votes decide, for every shard
    assert full.url_style == StyleDecision(UrlStyle.CLEAN, 12, 12)
    assert b"https://example.com/b/p10" in live_locs(s3)
    assert b"https://example.com/a/p1" in live_locs(s3)  # (every page: the site's style)
