"""A sharded bucket's index dates each child by when its bytes changed (docs/output.md): a
one-page deploy moves exactly one child's date and the index only in that child's line, in a
bucket with one state and with a partitioned one (incremental, a full rebuild after it, and the
distributed rebuild's steps, the state machine's, in this process)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from outputlist import DistributedRun, rebuild_bucket, rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket, put_pages
from sitemill.config.model import Config
from sitemill.jobs import bucketpass
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned, partitioned_prefix
from sitemill.protocol import Precision, format_lastmod
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor
from sitemill.state.partitioned import PartitionedStore
from xsd import assert_xsd_valid

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=3)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def index_lines(s3: Any) -> list[bytes]:
    data = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert_xsd_valid(data)
    return [line for line in data.splitlines() if b"<sitemap>" in line]


def dates(lines: list[bytes]) -> list[str]:
    return [re.findall(rb"<lastmod>(.*?)</lastmod>", line)[0].decode() for line in lines]


def twelve_pages(s3: Any) -> None:
    # Uploaded one by one, 11 minutes apart: b/p3 is the newest page of b/'s shard.
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))


def run_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    """The time the next bucket runs read (once, at their start: jobs.bucketpass)."""

    class Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return moment

    monkeypatch.setattr(bucketpass, "datetime", Clock)


def test_a_one_page_deletion_moves_one_childs_date_in_a_bucket(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    twelve_pages(s3)
    config = make_config(max_urls=5, shard_fill=4)
    run_at(monkeypatch, NOW)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    before = index_lines(s3)
    assert dates(before) == [format_lastmod(NOW, Precision.DATETIME)] * 3  # (the upload)
    s3.delete_object(Bucket=BUCKET, Key="b/p3.html")
    run_at(monkeypatch, LATER)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    after = index_lines(s3)
    moved = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert moved == [1]  # b/'s child: today's rule moved its date back, to b/p2's upload
    assert dates(after)[1] == format_lastmod(LATER, Precision.DATETIME)
    run_at(monkeypatch, LATER + timedelta(days=1))
    again = rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert again.result.written == [] and index_lines(s3) == after


def partitioned(s3: Any, config: Config, now: datetime, changed: list[str] | None) -> Any:
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, changed=changed, now=now)


def test_a_one_page_deletion_moves_one_childs_date_in_a_partitioned_bucket(s3: Any) -> None:
    twelve_pages(s3)
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on",
        max_urls=5,
        shard_fill=4,
    )
    partitioned(s3, config, NOW, None)
    before = index_lines(s3)
    assert dates(before) == [format_lastmod(NOW, Precision.DATETIME)] * 3  # (the upload)
    s3.delete_object(Bucket=BUCKET, Key="b/p3.html")
    report = partitioned(s3, config, LATER, ["b/p3.html"])
    assert report.shards_touched == 1
    after = index_lines(s3)
    moved = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert moved == [1]  # (its name too: a partitioned bucket's child is named by its bytes)
    assert dates(after)[1] == format_lastmod(LATER, Precision.DATETIME)
    # A full rebuild later writes the same bytes: every date stays.
    full = partitioned(s3, config, LATER + timedelta(days=1), None)
    assert full.shards_touched is None and index_lines(s3) == after


def test_a_distributed_full_rebuild_moves_only_the_date_of_the_child_that_changed(
    s3: Any,
) -> None:
    twelve_pages(s3)
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", shards="on", shard_fill=4
    )

    def full(name: str, now: datetime) -> dict[str, Any]:
        store = open_partitioned(config, s3, BucketSite(BUCKET))
        assert store is not None
        run = DistributedRun(config, s3, BucketSite(BUCKET), store, STATE_BUCKET, now)
        return LocalExecutor(run, None).execute(RunRequest(name, BUCKET, "")).verdict

    assert full("full-1", NOW)["status"] == "published"
    before = index_lines(s3)
    s3.delete_object(Bucket=BUCKET, Key="c/p3.html")  # (the newest page of c/'s shard)
    assert full("full-2", LATER)["written"] == 2  # c/'s child and the index
    after = index_lines(s3)
    moved = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert moved == [2] and dates(after) == [*dates(before)[:2], dates(after)[2]]
    assert dates(after)[2] == format_lastmod(LATER, Precision.DATETIME)


def test_each_file_of_a_shard_of_several_keeps_its_own_date(s3: Any) -> None:
    # A family of keys no cut can respect (x.htm … x.html, clean URLs) makes one shard of
    # several files: each keeps the date its own bytes were given, not its neighbour's.
    put_pages(s3, "a.html", "x.htm", *(f"x.htm/p{n}.html" for n in range(12)), "x.html")
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on",
        max_urls=5,
        shard_fill=4,
        url_style="clean",
    )
    partitioned(s3, config, NOW, None)
    before = index_lines(s3)
    assert len(before) >= 3
    s3.delete_object(Bucket=BUCKET, Key="x.htm/p9.html")  # (the shard's last page)
    partitioned(s3, config, LATER, ["x.htm/p9.html"])
    after = index_lines(s3)
    moved = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert moved == [len(before) - 1]
    assert dates(after)[-1] == format_lastmod(LATER, Precision.DATETIME)
    full = partitioned(s3, config, LATER + timedelta(days=1), None)
    assert full.result.written == [] and index_lines(s3) == after
