"""Named groups in a bucket (docs/output.md, Named groups): a group sharded within the site's one
plan; a new page rewrites its group's child in its shard and the index only (counted PUTs); a
second run PUTs nothing; a removed group's children are deleted, a user's look-alike stays."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from outputlist import rebuild_bucket
from s3util import BASE, BUCKET, Requests, moto_bucket, put_pages, upload
from sitemill.config.model import Config, load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report
from xsd import assert_xsd_valid

SHARD = re.compile(r"sitemap-r[a-z2-7]{8}\.xml")
BLOG_SHARD = re.compile(r"sitemap-blog-r[a-z2-7]{8}\.xml")
BLOG = {"name": "blog", "include": ["blog/**"]}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def config_of(*groups: dict[str, Any], **values: Any) -> Config:
    return load_config({"base_url": BASE, **values}, {}, {"groups": list(groups)})


def run(s3: Any, config: Config) -> Report:
    return rebuild_bucket(config, s3, BucketSite(BUCKET))


def children(s3: Any) -> list[str]:
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return re.findall(r"<loc>https://example\.com/(sitemap-[^<]+)</loc>", index)


def test_a_group_in_a_bucket_is_sharded_and_a_page_rewrites_its_one_child(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in ("a", "blog", "c") for n in range(5)))
    config = config_of(BLOG, shards="on", shard_fill=4)
    first = run(s3, config)
    names = children(s3)
    defaults = [name for name in names if SHARD.fullmatch(name)]
    blog = [name for name in names if BLOG_SHARD.fullmatch(name)]
    assert names == defaults + blog and len(blog) >= 2
    for name in names:
        assert_xsd_valid(s3.get_object(Bucket=BUCKET, Key=name)["Body"].read())
    plan = first.result.plan
    assert plan is not None

    put_pages(s3, "blog/p2a.html")  # in one of the blog's shards
    requests = Requests(s3)
    second = run(s3, config)
    puts = sorted(key for name, key in requests.calls if name == "PutObject")
    landed = f"sitemap-blog-{plan.ids[plan.shard_of('blog/p2a.html')]}.xml"
    assert landed in blog and set(puts) <= {landed, "sitemap.xml", STATE_NAME}
    assert landed in puts
    assert second.result.files == first.result.files

    requests = Requests(s3)
    third = run(s3, config)
    assert requests.count("PutObject") == 0 and requests.count("DeleteObject") == 0
    assert third.result.written == []


def test_a_removed_groups_children_go_and_a_users_look_alike_stays(s3: Any) -> None:
    put_pages(s3, "index.html", "blog/a.html", "blog/b.html")
    upload(s3, {"sitemap-news.xml": b"<urlset>the user's</urlset>"})
    run(s3, config_of(BLOG, {"name": "news", "include": ["news/**"]}))
    assert children(s3) == ["sitemap-1.xml", "sitemap-blog.xml"]  # (news holds no page)
    report = run(s3, config_of())
    assert report.result.deleted == ["sitemap-1.xml", "sitemap-blog.xml"]
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert "sitemap-blog.xml" not in keys and "sitemap-news.xml" in keys
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-news.xml")["Body"].read() == (
        b"<urlset>the user's</urlset>"
    )
