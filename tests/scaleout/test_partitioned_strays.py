"""A manifest is a claim, not a proof (issue 78): in a bucket with a partitioned state, a child no
manifest names goes only when the name its content gives proves it a failed run's
(sitemill.writing.ownbytes); a user's file in a child's shape, whether the sweep finds it or a
tampered manifest names it, stays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket, put_pages, upload
from sitemill.config.model import Config
from sitemill.filenames.outputs import stored_digest
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.report import Report
from sitemill.shards.manifest import DELETE_AFTER, child_version
from sitemill.state.partitioned import PartitionedStore

STATE_BUCKET = "state-bucket"
MANIFEST = "site/sitemill-state/index-state.json"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
URLSET = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>https://example.com/shop/%d.html</loc></url></urlset>\n"
)
# The user's sitemaps in the shapes of sitemill's children: a default child's, a partitioned
# bucket's versioned shard file's (its version is not the one its bytes give).
USERS = {name: URLSET % n for n, name in enumerate(("sitemap-2.xml", "sitemap-3.xml.gz"))} | {
    "sitemap-rabcdefgh-abcdefgh.xml": URLSET % 9,
}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of() -> Config:
    return make_config(state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", shards="on")


def run(s3: Any, config: Config, now: datetime) -> Report:
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=now)


def test_only_a_stray_whose_name_its_bytes_give_goes_and_a_manifests_word_deletes_nothing(
    s3: Any,
) -> None:
    put_pages(s3, "a/p0.html", "a/p1.html", "b/p0.html")
    config = config_of()
    run(s3, config, NOW)
    leftover = URLSET % 5  # (a failed run's: under the name its content gives)
    failed = child_version("sitemap-rabcdefgh.xml", stored_digest(leftover), ())
    upload(s3, {**USERS, failed: leftover})
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]  # (old: never a young run's file)
    for name in (*USERS, failed):
        backend.get_object(BUCKET, name).last_modified = datetime(2024, 1, 1)
    # A tampered manifest: the user's sitemap-3.xml.gz unnamed long ago, due at the next commit.
    manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read())
    manifest["unnamed"] = {"sitemap-3.xml.gz": "2026-11-23T11:00:00+00:00"}
    s3.put_object(Bucket=STATE_BUCKET, Key=MANIFEST, Body=json.dumps(manifest).encode())
    first = run(s3, config, NOW + timedelta(seconds=1))  # (the strays: unnamed from now)
    later = run(s3, config, NOW + DELETE_AFTER + timedelta(seconds=2))
    assert [*first.result.deleted, *later.result.deleted] == [failed]
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert failed not in keys
    for name, data in USERS.items():
        assert s3.get_object(Bucket=BUCKET, Key=name)["Body"].read() == data, name
