"""A sharded bucket with a partitioned state (docs/s3-lambda.md): a one-page deploy re-renders its
shard alone from the shard's state (HEADs, no whole-bucket LIST) and gives exactly the files
of a full rebuild with the same plan; deletions wait; a failed worker publishes nothing."""

from __future__ import annotations

import gzip
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from consistency import live_urls
from faults import one_request_at_a_time
from outputlist import FullRun, RebuildOptions, rebuild_bucket, rebuild_partitioned
from s3util import (
    BASE,
    BUCKET,
    Requests,
    live_files,
    make_config,
    moto_bucket,
    put_pages,
    sitemap_files,
)
from sitemill.config.model import Config
from sitemill.errors import SitemillError
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned, partitioned_prefix
from sitemill.report import shards_line, summary_counts
from sitemill.scaleout.shardcommit import head_live
from sitemill.scaleout.shardfull import rebuild_full
from sitemill.scaleout.shardinputs import bucket_robots, inputs_fingerprint
from sitemill.shards.manifest import DELETE_AFTER
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.s3 import S3StateStore
from xsd import assert_xsd_valid

STATE_BUCKET = "state-bucket"
SHARD = re.compile(r"sitemap-r[a-z2-7]{8}-[a-z2-7]{8}\.xml")
STATE = re.compile(r"site/sitemill-state/shards/r[a-z2-7]{8}-[a-z2-7]{8}\.json\.gz")
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of(**values: Any) -> Config:
    values.setdefault("shards", "on")
    return make_config(state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", **values)


def store_of(s3: Any, config: Config) -> PartitionedStore:
    where = partitioned_prefix(config)
    assert where is not None
    return PartitionedStore(s3, *where)


def run(s3: Any, config: Config, changed: list[str] | None = None, **options: Any) -> Any:
    store = store_of(s3, config)
    return rebuild_partitioned(
        config, s3, BucketSite(BUCKET), store, changed=changed, now=NOW,
        options=RebuildOptions(**options),
    )  # fmt: skip


def test_the_state_lives_under_the_state_location_in_parts(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    report = run(s3, config)
    index, *children = report.result.files
    assert index == "sitemap.xml" and len(children) == 3
    assert all(SHARD.fullmatch(name) for name in children)
    keys = sorted(
        item["Key"] for item in s3.list_objects_v2(Bucket=STATE_BUCKET).get("Contents", [])
    )
    # The manifest, and one state object per shard that it names (a name its bytes give).
    assert keys[0] == "site/sitemill-state/index-state.json"
    assert len(keys) == 4 and all(STATE.fullmatch(key) for key in keys[1:])
    manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=keys[0])["Body"].read())
    assert len(manifest["plan"]["afters"]) == 3
    named = {"site/sitemill-state/" + ref["name"] for ref in manifest["states"].values()}
    assert named == set(keys[1:])
    # Nothing is kept beside the public sitemaps.
    assert "sitemill-state.json.gz" not in {
        item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]
    }
    assert_xsd_valid(s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read())


