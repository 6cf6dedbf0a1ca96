"""sitemap.html of a sharded bucket: it lists the whole site, so a deploy is a full rebuild, and
the page goes up once the commit is live; someone's own sitemap.html stops the run before
anything is published."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.scaleout.test_partitioned import config_of, run
from tests.scaleout.test_partitioned import s3 as s3

from s3util import BASE, BUCKET
from sitemill.errors import ConfigError

PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]


def upload(s3: Any, path: str, title: str) -> None:
    body = f"<!doctype html><html><head><title>{title}</title></head><body>x</body></html>"
    s3.put_object(Bucket=BUCKET, Key=path, Body=body.encode(), ContentType="text/html")


@pytest.fixture
def site(s3: Any) -> Iterator[Any]:
    for path in PAGES:
        upload(s3, path, path.removesuffix(".html").replace("/", " "))
    yield s3


def page_links(s3: Any) -> list[str]:
    data = s3.get_object(Bucket=BUCKET, Key="sitemap.html")["Body"].read().decode()
    return sorted(re.findall(r'<a href="([^"]+\.html)"', data))


def test_the_page_lists_every_shards_pages_and_goes_up_after_the_commit(site: Any) -> None:
    config = config_of(max_urls=5, shard_fill=4, html_sitemap=True)
    report = run(site, config)
    assert len(report.result.plan.ids) > 1  # (several shards, one page)
    assert page_links(site) == sorted(BASE + path for path in PAGES)
    assert "sitemap.html" in report.result.written
    head = site.head_object(Bucket=BUCKET, Key="sitemap.html")
    assert head["ContentType"] == "text/html; charset=utf-8"
    # A deploy of one page is a full rebuild (the page lists the whole site), its new title in.
    upload(site, "b/p9.html", "A new page")
    report = run(site, config, changed=["b/p9.html"])
    assert report.shards_touched is None and "sitemap.html" in report.result.written
    assert BASE + "b/p9.html" in page_links(site)
    # Nothing changed: nothing written.
    again = run(site, config)
    assert again.result.written == []


def test_someones_own_sitemap_html_stops_the_run_before_anything_is_published(
    site: Any,
) -> None:
    own = b"<!doctype html><title>My map</title><p>hand-made"
    site.put_object(Bucket=BUCKET, Key="sitemap.html", Body=own, ContentType="text/html")
    config = config_of(max_urls=5, shard_fill=4, html_sitemap=True)
    with pytest.raises(ConfigError, match=r"^html_sitemap: sitemap\.html is there already"):
        run(site, config)
    keys = {item["Key"] for item in site.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert keys == {*PAGES, "sitemap.html"}  # (no child went up, no index)
    assert site.get_object(Bucket=BUCKET, Key="sitemap.html")["Body"].read() == own


def listed_urls(s3: Any) -> list[str]:
    """Every <loc> of every sitemap file in the bucket's root."""
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    found: list[str] = []
    for key in keys:
        if key.startswith("sitemap") and key.endswith(".xml"):
            data = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()
            found += re.findall(r"<loc>([^<]*)</loc>", data)
    return found


def test_while_off_a_users_sitemap_html_is_a_page_and_sitemills_never(site: Any) -> None:
    """Issue 82, the router's way: a deploy of the user's own sitemap.html lists it; sitemill's
    (an earlier run's, synced back) lists nothing, whichever event brings it."""
    made = config_of(max_urls=5, shard_fill=4, html_sitemap=True)
    run(site, made)
    sitemills = site.get_object(Bucket=BUCKET, Key="sitemap.html")["Body"].read()
    config = config_of(max_urls=5, shard_fill=4)
    run(site, config)  # (a full pass, with sitemill's sitemap.html still there)
    assert BASE + "sitemap.html" not in listed_urls(site)
    site.put_object(Bucket=BUCKET, Key="sitemap.html", Body=sitemills, ContentType="text/html")
    run(site, config, changed=["sitemap.html"])
    assert BASE + "sitemap.html" not in listed_urls(site)
    upload(site, "sitemap.html", "Our own map")
    run(site, config, changed=["sitemap.html"])
    assert BASE + "sitemap.html" in listed_urls(site)
