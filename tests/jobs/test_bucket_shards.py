"""A bucket's sitemaps as shards: the plan kept in the state, a new page rewrites its shard's
child and the index only (counted PUTs). (A fault mid-split: tests/sinks/test_s3_sink.py.)"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from outputlist import rebuild_bucket
from s3util import BUCKET, Requests, make_config, moto_bucket, put_pages
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.report import requests_line, shards_line
from xsd import assert_xsd_valid

SHARD = re.compile(r"sitemap-r[a-z2-7]{8}\.xml")


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_new_page_rewrites_its_shard_and_the_index(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = make_config(max_urls=5, shard_fill=4)
    first = rebuild_bucket(config, s3, BucketSite(BUCKET))
    index, *children = first.result.files
    assert index == "sitemap.xml" and len(children) == 3
    assert all(SHARD.fullmatch(name) for name in children)
    state = json.loads(gzip.decompress(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()))
    assert state["shards"]["order"] == "keys" and len(state["shards"]["afters"]) == 3
    for name in children:
        assert_xsd_valid(s3.get_object(Bucket=BUCKET, Key=name)["Body"].read())

    put_pages(s3, "b/p10.html")  # falls in b/'s shard, which still fits one file
    requests = Requests(s3)
    second = rebuild_bucket(config, s3, BucketSite(BUCKET))
    puts = sorted(key for name, key in requests.calls if name == "PutObject")
    plan = first.result.plan
    assert plan is not None
    landed = f"sitemap-{plan.ids[plan.shard_of('b/p10.html')]}.xml"
    # (the index changes only if the new page's second is later than its shard's newest)
    assert landed in puts and set(puts) <= {landed, "sitemap.xml", STATE_NAME}
    # The report counts requests by kind, as the hook above saw them.
    kinds = {"ListObjectsV2": "LIST", "GetObject": "GET", "PutObject": "PUT"}
    assert second.requests == Counter(kinds[name] for name, _ in requests.calls)
    assert requests_line(second).startswith("requests: LIST 1, GET ")
    assert shards_line(second) == "shards: 3, 1 child rewritten"
    assert second.result.files == first.result.files
