"""Cuts fall among raw keys (issue 39, items 2 and 7; docs/output.md: never between two keys
that map to one URL): a key that gives no URL (a duplicate) keeps its family together, and a
family no cut can respect (more keys between ``x.htm`` and ``x.html`` than a file holds)
makes a shard of several files instead of a failed build."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from consistency import live_urls
from outputlist import rebuild_partitioned
from s3util import BASE, BUCKET, live_files, make_config, moto_bucket, put_pages
from sitemill.config.model import Config
from sitemill.entries import Entry
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.render.renderer import Renderer
from sitemill.report import Report
from sitemill.shards.cuts import CutRule
from sitemill.shards.layout import render_shards, sorted_entries
from sitemill.shards.plan import Order
from xsd import assert_xsd_valid

RENDERER = Renderer(None, text=False)
STATE_BUCKET = "state-bucket"


def render(keys: list[str], urls: list[str], *, clean: bool = False, max_urls: int = 5) -> Any:
    """Render the entries of ``urls`` (each a key), cutting among every key of ``keys``."""
    entries = sorted_entries([Entry("https://x/" + key, None, key=key) for key in urls], Order.KEYS)

    def files(items: Iterator[Entry]) -> list[Any]:
        return list(RENDERER.render_sitemaps(items, max_urls=max_urls, max_bytes=10_000_000))

    return render_shards(
        entries, None, files, CutRule(Order.KEYS, 10_000_000, clean=clean, fill=4),
        keys=sorted(keys),
    )  # fmt: skip


def test_a_duplicate_key_keeps_its_family_in_one_shard() -> None:
    # d/index.htm is listed (first), d/index.html is its duplicate: no entry of its own.
    listed = ["a.html", "b.html", "c.html", "d/index.htm", "e.html", "f.html", "g.html"]
    keys = [*listed, "d/index.html"]
    plan, _ = render(keys, listed)
    assert plan.shard_of("d/index.htm") == plan.shard_of("d/index.html")
    # Without the raw keys the cut fell between them (the bug this guards against).
    plan, _ = render(listed, listed)
    assert plan.shard_of("d/index.htm") != plan.shard_of("d/index.html")


def test_a_family_no_cut_can_respect_is_one_shard_of_several_files() -> None:
    between = [f"x.htm/p{n}.html" for n in range(12)]
    keys = ["a.html", "x.htm", *between, "x.html", "z.html"]
    listed = [key for key in keys if key != "x.html"]  # (clean: x.html is x.htm's URL)
    plan, files = render(keys, listed, clean=True)
    shard = plan.shard_of("x.htm")
    assert plan.shard_of("x.html") == shard
    mine = [file for file in files if file.shard == plan.ids[shard]]
    assert [file.number for file in mine] == list(range(1, len(mine) + 1)) and len(mine) >= 3
    assert all(file.sitemap.url_count <= 5 for file in files)
    assert sum(file.sitemap.url_count for file in files) == len(listed)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def run(s3: Any, config: Config, changed: list[str] | None = None) -> Report:
    store = open_partitioned(config, s3, BucketSite(BUCKET))
    assert store is not None
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, changed=changed)


def config_of(**values: Any) -> Config:
    state = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
    return make_config(state=state, shards="on", max_urls=5, shard_fill=4, **values)


def test_the_router_keeps_a_url_whose_first_file_is_deleted(s3: Any) -> None:
    # The case: the cut fell between d/index.htm and d/index.html; deleting the
    # first re-rendered its shard alone, and d/ left the sitemap until a full rebuild.
    put_pages(s3, "a.html", "b.html", "c.html", "d/index.htm", "d/index.html", "e.html")
    put_pages(s3, "f.html", "g.html", "h.html")
    config = config_of()
    run(s3, config)
    assert BASE + "d/" in live_urls(live_files(s3).get)
    s3.delete_object(Bucket=BUCKET, Key="d/index.htm")
    report = run(s3, config, changed=["d/index.htm"])
    assert report.shards_touched == 1
    assert BASE + "d/" in live_urls(live_files(s3).get)
    assert run(s3, config).result.written == []  # what a full rebuild gives


def test_a_sharded_bucket_with_a_family_no_cut_can_respect_builds(s3: Any) -> None:
    between = [f"x.htm/p{n}.html" for n in range(12)]
    put_pages(s3, "a.html", "x.htm", *between, "x.html", "z.html")
    config = config_of(url_style="clean")
    report = run(s3, config)
    files = live_files(s3)
    urls = live_urls(files.get)
    assert len(urls) == len(set(urls)) == 16 and BASE + "x" in urls
    for data in files.values():
        assert_xsd_valid(data)
    assert report.result.url_count == 16
    put_pages(s3, "x.htm/p5b.html")  # a deploy into the shard of several files
    run(s3, config, changed=["x.htm/p5b.html"])
    assert BASE + "x.htm/p5b" in live_urls(live_files(s3).get)
    assert run(s3, config).result.written == []
