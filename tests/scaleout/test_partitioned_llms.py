"""llms.txt of a sharded bucket: made after each commit from the shards' states (no page read
again), the same bytes after a one-page deploy as after a full rebuild, and exactly the URLs
the live sitemaps list."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.scaleout.test_partitioned import config_of, run
from tests.scaleout.test_partitioned import s3 as s3

from s3util import BASE, BUCKET, Requests, live_files
from sitemill.llms._shards import NOT_SHARDED

PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]


def page(title: str, description: str = "") -> bytes:
    meta = f'<meta name="description" content="{description}">' if description else ""
    return (
        f"<!doctype html><html><head><title>{title} | Site</title>{meta}</head>"
        f"<body><main><p>{title} text</p></main></body></html>"
    ).encode()


def upload(s3: Any, path: str, title: str, description: str = "") -> None:
    s3.put_object(Bucket=BUCKET, Key=path, Body=page(title, description), ContentType="text/html")


@pytest.fixture
def site(s3: Any) -> Iterator[Any]:
    for path in PAGES:
        upload(s3, path, path.removesuffix(".html").replace("/", " "), f"About {path}.")
    yield s3


def llms_links(s3: Any) -> list[str]:
    text = s3.get_object(Bucket=BUCKET, Key="llms.txt")["Body"].read().decode()
    return re.findall(r"^- \[[^\]]*\]\(([^)]*)\)", text, re.MULTILINE)


def sitemap_locs(s3: Any) -> set[str]:
    files = live_files(s3)
    return {
        loc.decode()
        for name, data in files.items()
        if name != "sitemap.xml" or b"<urlset" in data
        for loc in re.findall(rb"<url><loc>(.*?)</loc>", data)
    }


def test_llms_txt_lists_exactly_what_the_shards_list(site: Any) -> None:
    config = config_of(max_urls=5, shard_fill=4, llms_txt="true")
    report = run(site, config)
    assert len(report.result.plan.ids) > 1  # (sharded: several shards)
    links = llms_links(site)
    assert sorted(links) == sorted(sitemap_locs(site)) and len(links) == len(PAGES)
    assert "llms.txt" in report.result.written
    text = site.get_object(Bucket=BUCKET, Key="llms.txt")["Body"].read().decode()
    assert f"- [a p1]({BASE}a/p1.html): About a/p1.html." in text.splitlines()


def test_a_one_page_deploy_rewrites_llms_txt_from_the_states_as_a_full_rebuild_would(
    site: Any,
) -> None:
    config = config_of(max_urls=5, shard_fill=4, llms_txt="true")
    run(site, config)
    upload(site, "b/p2.html", "A new title", "New words.")
    requests = Requests(site)
    report = run(site, config, changed=["b/p2.html"])
    assert report.shards_touched == 1
    incremental = site.get_object(Bucket=BUCKET, Key="llms.txt")["Body"].read()
    assert f"- [A new title]({BASE}b/p2.html): New words.".encode() in incremental
    # No page but the one deployed is read again (its head): the others' titles are the states'.
    pages_read = {key for name, key in requests.calls if name == "GetObject" and ".html" in key}
    assert pages_read <= {"b/p2.html"}
    run(site, config)  # a full rebuild of the same plan
    assert site.get_object(Bucket=BUCKET, Key="llms.txt")["Body"].read() == incremental


def test_nothing_changed_writes_no_llms_txt(site: Any) -> None:
    config = config_of(max_urls=5, shard_fill=4, llms_txt="true")
    run(site, config)
    requests = Requests(site)
    report = run(site, config, changed=["a/p0.html"])
    assert "llms.txt" not in report.result.written
    assert not [key for name, key in requests.calls if name == "PutObject" and "llms" in key]


def test_llms_full_is_not_written_for_a_sharded_bucket_and_says_so(site: Any) -> None:
    config = config_of(max_urls=5, shard_fill=4, llms_txt="true", llms_full="true")
    report = run(site, config)
    assert NOT_SHARDED in report.warnings
    keys = {item["Key"] for item in site.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert "llms.txt" in keys and "llms-full.txt" not in keys
