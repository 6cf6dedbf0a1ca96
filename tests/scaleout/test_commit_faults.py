"""Nothing is lost at any fault or race (issue 39): a run of a sharded bucket commits by one
conditional write of its manifest (docs/distributed.md, "How a run commits").

For a router's deploy that splits a shard, a full rebuild and a distributed run's reducer:
every S3 call the run makes is found by a dry pass; then, one world per call, a fault is
injected at it (or a second writer runs right before it). The live sitemap must be one
whole build at every moment that can be observed (every child it names exists, each URL
once), and after the run is done again (SQS redelivers a failed batch) the sitemaps must be
those of a full rebuild with the same plan, byte for byte, listing every page with the date
an independent reading of the bucket gives.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

import s3util
from consistency import assert_one_build, live_urls
from faults import Calls, Signature, fail, one_request_at_a_time, precondition_failed
from outputlist import DistributedRun, RebuildOptions, rebuild_partitioned
from s3util import BASE, BUCKET, PAGE, Objects, make_config, objects_of, put_back
from sitemill.config.model import Config, load_config
from sitemill.errors import IncompleteRunError, SitemillError
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.report import Report
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
UPLOADED = datetime(2024, 1, 1, 12, 0)  # (moto's times: naive UTC)
_UPLOADS = count()
PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
SPLIT = ["b/p10.html", "b/p11.html", "b/p12.html"]  # shard b outgrows max_urls: a split
OTHER = ["b/p20.html", "c/p20.html"]  # a second writer's deploy, one page in the same shard
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


def client() -> Any:
    return boto3.client("s3", region_name="us-east-1")


def run(s3: Any, changed: list[str] | None = None, config: Config | None = None) -> Report:
    config = config or CONFIG  # (read at the call: a test may set the module's CONFIG)
    store = open_partitioned(config, s3, BucketSite(BUCKET))
    assert store is not None
    site = BucketSite(BUCKET)
    options = RebuildOptions(threads=2)
    return rebuild_partitioned(config, s3, site, store, changed=changed, now=NOW, options=options)


def distributed(s3: Any, name: str) -> Any:
    store = open_partitioned(CONFIG, s3, BucketSite(BUCKET))
    assert store is not None
    execution = DistributedRun(CONFIG, s3, BucketSite(BUCKET), store, STATE_BUCKET, NOW)
    return LocalExecutor(execution, None, threads=2).execute(RunRequest(name, BUCKET, ""))


def put(s3: Any, *keys: str) -> None:
    """Upload each page 11 minutes after the one before (one by one: a first run dates each by
    its LastModified; one sync's minutes would date none, docs/lastmod.md)."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for key in keys:
        s3.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
        later = timedelta(minutes=11 * next(_UPLOADS))
        backend.get_object(BUCKET, key).last_modified = UPLOADED + later


USERS = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/shop/</loc></url></urlset>
"""


# The published world of each configuration (objects_of both buckets after its first run).
_PUBLISHED: list[tuple[Config, Objects]] = []


@contextmanager
def world() -> Iterator[Any]:
    """A bucket of 12 pages in three shards, published once: built and published by the first
    world of a configuration, and copied object for object into each next one (the same
    bucket, without the moto calls of 12 uploads and a first run: most of a world's cost)."""
    with mock_aws():
        s3 = client()
        s3.create_bucket(Bucket=BUCKET)
        s3.create_bucket(Bucket=STATE_BUCKET)
        published = next((objects for config, objects in _PUBLISHED if config is CONFIG), None)
        if published is None:
            put(s3, *PAGES)
            if CONFIG.sitemaps:  # (the user's sitemap, there before sitemill's first run)
                s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USERS)
            run(s3)
            _PUBLISHED.append((CONFIG, objects_of(BUCKET, STATE_BUCKET)))
        else:
            put_back(published, BUCKET, STATE_BUCKET)
        yield s3


# The split world of each configuration: its objects and the URLs live before the split.
_SPLIT: list[tuple[Config, Objects, list[str]]] = []


@contextmanager
def split_world() -> Iterator[tuple[Any, list[str]]]:
    """A world where the split's pages were uploaded (not yet built), and the URLs live
    before: uploaded in the first split world of a configuration, copied into each next one
    (each fault's world starts from the same bucket, without the moto calls of the uploads)."""
    with world() as s3:
        kept = next(((objects, before) for config, objects, before in _SPLIT
                     if config is CONFIG), None)  # fmt: skip
        if kept is None:
            before = live_urls(reader(s3))
            split(s3)
            _SPLIT.append((CONFIG, objects_of(BUCKET, STATE_BUCKET), before))
        else:
            objects, before = kept
            put_back(objects, BUCKET, STATE_BUCKET)
        yield s3, list(before)


def reader(s3: Any) -> Callable[[str], bytes | None]:
    """What a GET of each name in the site's bucket gives now: read from moto's backend, the
    store every client's calls reach (the oracle's reads cost no S3 call through botocore;
    ``s3``, the world's client, is that world's)."""

    def read(name: str) -> bytes | None:
        stored = s3_backends[DEFAULT_ACCOUNT_ID]["aws"].get_object(BUCKET, name)
        return None if stored is None else bytes(stored.value)

    return read


def live_files(s3: Any) -> dict[str, bytes]:
    """The live sitemap.xml and every child it names, by name (s3util.live_files, by reader)."""
    read = reader(s3)
    data = read("sitemap.xml")
    assert data is not None, "sitemap.xml is missing"
    files = {"sitemap.xml": data}
    if b"<sitemapindex" in data[:500]:
        for url in re.findall(rb"<loc>(.*?)</loc>", data):
            name = url.decode().rpartition("/")[2]
            child = read(name)
            assert child is not None, f"sitemap.xml names {name}, which is missing"
            files[name] = child
    return files


def urls(*keys: str) -> list[str]:
    return [BASE + key for key in keys]


def expected_dates(s3: Any) -> dict[str, str]:
    """Each page's URL and date as a first reading of the bucket gives them: its
    LastModified (the oracle: no sitemill code)."""
    found: dict[str, str] = {}
    for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]:
        if item["Key"].endswith(".html") and item["Key"] != "sitemap.html":  # (sitemill's)
            moment = item["LastModified"].astimezone(UTC).replace(microsecond=0)
            found[BASE + item["Key"]] = moment.isoformat()
    return found


