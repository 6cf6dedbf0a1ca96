"""Whether a full rebuild fits the router's function (sitemill.scaleout.partitioned): the count of a
site without a plan stops as soon as the answer is known, so a huge bucket is never listed
whole before the rebuild is handed to the state machine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from s3util import BUCKET, PAGE, Requests, make_config, moto_bucket
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout.partitioned import too_big
from sitemill.shards.plan import Plan

SITE = BucketSite(BUCKET, "site/")


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def put(keys: list[str]) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for key in keys:
        backend.put_object(BUCKET, key, PAGE)


def test_a_site_of_at_most_k_shards_worth_of_pages_fits(s3: Any) -> None:
    # 40 pages (2 shards of 20) and what is no page: images, robots.txt, 404.html, the
    # site's sitemaps, pages outside the prefix.
    put([f"site/d{n % 4}/p{n:03d}.html" for n in range(40)])
    put(["site/img/a.png", "site/robots.txt", "site/404.html", "site/sitemap.xml", "other/x.html"])
    assert too_big(make_config(shard_fill=20), s3, SITE, None, 2) is None


def test_one_page_past_the_bound_hands_over_and_the_listing_stops_there(s3: Any) -> None:
    put([f"site/p{n:04d}.html" for n in range(2500)])
    requests = Requests(s3)
    why = too_big(make_config(shard_fill=500), s3, SITE, None, 2)
    assert why == "no plan yet, and more than 1,000 pages (2 shards of 500 the function takes)"
    # 1,001 pages are in the first two LISTs of 1,000 keys: the other 1,500 keys unread.
    assert [name for name, _ in requests.calls] == ["ListObjectsV2", "ListObjectsV2"]


def test_a_bucket_of_few_pages_among_many_objects_hands_over_after_a_bounded_listing(
    s3: Any,
) -> None:
    put([f"site/img/i{n:04d}.png" for n in range(3000)] + ["site/zz.html"])
    requests = Requests(s3)
    why = too_big(make_config(shard_fill=500), s3, SITE, None, 2)
    assert why == "no plan yet, and more than 2,000 objects under the prefix"
    assert len(requests.calls) == 3  # never the fourth LIST


def test_with_a_plan_its_shard_count_decides_without_a_listing(s3: Any) -> None:
    put([f"site/p{n:04d}.html" for n in range(10)])
    requests = Requests(s3)
    config = make_config(shard_fill=1)
    three = Plan(("", "p0003.html", "p0006.html"))
    assert too_big(config, s3, SITE, three, 3) is None
    assert too_big(config, s3, SITE, three, 2) == "3 shards, more than 2"
    assert requests.calls == []
