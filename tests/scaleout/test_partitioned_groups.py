"""Named groups in a sharded bucket with a partitioned state (docs/output.md, Named groups): a
group's children are versioned as the default ones (sitemap-<name>-r<id>-<version>.xml); a
one-page deploy re-renders its shard alone and rewrites its group's one child there; a full
rebuild with the same plan writes the same bytes; a second run writes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_partitioned
from s3util import BASE, BUCKET, live_files, moto_bucket, put_pages, upload
from sitemill.config.model import Config, load_config
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.report import Report, shards_line
from sitemill.shards.manifest import DELETE_AFTER
from sitemill.state.partitioned import PartitionedStore
from xsd import assert_xsd_valid

STATE_BUCKET = "state-bucket"
SHARD = re.compile(r"sitemap-r[a-z2-7]{8}-[a-z2-7]{8}\.xml")
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
BLOG_SHARD = re.compile(r"sitemap-blog-(r[a-z2-7]{8})-[a-z2-7]{8}\.xml")


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of(groups: bool = True, **values: Any) -> Config:
    flags = {
        "base_url": BASE,
        "state": f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        "shards": "on",
        **values,
    }
    tables = [{"name": "blog", "include": ["blog/**"]}] if groups else []
    return load_config(flags, {}, {"groups": tables})


def run(
    s3: Any, config: Config, changed: list[str] | None = None, now: datetime | None = None
) -> Report:
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    site = BucketSite(BUCKET)
    return rebuild_partitioned(config, s3, site, store, changed=changed, now=now)


def children(s3: Any) -> list[str]:
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return re.findall(r"<loc>https://example\.com/(sitemap-[^<]+)</loc>", index)


def test_a_one_page_deploy_rewrites_its_groups_one_child(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in ("a", "blog", "c") for n in range(5)))
    config = config_of(max_urls=5, shard_fill=4)
    first = run(s3, config)
    names = children(s3)
    defaults = [name for name in names if SHARD.fullmatch(name)]
    blog = [name for name in names if BLOG_SHARD.fullmatch(name)]
    assert names == defaults + blog and len(blog) >= 2
    for data in live_files(s3).values():
        assert_xsd_valid(data)
    plan = first.result.plan
    assert plan is not None

    put_pages(s3, "blog/p2a.html")
    report = run(s3, config, changed=["blog/p2a.html"])
    assert shards_line(report).endswith("1 child rewritten, 1 touched")
    shard = plan.ids[plan.shard_of("blog/p2a.html")]
    written = [name for name in report.result.written if name != "sitemap.xml"]
    assert len(written) == 1 and BLOG_SHARD.fullmatch(written[0])
    assert BLOG_SHARD.fullmatch(written[0])[1] == shard  # type: ignore[index]
    after = children(s3)
    assert [name for name in after if name not in names] == written  # one child moved
    incremental = live_files(s3)
    full = run(s3, config)  # a full rebuild with the same plan: the same bytes
    assert full.result.written == []
    assert live_files(s3) == incremental
    again = run(s3, config, changed=["blog/p2a.html"])
    assert again.result.written == []


def test_a_removed_groups_children_go_in_time_and_a_users_look_alike_stays(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in ("a", "blog") for n in range(3)))
    upload(s3, {"sitemap-blog.xml": b"<urlset>the user's</urlset>"})
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]  # (old: never a young run's file)
    backend.get_object(BUCKET, "sitemap-blog.xml").last_modified = datetime(2024, 1, 1)
    run(s3, config_of(), now=NOW)
    blog = [name for name in children(s3) if BLOG_SHARD.fullmatch(name)]
    assert len(blog) == 1
    off = config_of(groups=False)
    report = run(s3, off, now=NOW + timedelta(seconds=1))
    assert not any(BLOG_SHARD.fullmatch(name) for name in children(s3))
    assert report.result.deleted == []  # (unnamed a while first: a crawler may still read it)
    later = run(s3, off, now=NOW + DELETE_AFTER + timedelta(seconds=2))
    assert blog[0] in later.result.deleted  # (and the default child it went back into, renamed)
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert blog[0] not in keys
    back = run(s3, config_of(), now=NOW + 2 * DELETE_AFTER + timedelta(seconds=3))
    assert "sitemap-blog.xml" not in back.result.deleted  # (no stray: a user's, not a shard's)
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-blog.xml")["Body"].read() == (
        b"<urlset>the user's</urlset>"
    )


def test_a_small_site_with_groups_is_sharded_under_auto(s3: Any) -> None:
    put_pages(s3, "index.html", "about.html", "blog/a.html", "blog/b.html")
    config = config_of(shards="auto")
    run(s3, config)
    names = children(s3)
    assert [bool(BLOG_SHARD.fullmatch(name)) for name in names] == [False, True]
    assert SHARD.fullmatch(names[0])
    put_pages(s3, "blog/c.html")
    report = run(s3, config, changed=["blog/c.html"])
    assert shards_line(report).endswith("1 child rewritten, 1 touched")  # (no full rebuild)
    assert [name for name in children(s3) if name not in names] == [
        name for name in report.result.written if name != "sitemap.xml"
    ]


def test_a_shards_default_and_group_files_each_keep_their_date(s3: Any) -> None:
    """One shard holds a default file and a group's: each keeps its own date (its bytes'), so
    a later run with nothing new moves no date and writes nothing (issue 65's dates)."""
    put_pages(s3, "a/p0.html", "a/p1.html", "blog/p0.html", "blog/p1.html")
    config = config_of()
    run(s3, config, now=NOW)
    names = children(s3)
    assert len(names) == 2 and SHARD.fullmatch(names[0]) and BLOG_SHARD.fullmatch(names[1])
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    again = run(s3, config, now=NOW + timedelta(hours=1))
    assert again.result.written == []
    assert s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read() == index


def test_the_users_sitemaps_come_after_the_groups_children_and_a_deploy_keeps_them(
    s3: Any,
) -> None:
    put_pages(s3, "a/p.html", "blog/p.html", "c/p.html")
    user = b"<?xml version='1.0'?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>"
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=user)
    config = config_of(shards="auto", sitemaps=["blog-sitemap.xml"])
    run(s3, config, now=NOW)
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert_xsd_valid(index)
    locs = re.findall(r"<loc>(.*?)</loc>", index.decode())
    assert [SHARD.fullmatch(loc.removeprefix(BASE)) is not None for loc in locs[:1]] == [True]
    assert BLOG_SHARD.fullmatch(locs[1].removeprefix(BASE)) and locs[2:] == [
        f"{BASE}blog-sitemap.xml"
    ]
    put_pages(s3, "blog/q.html")
    report = run(s3, config, changed=["blog/q.html"], now=NOW + timedelta(days=1))
    assert report.shards_touched == 1
    after = re.findall(
        r"<loc>(.*?)</loc>", s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    )
    assert after[0] == locs[0] and after[2:] == locs[2:] and after[1] != locs[1]