def assert_converged(s3: Any) -> None:
    """A full rebuild with the committed plan writes nothing (the same bytes), and the live
    sitemaps list every page with its date."""
    live = live_files(s3)
    full = run(s3)
    assert full.result.written == [], full.result.written
    assert live_files(s3) == live
    listed = {
        loc.decode(): lastmod.decode()
        for data in live.values()
        for loc, lastmod in re.findall(rb"<url><loc>(.*?)</loc><lastmod>(.*?)</lastmod>", data)
    }
    assert listed == expected_dates(s3)


def dry_pass(action: Callable[[Any], object]) -> list[Signature]:
    """The calls ``action`` makes on a fresh split world, in order of first occurrence."""
    with split_world() as (s3, _):
        calls = Calls(s3)
        action(s3)
        return calls.seen


def split(s3: Any) -> None:
    put(s3, *SPLIT)


def deploy_split(s3: Any) -> object:
    return run(s3, changed=SPLIT)


def full_rebuild(s3: Any) -> object:
    return run(s3)


@contextmanager
def faulted(
    call: Signature, action: Callable[[Any], object], fault: Callable[[], None]
) -> Iterator[tuple[Any, list[str]]]:
    """A world where ``action`` ran on the split with ``fault`` at ``call``: checked to be one
    whole build at every moment; the client and the URLs live before."""
    with split_world() as (s3, before):
        calls = Calls(s3)
        calls.arm(call, fault)
        with suppress(SitemillError):
            action(s3)
        calls.assert_fired()
        assert_one_build(reader(s3), before, before + urls(*SPLIT))
        yield s3, before


