"""A sharded bucket keeps the URLs its last run removed in its manifest (the private state
location), for `sitemill check`, by the rules of a one-state bucket's State.removed: only URLs
no longer served, kept across runs that remove nothing, dropped when listed again, written by
the run's one conditional commit and never lost to a fault at any call."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from faults import Calls, fail, one_request_at_a_time, precondition_failed
from outputlist import DistributedRun, RebuildOptions, rebuild_partitioned
from s3util import BASE, BUCKET, Objects, make_config, objects_of, put_back, words_page
from sitemill.errors import SitemillError
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.report import Report
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor
from sitemill.state.partitioned import MAX_REMOVED_CHARS, keep_removed
from sitemill.state.removedurls import RemovedUrl

STATE_BUCKET = "state-bucket"
MANIFEST = "site/sitemill-state/index-state.json"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
CONFIG = make_config(
    state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
    shards="on",
    max_urls=5,
    shard_fill=4,
)


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    one_request_at_a_time(monkeypatch)
    yield


def run(s3: Any, changed: list[str] | None = None) -> Report:
    store = open_partitioned(CONFIG, s3, BucketSite(BUCKET))
    assert store is not None
    site = BucketSite(BUCKET)
    options = RebuildOptions(threads=2)
    return rebuild_partitioned(CONFIG, s3, site, store, changed=changed, now=NOW, options=options)


def put(s3: Any, key: str, body: bytes | None = None, **more: Any) -> None:
    body = words_page(f"the page {key} says its own words") if body is None else body
    s3.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html", **more)


_PUBLISHED: list[Objects] = []  # the world once published (objects_of both buckets)


@contextmanager
def world() -> Iterator[Any]:
    """A bucket of 12 pages in three shards, published once (by the first world; each next
    one is its copy, object for object, without the S3 calls of the uploads and the run)."""
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket=BUCKET)
        s3.create_bucket(Bucket=STATE_BUCKET)
        if _PUBLISHED:
            put_back(_PUBLISHED[0], BUCKET, STATE_BUCKET)
        else:
            for key in PAGES:
                put(s3, key)
            run(s3)
            _PUBLISHED.append(objects_of(BUCKET, STATE_BUCKET))
        yield s3


def kept(s3: Any) -> dict[str, Any]:
    """The removed URLs the committed manifest keeps (absent: none)."""
    data = s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read()
    removed: dict[str, Any] = json.loads(data).get("removed", {})
    return removed


def public(s3: Any) -> list[str]:
    return [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])]


GONE = {"verdict": "gone"}


@pytest.mark.parametrize("deploy", [True, False], ids=["router", "full rebuild"])
def test_the_manifest_keeps_what_the_last_run_that_removed_any_removed(deploy: bool) -> None:
    def changed(*keys: str) -> list[str] | None:
        return list(keys) if deploy else None

    with world() as s3:
        assert kept(s3) == {}  # (a first run removes nothing: no field)
        s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
        put(s3, "a/p2.html", b"", WebsiteRedirectLocation="/b/p0.html")  # (a touched shard's)
        report = run(s3, changed("b/p1.html", "a/p2.html"))
        assert report.diff is not None and len(report.diff.removed) == 2
        redirected = {"verdict": "redirected", "target": f"{BASE}b/p0.html"}
        assert kept(s3) == {f"{BASE}a/p2.html": redirected, f"{BASE}b/p1.html": GONE}
        assert not any("removed" in key for key in public(s3))  # (private: the state bucket)
        # A run that removes nothing keeps the list.
        put(s3, "c/p1.html", words_page("other words for c/p1 now"))
        put(s3, "c/p9.html")
        report = run(s3, changed("c/p1.html", "c/p9.html"))
        assert report.diff is not None and not report.diff.removed
        assert kept(s3) == {f"{BASE}a/p2.html": redirected, f"{BASE}b/p1.html": GONE}
        # A URL listed again is dropped.
        put(s3, "b/p1.html")
        run(s3, changed("b/p1.html"))
        assert kept(s3) == {f"{BASE}a/p2.html": redirected}
        # A run that removes others replaces the list.
        s3.delete_object(Bucket=BUCKET, Key="c/p3.html")
        run(s3, changed("c/p3.html"))
        assert kept(s3) == {f"{BASE}c/p3.html": GONE}


def test_a_distributed_run_keeps_the_list_of_the_run_before() -> None:
    with world() as s3:
        s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
        run(s3, ["b/p1.html"])
        store = open_partitioned(CONFIG, s3, BucketSite(BUCKET))
        assert store is not None
        execution = DistributedRun(CONFIG, s3, BucketSite(BUCKET), store, STATE_BUCKET, NOW)
        LocalExecutor(execution, None, threads=2).execute(RunRequest("full-1", BUCKET, ""))
        assert json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read())
        assert kept(s3) == {f"{BASE}b/p1.html": GONE}


def deleting(s3: Any) -> object:
    return run(s3, ["b/p1.html"])


@pytest.mark.parametrize("fault", [fail, precondition_failed], ids=["failure", "412"])
def test_a_fault_at_any_call_of_a_deploy_that_deletes_loses_nothing(fault: Any) -> None:
    with world() as s3:
        s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
        calls = Calls(s3)
        deleting(s3)
        signatures = calls.stop()
    if fault is precondition_failed:  # (a refusal of a conditional write: a PUT's)
        signatures = [call for call in signatures if call[0] == "PutObject"]
    assert ("PutObject", STATE_BUCKET, MANIFEST) in signatures
    for call in signatures:
        with world() as s3:
            s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
            calls = Calls(s3)
            calls.arm(call, fault)
            with suppress(SitemillError):
                deleting(s3)
            calls.assert_fired()
            assert kept(s3) in ({}, {f"{BASE}b/p1.html": GONE}), call  # (before or after)
            deleting(s3)  # done again (SQS redelivers a failed batch)
            assert kept(s3) == {f"{BASE}b/p1.html": GONE}, call
            run(s3)  # and a full rebuild after it, which removes nothing, keeps it
            assert kept(s3) == {f"{BASE}b/p1.html": GONE}, call


@pytest.mark.parametrize("full", [False, True], ids=["another router", "a full rebuild"])
def test_a_second_writer_at_any_call_of_a_deploy_that_deletes_loses_nothing(full: bool) -> None:
    """Another run commits right before each call: ours is redone from its manifest (or
    starts from ours), and the deleted page is named either way."""
    with world() as s3:
        s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
        calls = Calls(s3)
        deleting(s3)
        signatures = calls.stop()
    for call in signatures:
        with world() as s3:
            s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
            other = boto3.client("s3", region_name="us-east-1")

            def write(other: Any = other) -> None:
                put(other, "c/p1.html", words_page("other words for c/p1 now"))
                run(other, None if full else ["c/p1.html"])

            calls = Calls(s3)
            calls.arm(call, write)
            deleting(s3)
            calls.assert_fired()
            assert kept(s3) == {f"{BASE}b/p1.html": GONE}, call


def test_a_manifest_s_list_is_read_checked_and_kept_bounded() -> None:
    with world() as s3:
        s3.delete_object(Bucket=BUCKET, Key="b/p1.html")
        run(s3, ["b/p1.html"])
        document = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=MANIFEST)["Body"].read())
        document["removed"] |= {
            "javascript:alert(1)": GONE,
            f"{BASE}x.html": {"verdict": "moved"},
            f"{BASE}y.html": {"verdict": "renamed", "target": "ftp://example.com/"},
        }
        body = json.dumps(document, sort_keys=True, separators=(",", ":")) + "\n"
        s3.put_object(Bucket=STATE_BUCKET, Key=MANIFEST, Body=body.encode())
        store = open_partitioned(CONFIG, s3, BucketSite(BUCKET))
        assert store is not None
        store.read_manifest()
        assert store.trusted  # (a bad entry is dropped; the manifest is no less trusted)
        assert store.removed == {f"{BASE}b/p1.html": RemovedUrl("gone")}
        put(s3, "c/p1.html", words_page("other words for c/p1 now"))
        run(s3, ["c/p1.html"])  # (removes nothing: keeps the checked list)
        assert kept(s3) == {f"{BASE}b/p1.html": GONE}
    long = {f"{BASE}{n:05}/" + "x" * 1_900: RemovedUrl("gone") for n in range(1_000)}
    bounded = keep_removed(long)
    assert 0 < len(bounded) < len(long)
    assert list(bounded) == sorted(long)[: len(bounded)]
    assert sum(len(url) for url in bounded) <= MAX_REMOVED_CHARS
