"""A bucket with a partitioned state (the stack's) names the user's sitemaps in its index as a
bucket with one state does (docs/output.md, "The user's own sitemaps"): those of `sitemaps` and
those a replaced Astro index named, after sitemill's own children, without a <lastmod>; its
manifest remembers them, so that a page deploy names them again and moves nothing else; robots.txt
names only those the index may not (another host). The in-process runs and the distributed
rebuild's steps alike."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from test_partitioned import NOW, SHARD, STATE_BUCKET, config_of, run, store_of

from outputlist import DistributedRun, rebuild_partitioned
from s3util import BASE, BUCKET, USER_SITEMAP, astro_site, moto_bucket, put_pages
from sitemill.config.model import Config
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor
from xsd import assert_xsd_valid

SHOP = "https://shop.example.net/sitemap.xml"
NAMED = ["blog-sitemap.xml", SHOP]


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def read(s3: Any, key: str) -> bytes:
    return bytes(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read())


def index_locs(s3: Any) -> list[str]:
    data = read(s3, "sitemap.xml")
    assert_xsd_valid(data)
    assert b"<sitemapindex" in data
    return re.findall(r"<loc>(.*?)</loc>", data.decode())


def index_lines(s3: Any) -> list[bytes]:
    return [line for line in read(s3, "sitemap.xml").splitlines() if b"<sitemap>" in line]


def later(s3: Any, config: Config, changed: list[str], days: int) -> Any:
    """An incremental run (a deploy of ``changed``) ``days`` after the first."""
    site, now = BucketSite(BUCKET), NOW + timedelta(days=days)
    return rebuild_partitioned(config, s3, site, store_of(s3, config), changed=changed, now=now)


def own(loc: str) -> bool:
    return SHARD.fullmatch(loc.removeprefix(BASE)) is not None


@pytest.mark.parametrize("shards", ["auto", "on"])
def test_the_index_names_sitemaps_after_its_own_and_robots_txt_the_other_host(
    s3: Any, shards: str
) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "ab" for n in range(3)))
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USER_SITEMAP)
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"User-agent: *\nDisallow:\n")
    config = config_of(shards=shards, shard_fill=3, robots_txt=True, sitemaps=NAMED)
    report = run(s3, config)
    locs = index_locs(s3)
    assert locs[-1] == f"{BASE}blog-sitemap.xml" and all(map(own, locs[:-1])), locs
    assert len(locs) == 3  # (with any named, "auto" shards as "on": the index is one)
    user_line = index_lines(s3)[-1]
    assert b"blog-sitemap.xml" in user_line and b"<lastmod>" not in user_line
    robots = read(s3, "robots.txt").decode()
    ours = f"Sitemap: {BASE}sitemap.xml\nSitemap: {SHOP} # named by sitemill\n"
    assert robots == f"User-agent: *\nDisallow:\n{ours}"
    assert read(s3, "blog-sitemap.xml") == USER_SITEMAP
    assert not [line for line in report.warnings if line.startswith("sitemaps:")]
    again = run(s3, config)  # a full rebuild again: nothing new, nothing written
    assert (again.result.written, again.result.deleted) == ([], [])


def test_a_page_deploy_names_them_again_and_moves_only_its_childs_line(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(3)))
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USER_SITEMAP)
    config = config_of(shard_fill=3, sitemaps=["blog-sitemap.xml"])
    run(s3, config)
    before = index_lines(s3)
    put_pages(s3, "b/p9.html")
    report = later(s3, config, ["b/p9.html"], 1)
    assert report.shards_touched == 1
    after = index_lines(s3)
    moved = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert moved == [2] and after[-1] == before[-1] and b"blog-sitemap.xml" in after[-1]
    assert sorted(report.result.written)[-1] == "sitemap.xml" and len(report.result.written) == 2
    again = later(s3, config, ["b/p9.html"], 2)
    assert again.result.written == [] and index_lines(s3) == after


def test_without_robots_txt_the_line_to_add_is_said_for_another_hosts_alone(s3: Any) -> None:
    put_pages(s3, "a/p.html")
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USER_SITEMAP)
    report = run(s3, config_of(sitemaps=NAMED))
    said = [line for line in report.warnings if line.startswith("sitemaps:")]
    assert said == [
        f"sitemaps: {SHOP} is on another host or above the folder of sitemill's index, which "
        f"may not name it: add `Sitemap: {SHOP}` to the host's robots.txt (or set robots_txt = "
        "true)"
    ]
    assert index_locs(s3)[-1] == f"{BASE}blog-sitemap.xml"


def test_a_replaced_astro_index_names_them_run_after_run_until_one_is_deleted(
    s3: Any,
) -> None:
    put_pages(s3, "a/p.html", "b/p.html")
    astro_site(s3)
    config = config_of(shards="auto")
    run(s3, config)
    users = [f"{BASE}blog-sitemap.xml", f"{BASE}docs/sitemap.xml"]
    locs = index_locs(s3)
    assert locs[1:] == users and own(locs[0])
    s3.delete_object(Bucket=BUCKET, Key="sitemap-index.xml")  # the manifest remembers them
    assert run(s3, config).result.written == [] and index_locs(s3) == locs
    s3.delete_object(Bucket=BUCKET, Key="docs/sitemap.xml")
    report = later(s3, config, ["docs/sitemap.xml"], 1)
    assert report.result.written == ["sitemap.xml"]
    assert index_locs(s3) == locs[:2]
    assert read(s3, "blog-sitemap.xml") == USER_SITEMAP


def distributed(s3: Any, config: Config, name: str) -> dict[str, Any]:
    store = open_partitioned(config, s3, BucketSite(BUCKET))
    assert store is not None
    job = DistributedRun(config, s3, BucketSite(BUCKET), store, STATE_BUCKET, NOW)
    return LocalExecutor(job, None).execute(RunRequest(name, BUCKET, "")).verdict


@pytest.mark.parametrize("shards", ["auto", "on"])
def test_the_distributed_rebuild_names_them_too(s3: Any, shards: str) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "ab" for n in range(3)))
    astro_site(s3)
    config = config_of(shards=shards, shard_fill=3, sitemaps=["extra/sitemap.xml"])
    s3.put_object(Bucket=BUCKET, Key="extra/sitemap.xml", Body=USER_SITEMAP)
    assert distributed(s3, config, "full-1")["status"] == "published"
    users = [f"{BASE}blog-sitemap.xml", f"{BASE}docs/sitemap.xml", f"{BASE}extra/sitemap.xml"]
    locs = index_locs(s3)
    assert locs[-3:] == users and all(map(own, locs[:-3])) and locs[:-3], locs
    again = distributed(s3, config, "full-2")
    assert (again["status"], again["written"]) == ("published", 0), again
    assert index_locs(s3) == locs


@pytest.mark.parametrize("distribute", [False, True])
def test_a_robots_line_sitemill_wrote_goes_when_taken_out_the_users_stays(
    s3: Any, distribute: bool
) -> None:
    """The manifest records the robots.txt lines sitemill wrote for the user's sitemaps: one
    taken out of `sitemaps` goes; the user's own line, naming one of `sitemaps` too, stays where
    it was and is not written twice."""
    put_pages(s3, "a/p.html", "b/p.html")
    user = "https://other.example.net/user.xml"
    rules = f"User-agent: *\nSitemap: {user}\nDisallow:\n"
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=rules.encode())
    runs = iter(range(1, 4))

    def rebuild(config: Config) -> None:
        if distribute:
            assert distributed(s3, config, f"full-{next(runs)}")["status"] == "published"
        else:
            run(s3, config)

    rebuild(config_of(shards="auto", robots_txt=True, sitemaps=[SHOP, user]))
    ours = f"Sitemap: {BASE}sitemap.xml\n"
    assert read(s3, "robots.txt").decode() == f"{rules}{ours}Sitemap: {SHOP} # named by sitemill\n"
    config = config_of(shards="auto", robots_txt=True)
    rebuild(config)
    assert read(s3, "robots.txt").decode() == rules + ours
    rebuild(config)
    assert read(s3, "robots.txt").decode() == rules + ours