@pytest.mark.parametrize("action", [deploy_split, full_rebuild], ids=["router", "full rebuild"])
@pytest.mark.parametrize("fault", [fail, precondition_failed], ids=["failure", "412"])
def test_a_fault_at_any_call_loses_nothing(
    action: Callable[[Any], object], fault: Callable[[], None]
) -> None:
    signatures = dry_pass(action)
    assert len(signatures) >= 10, signatures
    if fault is precondition_failed:  # (a refusal of a conditional write: a PUT's)
        signatures = [call for call in signatures if call[0] == "PutObject"]
    for call in signatures:
        with faulted(call, action, fault) as (s3, before):
            action(s3)  # done again (SQS redelivers a failed batch)
            assert sorted(live_urls(reader(s3))) == sorted(before + urls(*SPLIT)), call
            assert_converged(s3)


def test_a_fault_at_any_call_with_a_group_and_a_users_sitemap_loses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 65's index: shard b's pages in a named group's children, and a sitemap of the
    user's named after sitemill's own; a fault at each call of a deploy that splits the
    group's shard leaves one whole build, and done again, the full rebuild's bytes."""
    grouped = load_config(
        {"base_url": BASE, "state": f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
         "shards": "on", "max_urls": 5, "shard_fill": 4, "sitemaps": ["blog-sitemap.xml"]},
        {}, {"groups": [{"name": "bee", "include": ["b/**"]}]},
    )  # fmt: skip
    monkeypatch.setattr(sys.modules[__name__], "CONFIG", grouped)

    with world() as s3:
        index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
        assert b"sitemap-bee-r" in index
    for call in dry_pass(deploy_split):
        with faulted(call, deploy_split, fail) as (s3, before):
            deploy_split(s3)  # done again (SQS redelivers a failed batch)
            assert (
                b"blog-sitemap.xml"
                in s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
            )
            assert sorted(set(live_urls(reader(s3)))) == sorted(
                {*before, *urls(*SPLIT), "https://example.com/shop/"}
            ), call
            assert_converged(s3)


@functools.cache
def _other_client() -> Any:
    return client()


def second_writer(s3: Any, full: bool) -> Callable[[], None]:
    """Another router (or a manual full rebuild) publishing a deploy of its own, with a
    client of its own, right before the first run's armed call (one for every world: a client
    is no part of moto's state)."""
    other = _other_client()

    def write() -> None:
        put(other, *OTHER)
        run(other, None if full else OTHER)

    return write


@pytest.mark.parametrize(
    ("action", "full"),
    [(deploy_split, False), (deploy_split, True), (full_rebuild, False)],
    ids=["two routers", "router, then a manual full rebuild", "full rebuild, then a router"],
)
def test_a_second_writer_at_any_call_loses_nothing(
    action: Callable[[Any], object], full: bool
) -> None:
    for call in dry_pass(action):
        with split_world() as (s3, before):
            calls = Calls(s3)
            calls.arm(call, second_writer(s3, full))
            action(s3)  # (a conflict is redone from the other writer's manifest)
            calls.assert_fired()
            everything = before + urls(*SPLIT, *OTHER)
            assert sorted(live_urls(reader(s3))) == sorted(everything), call
            assert_converged(s3)


def rebuild_distributed(s3: Any) -> object:
    return distributed(s3, "full-1")


def test_a_fault_at_any_call_of_a_distributed_run_loses_nothing() -> None:
    for call in dry_pass(rebuild_distributed):
        with faulted(call, rebuild_distributed, fail) as (s3, before):
            distributed(s3, "full-2")  # a new run, or a redrive
            assert sorted(live_urls(reader(s3))) == sorted(before + urls(*SPLIT)), call
            assert_converged(s3)


