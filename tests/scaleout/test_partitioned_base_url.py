"""A partitioned state (a sharded bucket, docs/s3-lambda.md) keeps the base URL in its manifest:
a run at another one says once that every URL moved, and keeps the dates (moto)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from outputlist import RebuildOptions, diff_bucket, rebuild_bucket, rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket, put_pages
from sitemill.config.model import Config
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.report import Report
from sitemill.state.s3 import S3StateStore

STATE_BUCKET = "sitemill-state-bucket"
MANIFEST = "site/sitemill-state/index-state.json"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
MOVED = "every URL moved from https://example.com/ to https://example.com/project/"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of(**values: Any) -> Config:
    state = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
    return make_config(state=state, shards="on", max_urls=5, shard_fill=4, **values)


def run(s3: Any, config: Config) -> Report:
    store = open_partitioned(config, s3, BucketSite(BUCKET))
    assert store is not None
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=NOW)


def dates(s3: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]:
        if re.fullmatch(r"sitemap-r.*\.xml", item["Key"]):
            text = s3.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read().decode()
            pairs = re.findall(
                r"<loc>https://example.com/(?:project/)?(.*?)</loc>"
                r"<lastmod>(.*?)</lastmod>",
                text,
            )
            found.update(pairs)
    return found


def test_the_manifest_keeps_the_base_url_and_a_move_is_said_once(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    first = run(s3, config_of())
    assert not [line for line in first.warnings if "every URL moved" in line]
    manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read())
    assert manifest["base_url"] == "https://example.com/"
    before = dates(s3)
    assert len(before) == 12
    moved = run(s3, config_of(base_url="https://example.com/project/"))
    assert [line for line in moved.warnings if "every URL moved" in line] == [
        f"{MOVED}: the base URL is not the last run's (dates are kept; IndexNow announces no "
        "page for the move); if the move was not meant, check --base-url (base_url)"
    ]
    assert dates(s3) == before
    manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read())
    assert manifest["base_url"] == "https://example.com/project/"
    again = run(s3, config_of(base_url="https://example.com/project/"))
    assert not [line for line in again.warnings if "every URL moved" in line]


def test_a_move_since_the_one_state_of_earlier_runs_is_said_once(s3: Any) -> None:
    """A first partitioned run starts from the one state object of earlier runs: a move of the
    base URL since that state is said once, by a dry rebuild and by the diff alike."""
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of()
    assert config.state is not None
    legacy = S3StateStore(s3, STATE_BUCKET, config.state.removeprefix(f"s3://{STATE_BUCKET}/"))
    rebuild_bucket(config, s3, BucketSite(BUCKET), state_store=legacy)
    moved = config_of(base_url="https://example.com/project/")
    store = open_partitioned(moved, s3, BucketSite(BUCKET))
    assert store is not None
    dry = rebuild_partitioned(
        moved, s3, BucketSite(BUCKET), store, now=NOW, options=RebuildOptions(dry_run=True)
    )
    assert [line for line in dry.warnings if "every URL moved" in line] == [
        f"{MOVED}: the base URL is not the last run's (dates are kept; IndexNow announces no "
        "page for the move); if the move was not meant, check --base-url (base_url)"
    ]
    found = diff_bucket(moved, s3, BucketSite(BUCKET))
    assert [line for line in found.report.warnings if "every URL moved" in line] == [
        f"{MOVED}: the base URL is not the last run's (dates are kept; IndexNow announces no "
        "page for the move); if the move was not meant, check --base-url (base_url)"
    ]
