"""A sharded layout's worker judges its deploy's edits as a rebuild does, per shard
(lastmod.deploys): one edit on most of the shard's changed pages moves none of their dates;
a page whose own edit stands beside it is dated by the deploy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket
from sitemill.config.model import Config
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.state.partitioned import PartitionedStore

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
T1 = datetime(2026, 3, 1, 12, 0)
T2 = datetime(2026, 6, 2, 8, 30)
URL = re.compile(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>")


def page(n: int, version: str, own: str = "") -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>Entry {n}</title></head><body><nav>Menu</nav>"
        f"<main><h1>Entry {n}</h1><p>Entry {n} says {n * 7} things.{own}</p>"
        f"<p>Release {version}</p></main></body></html>"
    ).encode()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of() -> Config:
    state = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
    return make_config(state=state, shards="on", max_urls=25, shard_fill=20)


def run(s3: Any, config: Config, changed: list[str] | None = None) -> Any:
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, changed=changed, now=NOW)


def upload(s3: Any, files: dict[str, bytes], when: datetime, step: timedelta) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for index, (key, body) in enumerate(files.items()):
        s3.put_object(Bucket=BUCKET, Key=key, Body=body)
        backend.get_object(BUCKET, key).last_modified = when + index * step


def lastmods(s3: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for item in s3.list_objects_v2(Bucket=BUCKET, Prefix="sitemap")["Contents"]:
        text = s3.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read().decode()
        found.update(URL.findall(text))
    return {path: lastmod for path, lastmod in found.items() if path.endswith(".html")}


def test_a_shards_worker_keeps_the_dates_of_a_template_edit(s3: Any) -> None:
    keys = [f"e/p{n:02d}.html" for n in range(40)]
    upload(s3, {key: page(n, "4.0") for n, key in enumerate(keys)}, T1, timedelta(days=1))
    config = config_of()
    report = run(s3, config)
    assert len(report.result.files) == 3  # (two children and the index)
    before = lastmods(s3)
    edited = {key: page(n, "4.1") for n, key in enumerate(keys[:10])}
    edited[keys[3]] = page(3, "4.1", own=" And one more.")
    upload(s3, edited, T2, timedelta(seconds=1))
    report = run(s3, config, changed=list(edited))
    assert report.dates == {"kept": 19, "content changed": 1}  # (the shard's twenty)
    assert lastmods(s3) == {**before, keys[3]: "2026-06-02T08:30:03+00:00"}