def test_a_router_deploy_during_a_distributed_run_is_never_overwritten() -> None:
    """The reducer commits only over the manifest its run was planned from: a router commit
    at any call of the run makes it publish nothing (item 3), and the deploy stays live."""
    for call in dry_pass(rebuild_distributed):
        with split_world() as (s3, before):
            calls = Calls(s3)
            calls.arm(call, second_writer(s3, False))
            try:
                rebuild_distributed(s3)
            except IncompleteRunError as exc:
                assert "nothing was published" in str(exc)
            calls.assert_fired()
            live = live_urls(reader(s3))
            assert set(urls(*OTHER)) <= set(live), call  # the router's deploy is live
            assert set(before) <= set(live), call
            distributed(s3, "full-2")
            assert sorted(live_urls(reader(s3))) == sorted(before + urls(*SPLIT, *OTHER))
            assert_converged(s3)


def test_the_cost_of_a_fault_free_deploy_stays_small() -> None:
    with world() as s3:
        put(s3, "b/p10.html")
        calls = Calls(s3)
        run(s3, changed=["b/p10.html"])
        kinds = [operation for operation, _, _ in calls.seen]
        assert kinds.count("PutObject") <= 5  # (the page), child, its state, manifest, index
        assert len(kinds) <= 12, calls.seen
    assert os.environ["AWS_DEFAULT_REGION"] == "us-east-1"


def test_a_tampered_shard_state_is_refused_and_the_run_rebuilds_in_full() -> None:
    """A shard state whose bytes are not the ones the manifest names (a key added to its
    listing that the bucket does not hold) is never published: the run rebuilds in full."""
    import gzip
    import json

    with world() as s3:
        listed = s3.list_objects_v2(Bucket=STATE_BUCKET, Prefix="site/sitemill-state/shards/")
        for item in listed["Contents"]:  # the state of shard b (a deploy there reads it)
            data = s3.get_object(Bucket=STATE_BUCKET, Key=item["Key"])["Body"].read()
            document = json.loads(gzip.decompress(data))
            if [page[0] for page in document["listing"]][:1] == ["b/p0.html"]:
                break
        document["listing"].insert(0, ["b/p0-ghost.html", "", '"e"'])
        tampered = gzip.compress(json.dumps(document).encode())
        s3.put_object(Bucket=STATE_BUCKET, Key=item["Key"], Body=tampered)
        put(s3, "b/p05.html")
        report = run(s3, changed=["b/p05.html"])
        assert any("is ignored" in warning for warning in report.warnings), report.warnings
        urls = live_urls(reader(s3))
        assert BASE + "b/p0-ghost.html" not in urls and BASE + "b/p05.html" in urls
        assert_converged(s3)


def test_a_tampered_manifest_is_refused_whole_and_the_run_rebuilds_in_full() -> None:
    import json

    with world() as s3:
        key = "site/sitemill-state/index-state.json"
        manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=key)["Body"].read())
        manifest["children"][0]["lastmod"] = "2999-12-31"
        s3.put_object(Bucket=STATE_BUCKET, Key=key, Body=json.dumps(manifest).encode())
        report = run(s3, changed=["a/p0.html"])
        assert any("index-state.json is ignored" in w for w in report.warnings), report.warnings
        assert b"2999" not in b"".join(live_files(s3).values())
        assert_converged(s3)