def test_a_one_page_deploy_reads_its_shard_alone(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    put_pages(s3, "b/p10.html")
    requests = Requests(s3)
    listed: list[dict[str, Any]] = []
    s3.meta.events.register(
        "before-parameter-build.s3.ListObjectsV2", lambda params, **_: listed.append(params)
    )
    report = run(s3, config, changed=["b/p10.html"])
    kinds = [name for name, _ in requests.calls]
    # No whole-bucket LIST: one LIST of the changed key alone (a HEAD's facts under the
    # function's s3:ListBucket), a HEAD of the live index (is it the one the state knows?).
    assert [(params["Prefix"], params["MaxKeys"]) for params in listed] == [("b/p10.html", 1)]
    assert kinds.count("HeadObject") == 1
    # robots.txt, the manifest, the shard's state, the page's head
    assert kinds.count("GetObject") == 4
    assert kinds.count("PutObject") <= 4  # the child, its state, the manifest, the index
    # docs/s3-lambda.md's budget: at most 10 requests besides the page's own GET.
    assert len(kinds) - 1 <= 10, requests.calls
    written = [name for name in report.result.written if SHARD.fullmatch(name)]
    assert len(written) == 1
    assert shards_line(report) == "shards: 3, 1 child rewritten, 1 touched"
    counts = summary_counts(report)
    assert counts["shards_touched"] == 1
    # "written" counts every file written, the index too; the children are told apart
    # (issue 41: "shards_written": 0 beside "written": 1 read as a contradiction).
    assert (
        counts["written"] == len(report.result.written) and "sitemap.xml" in report.result.written
    )
    assert counts["shard_children_written"] == 1 and "shards_written" not in counts
    incremental = live_files(s3)
    # A full rebuild with the same plan writes the same bytes.
    full = run(s3, config)
    assert full.result.written == []
    assert live_files(s3) == incremental


def test_a_deleted_page_leaves_its_shard_and_a_rerun_writes_nothing(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    s3.delete_object(Bucket=BUCKET, Key="a/p1.html")
    report = run(s3, config, changed=["a/p1.html"])
    assert b"a/p1.html" not in b"".join(live_files(s3).values())
    assert report.result.written
    again = run(s3, config, changed=["a/p1.html"])
    assert again.result.written == [] and again.result.deleted == []


def test_an_emptied_shards_child_is_deleted_only_after_a_while(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    first = run(s3, config)
    gone = [f"c/p{n}.html" for n in range(4)]
    for key in gone:
        s3.delete_object(Bucket=BUCKET, Key=key)
    report = run(s3, config, changed=gone)
    assert len(report.result.files) == 3  # the index and two children
    (stale,) = set(first.result.files) - set(report.result.files)
    assert stale in sitemap_files(s3)  # not named, not deleted yet
    later = rebuild_partitioned(
        config,
        s3,
        BucketSite(BUCKET),
        store_of(s3, config),
        now=NOW + DELETE_AFTER + timedelta(seconds=1),
    )
    assert later.result.deleted == [stale]
    assert stale not in sitemap_files(s3)


def test_a_failed_worker_publishes_nothing_and_a_rerun_converges(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    before = live_files(s3)
    put_pages(s3, "a/p10.html", "c/p10.html")

    def fail(**kwargs: Any) -> None:
        if kwargs["params"].get("Prefix", "").endswith("c/p10.html"):
            raise RuntimeError("injected")

    s3.meta.events.register("before-parameter-build.s3.ListObjectsV2", fail)
    with pytest.raises(RuntimeError):
        run(s3, config, changed=["a/p10.html", "c/p10.html"])
    assert live_files(s3) == before
    s3.meta.events.unregister("before-parameter-build.s3.ListObjectsV2", fail)
    run(s3, config, changed=["a/p10.html", "c/p10.html"])
    incremental = live_files(s3)
    assert run(s3, config).result.written == []
    assert live_files(s3) == incremental


def named_children(s3: Any) -> list[str]:
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return [loc.rsplit("/", 1)[1] for loc in re.findall(r"<loc>(.*?)</loc>", index)]


def test_a_racing_manual_rebuild_never_leaves_the_index_naming_a_missing_child(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_request_at_a_time(monkeypatch)
    put_pages(s3, *(f"{section}/p{n:02d}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    failures: list[str] = []
    missing: list[str] = []
    stop = threading.Event()

    def deploys() -> None:
        for number in range(12):
            key = f"{'abc'[number % 3]}/q{number:02d}.html"
            put_pages(s3, key)
            try:
                run(s3, config, changed=[key])
            except SitemillError as exc:  # (another rebuild ran: "try again")
                failures.append(str(exc))

    def rebuilds() -> None:
        while not stop.is_set():
            try:
                run(s3, config)
            except SitemillError as exc:
                failures.append(str(exc))

    def watch() -> None:
        while not stop.is_set():  # the index first: what it names must exist after it
            named = named_children(s3)
            live = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
            missing.extend(name for name in named if name not in live)

    threads = [threading.Thread(target=rebuilds), threading.Thread(target=watch)]
    for thread in threads:
        thread.start()
    deploys()
    stop.set()
    for thread in threads:
        thread.join()
    assert missing == []
    assert all("another rebuild" in failure for failure in failures), failures
    final = run(s3, config)
    assert len(final.result.files) > 4  # the new pages split shards
    again = run(s3, config)
    assert again.result.written == []
    listed = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert set(named_children(s3)) <= listed
    urls = b"".join(
        s3.get_object(Bucket=BUCKET, Key=name)["Body"].read() for name in named_children(s3)
    )
    assert all(f"q{number:02d}.html".encode() in urls for number in range(12))


def test_a_re_upload_of_the_same_bytes_writes_nothing_not_even_a_state(s3: Any) -> None:
    # With content dates (the default) an unchanged ETag moves no date: the S3 LastModified
    # of a re-upload is not kept either, so no state object changes.
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    time.sleep(1.1)  # (a later second for every LastModified)
    put_pages(s3, "a/p1.html", "b/p2.html")
    again = run(s3, config, changed=["a/p1.html", "b/p2.html"])
    assert (again.result.written, again.state_written) == ([], False)
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    full = run(s3, config)
    assert (full.result.written, full.state_written) == ([], False)


def test_a_first_partitioned_run_starts_from_the_one_state_of_earlier_runs(s3: Any) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(max_urls=5, shard_fill=4)
    where = partitioned_prefix(config)
    assert where is not None and config.state is not None
    legacy = S3StateStore(s3, STATE_BUCKET, config.state.removeprefix(f"s3://{STATE_BUCKET}/"))
    earlier = rebuild_bucket(config, s3, BucketSite(BUCKET), state_store=legacy)
    assert earlier.heads_read == 12
    store = PartitionedStore(s3, *where, legacy=legacy.key)
    first = rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=NOW)
    assert (first.heads_read, first.heads_reused) == (0, 12)  # no head read again
    assert first.dates == {"kept": 12}
    # The same sitemaps, now under names their content gives.
    assert sorted(live_urls(live_files(s3).get)) == sorted(
        BASE + f"{section}/p{n}.html" for section in "abc" for n in range(4)
    )


def test_a_state_in_the_sites_own_bucket_is_never_partitioned(s3: Any) -> None:
    config = make_config(state=f"s3://{BUCKET}/sitemill-state.json.gz")
    assert open_partitioned(config, s3, BucketSite(BUCKET)) is None
    assert open_partitioned(config_of(), s3, BucketSite(BUCKET)) is not None
    assert open_partitioned(config_of(shards="off"), s3, BucketSite(BUCKET)) is None


def test_the_inputs_every_shard_shares_are_fingerprinted(tmp_path: Path) -> None:
    config = config_of()
    robots = b"User-agent: *\nDisallow: /private/\n"
    same = inputs_fingerprint(config, robots)
    assert inputs_fingerprint(config_of(workers=3), robots) == same  # (no output changes)
    assert inputs_fingerprint(config, robots + b"Sitemap: https://x/sitemap.xml\n") == same
    assert inputs_fingerprint(config, robots + b"Disallow: /drafts/\n") != same
    assert inputs_fingerprint(config, None) != same
    assert inputs_fingerprint(config_of(max_urls=10), robots) != same
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "urlset.xml.j2").write_text("{{ x }}")
    with_templates = config_of(templates_dir=str(templates))
    before = inputs_fingerprint(with_templates, robots)
    (templates / "urlset.xml.j2").write_text("{{ y }}")
    assert inputs_fingerprint(with_templates, robots) != before
    os.mkfifo(templates / "fifo.xml.j2")  # never read (it would block)
    inputs_fingerprint(with_templates, robots)


@pytest.mark.parametrize(
    "values",
    [
        {"format": "txt"},
        {"gzip": True},
        {"max_urls": 50_000, "shards": "auto"},  # one sitemap.xml, rendered by its worker
        {"url_style": "clean"},
    ],
    ids=["text", "gzip", "one file", "clean URLs"],
)
def test_every_output_form_gives_the_files_of_a_full_rebuild(
    s3: Any, values: dict[str, Any]
) -> None:
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    config = config_of(**({"max_urls": 5, "shard_fill": 4} | values))
    first = run(s3, config)
    put_pages(s3, "b/p10.html")
    s3.delete_object(Bucket=BUCKET, Key="c/p0.html")
    incremental = run(s3, config, changed=["b/p10.html", "c/p0.html"])
    assert incremental.shards_touched == (1 if len(first.result.files) == 1 else 2)
    entry = (
        "sitemap.txt"
        if values.get("format") == "txt" and len(first.result.files) == 1
        else "sitemap.xml"
    )
    files = live_files(s3, entry=entry)
    text = b"".join(
        gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data for data in files.values()
    )
    assert b"b/p10" in text and b"c/p0" not in text
    full = run(s3, config)
    assert full.result.written == [] and live_files(s3, entry=entry) == files


def test_a_page_left_out_by_a_canonical_in_another_shard_stays_out(s3: Any) -> None:
    # Its record is forgotten (the state names no page the sitemaps leave out); rendered
    # alone, its shard would list it (the target is not among the shard's pages): the worker
    # sees the page name another and the run is a full rebuild.
    put_pages(s3, *(f"{section}/p{n}.html" for section in "abc" for n in range(4)))
    copy = b'<!doctype html><link rel="canonical" href="https://example.com/c/p1.html"><p>c'
    s3.put_object(Bucket=BUCKET, Key="a/p3.html", Body=copy)
    config = config_of(max_urls=5, shard_fill=4)
    run(s3, config)
    assert b"a/p3.html" not in b"".join(sitemap_files(s3).values())
    put_pages(s3, "a/p10.html")
    assert run(s3, config, changed=["a/p10.html"]).shards_touched is None  # (in full)
    files = sitemap_files(s3)
    assert b"a/p3.html" not in b"".join(files.values())
    assert run(s3, config).result.written == [] and sitemap_files(s3) == files


def test_a_dry_run_shows_what_it_would_announce_and_keeps_nothing(s3: Any) -> None:
    # IndexNow (kept for `sitemill indexnow`): a dry full rebuild finds the edit as a real one
    # does, and writes no pending URL.
    put_pages(s3, "a.html", "b.html")
    config = config_of(indexnow="later")
    assert run(s3, config).indexnow.found == {}  # (a first run)
    s3.put_object(Bucket=BUCKET, Key="b.html", Body=b"<!doctype html><title>b, edited</title>")
    dry = run(s3, config, dry_run=True)
    assert dry.indexnow is not None
    assert (dry.indexnow.found, dry.indexnow.urls) == ({"changed": 1}, {BASE + "b.html": "changed"})
    pending = "site/sitemill-state/indexnow.json.gz"
    listed = s3.list_objects_v2(Bucket=STATE_BUCKET, Prefix=pending).get("Contents", [])
    assert listed == []
    real = run(s3, config)
    assert real.indexnow.found == {"changed": 1} and real.indexnow.pending == 1
    assert s3.list_objects_v2(Bucket=STATE_BUCKET, Prefix=pending)["KeyCount"] == 1


def test_a_full_rebuild_over_a_given_listing_lists_nothing_and_commits(s3: Any) -> None:
    # (benchmarks/bucket_shards_bench.py: a sharded bucket of pages never uploaded)
    pages = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
    put_pages(s3, *pages)
    config = config_of(max_urls=5, shard_fill=4)
    assert config.state is not None
    legacy = S3StateStore(s3, STATE_BUCKET, config.state.removeprefix(f"s3://{STATE_BUCKET}/"))
    rebuild_bucket(config, s3, BucketSite(BUCKET), state_store=legacy)  # every head known
    objects = s3.list_objects_v2(Bucket=BUCKET)["Contents"]
    for page in pages:
        s3.delete_object(Bucket=BUCKET, Key=page)
    site = BucketSite(BUCKET)
    store = open_partitioned(config, s3, site)
    assert store is not None
    robots_data, robots = bucket_robots(config, s3, site)
    live, base = head_live(s3, site), store.read_manifest()
    listed: list[dict[str, Any]] = []
    s3.meta.events.register(
        "before-parameter-build.s3.ListObjectsV2", lambda params, **_: listed.append(params)
    )
    requests = Requests(s3)
    report = rebuild_full(
        FullRun(config, s3, site, store, 2, NOW),
        base,
        live,
        robots,
        inputs_fingerprint(config, robots_data),
        objects=objects,
    )
    assert report.state_written and report.result.url_count == len(pages)
    assert not [path for _, path in requests.calls if path.endswith(tuple(pages))]
    assert requests.count("PutObject") >= 4  # (three children, their states, the manifest)
    assert "" not in {params["Prefix"] for params in listed}  # (only sitemill's own objects)
    put_pages(s3, "b/p10.html")
    deploy = run(s3, config, changed=["b/p10.html"])
    assert shards_line(deploy) == "shards: 3, 1 child rewritten, 1 touched"