@pytest.mark.parametrize("fault", [fail, precondition_failed], ids=["failure", "412"])
def test_a_fault_at_any_call_of_a_full_rebuild_with_sitemap_html_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, fault: Callable[[], None]
) -> None:
    """sitemap.html goes up after the commit (publish_after_commit): a fault at each call of a
    full rebuild leaves one whole build whose sitemap.html names no page that is not there, and
    done again, the full rebuild's bytes with every page in sitemap.html."""
    html = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on", max_urls=5, shard_fill=4, html_sitemap=True,
    )  # fmt: skip
    monkeypatch.setattr(sys.modules[__name__], "CONFIG", html)
    signatures = dry_pass(full_rebuild)
    assert ("PutObject", BUCKET, "sitemap.html") in signatures, signatures
    if fault is precondition_failed:
        signatures = [call for call in signatures if call[0] == "PutObject"]
    for call in signatures:
        with faulted(call, full_rebuild, fault) as (s3, before):
            linked = _html_links(reader(s3))
            assert linked <= {BASE + key for key in (*PAGES, *SPLIT)}, call
            full_rebuild(s3)  # done again
            assert sorted(live_urls(reader(s3))) == sorted(before + urls(*SPLIT)), call
            assert _html_links(reader(s3)) == set(before + urls(*SPLIT)), call
            assert_converged(s3)


def _html_links(read: Callable[[str], bytes | None]) -> set[str]:
    """The pages sitemap.html links to (none when there is none)."""
    data = read("sitemap.html") or b""
    return {
        link.decode() for link in re.findall(rb'href="(https://example\.com/[^"]*\.html)"', data)
    }


# sitemill's own sitemap.html from a run with html_sitemap on: its head says who made it.
LEFTOVER = (
    b'<!doctype html><html><head><meta name="generator" content="sitemill 0.1">'
    b"<title>Sitemap</title></head><body><a href='https://example.com/a/0.html'>0</a></body></html>"
)


@pytest.mark.parametrize("fault", [fail, precondition_failed], ids=["failure", "412"])
def test_a_fault_at_any_call_of_a_full_rebuild_deleting_sitemills_sitemap_html_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, fault: Callable[[], None]
) -> None:
    """html_sitemap off over a bucket that holds sitemill's own sitemap.html: the full rebuild
    deletes it after the commit (shardcommit.delete_after_commit). A fault at each call, the
    deletion's among them, leaves one whole build (the leftover there or gone, never listed);
    done again, the leftover is gone and a clean rebuild writes nothing."""
    off = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on", max_urls=5, shard_fill=4,
    )  # fmt: skip
    monkeypatch.setattr(sys.modules[__name__], "CONFIG", off)  # (its own worlds: _SPLIT)

    def split_beside_the_leftover(s3: Any) -> None:
        put(s3, *SPLIT)
        s3.put_object(Bucket=BUCKET, Key="sitemap.html", Body=LEFTOVER, ContentType="text/html")

    monkeypatch.setattr(sys.modules[__name__], "split", split_beside_the_leftover)
    signatures = dry_pass(full_rebuild)
    deletion = ("DeleteObject", BUCKET, "sitemap.html")
    assert deletion in signatures, signatures
    if fault is precondition_failed:  # (a refused conditional write or deletion)
        signatures = [call for call in signatures if call[0] in ("PutObject", "DeleteObject")]
    for call in signatures:
        with faulted(call, full_rebuild, fault) as (s3, before):
            assert BASE + "sitemap.html" not in live_urls(reader(s3)), call
            full_rebuild(s3)  # done again
            assert sorted(live_urls(reader(s3))) == sorted(before + urls(*SPLIT)), call
            assert reader(s3)("sitemap.html") is None, call
            assert_converged(s3)


def test_the_oracles_reads_are_the_buckets_bytes_and_cost_no_s3_call() -> None:
    """A world's checks read the live sitemaps from moto's store: what a GET gives, byte for
    byte, by no call through a client (issue 80: they were a quarter of this module's CPU)."""
    with world() as s3:
        calls = Calls(s3)
        live, listed, missing = live_files(s3), live_urls(reader(s3)), reader(s3)("none.xml")
        assert calls.stop() == []
        assert live == s3util.live_files(s3) and len(live) > 1
        assert sorted(listed) == sorted(urls(*PAGES)) and missing is None
