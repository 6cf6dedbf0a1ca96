"""The distributed rebuild's steps in this process (LocalExecutor, the same plan, items and
reducer as the state machine): from parallel range LISTs and from an S3 Inventory report,
which must list exactly what the LISTs do; a report that cannot be trusted falls back to
LIST; hostile run files are refused; 1 and 4 threads write the same bytes."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

import inventoryutil
from outputlist import DistributedRun, RebuildOptions, rebuild_partitioned
from s3util import BASE, PAGE, live_files, make_config, moto_bucket
from sitemill.config.model import Config
from sitemill.errors import ConfigError, IncompleteRunError, InventoryError, StateError
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.scaleout.distplan import RunRequest, plan_run
from sitemill.scaleout.distreduce import reduce_run
from sitemill.scaleout.distshard import range_listing, render_item
from sitemill.scaleout.distshuffle import fragment_listing, inventory_planner, shuffle_item
from sitemill.scaleout.executor import LocalExecutor, run_name
from sitemill.scaleout.runfiles import Item, item_from_json, item_to_json
from xsd import assert_xsd_valid

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

STATE = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
INVENTORY = "inventory/{bucket}/sitemill/"  # the stack's SITEMILL_INVENTORY folder
ODD = ["a b.html", "a+b.html", "caf\u00e9/\u00fcber.html", "q?x=1.html", "100%.html", "x,y.html"]
URL = re.compile(rb"<loc>([^<]*)</loc><lastmod>([^<]*)</lastmod>")


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE)
        yield client


def backend() -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"]


def site_with_pages(s3: Any, bucket: str, count: int = 300) -> list[str]:
    s3.create_bucket(Bucket=bucket)
    keys = [f"s{n % 5}/p{n:04d}.html" for n in range(count)] + ODD
    for n, key in enumerate(keys):
        stored = backend().put_object(bucket, key, PAGE)
        # Before the runs' NOW: a report's date after a run's time is not trusted.
        stored.last_modified = datetime(2026, 11, 20, 8, 0) + timedelta(minutes=11 * n)
    return keys


def config_of(bucket: str, **values: Any) -> Config:
    values.setdefault("shard_fill", 20)
    values.setdefault("state", f"s3://{STATE}/{bucket}/sitemill-state.json.gz")
    return make_config(shards="on", **values)


def run_of(s3: Any, bucket: str, **values: Any) -> DistributedRun:
    config = config_of(bucket, **values)
    site = BucketSite(bucket)
    store = open_partitioned(config, s3, site)
    assert store is not None
    return DistributedRun(config, s3, site, store, STATE, NOW)


def urls(s3: Any, bucket: str) -> dict[bytes, bytes]:
    """Every <url> of the bucket's children: loc -> lastmod."""
    found: dict[bytes, bytes] = {}
    for name, data in files(s3, bucket).items():
        if name != "sitemap.xml":
            found.update(URL.findall(data))
    return found


def files(s3: Any, bucket: str) -> dict[str, bytes]:
    """The live sitemap.xml and the children it names (a crawler's view; children no index
    names wait a while before they are deleted)."""
    return live_files(s3, bucket)


def put_inventory(s3: Any, bucket: str, parts: int = 3, **options: Any) -> str:
    """A report of every object of ``bucket``, its rows shuffled over ``parts`` files."""
    listed = s3.list_objects_v2(Bucket=bucket)["Contents"]
    rows = [
        [bucket, inventoryutil.encode(o["Key"]), str(o["Size"]),
         o["LastModified"].astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
         o["ETag"].strip('"'), "STANDARD"]
        for o in listed
    ]  # fmt: skip
    random.Random(7).shuffle(rows)
    split = [rows[index::parts] for index in range(parts)]

    def put(key: str, data: bytes) -> None:
        backend().put_object(STATE, key, data)

    folder = INVENTORY.format(bucket=bucket)
    when = NOW - timedelta(hours=6)
    return inventoryutil.put_report(put, folder, bucket, STATE, when, split, **options)


def inventory_run(s3: Any, bucket: str, name: str) -> Any:
    location = f"s3://{STATE}/" + INVENTORY.format(bucket=bucket)
    run = run_of(s3, bucket)
    planner = inventory_planner(location, group_rows=60, sample_rows=200)
    executor = LocalExecutor(run, None, threads=3, inventory=planner)
    return executor.execute(RunRequest(name, bucket, ""), location)


def manifest(s3: Any, bucket: str, run: str) -> dict[str, Any]:
    key = f"{bucket}/sitemill-state/runs/{run}/run.json"
    return json.loads(s3.get_object(Bucket=STATE, Key=key)["Body"].read())


def test_a_first_build_from_an_inventory_lists_what_range_lists_list(s3: Any) -> None:
    site_with_pages(s3, "site-a", count=200)
    put_inventory(s3, "site-a")
    listed = LocalExecutor(
        run_of(s3, "site-a", state=f"s3://{STATE}/listed/state.json.gz"), None, threads=3
    ).execute(RunRequest("full-list", "site-a", ""))
    listed_urls = urls(s3, "site-a")
    for name in files(s3, "site-a"):  # (the inventory's run starts from nothing)
        s3.delete_object(Bucket="site-a", Key=name)
    reduced = inventory_run(s3, "site-a", "full-inventory")
    assert manifest(s3, "site-a", "full-inventory")["source"] == "inventory"
    assert reduced.verdict["status"] == listed.verdict["status"] == "published"
    assert reduced.verdict["urls"] == listed.verdict["urls"] == 206
    assert urls(s3, "site-a") == listed_urls  # (odd keys included)
    assert any(b"caf%C3%A9/%C3%BCber.html" in url for url in listed_urls)
    for data in files(s3, "site-a").values():
        assert_xsd_valid(data)
    # The plan it laid is the next runs': they list ranges, and change nothing.
    again = LocalExecutor(run_of(s3, "site-a"), None).execute(
        RunRequest("full-again", "site-a", "")
    )
    assert manifest(s3, "site-a", "full-again")["source"] == "list"
    assert again.verdict["written"] == 0 and again.verdict["shards"] == reduced.verdict["shards"]


def test_a_tampered_manifest_falls_back_to_listing(s3: Any, caplog: Any) -> None:
    site_with_pages(s3, "site-a", count=40)

    key = put_inventory(s3, "site-a")
    backend().put_object(STATE, key, b'{"files": []}')  # changed after its checksum
    reduced = inventory_run(s3, "site-a", "full-1")
    assert reduced.verdict["status"] == "published" and reduced.verdict["urls"] == 46
    assert manifest(s3, "site-a", "full-1")["source"] == "list"
    assert "manifest.checksum does not match" in caplog.text


def tamper_data_file(s3: Any, key: str) -> None:
    """Flip a bit of the report's second data file's gzip CRC-32: same size, another MD5."""
    document = json.loads(s3.get_object(Bucket=STATE, Key=key)["Body"].read())
    data_key = document["files"][1]["key"]
    data = bytearray(s3.get_object(Bucket=STATE, Key=data_key)["Body"].read())
    data[-8] ^= 1
    backend().put_object(STATE, data_key, bytes(data))


def test_a_tampered_data_file_the_sample_reads_falls_back_to_listing(s3: Any, caplog: Any) -> None:
    site_with_pages(s3, "site-b", count=40)
    tamper_data_file(s3, put_inventory(s3, "site-b"))
    reduced = inventory_run(s3, "site-b", "full-1")
    assert manifest(s3, "site-b", "full-1")["source"] == "list"
    assert reduced.verdict["urls"] == 46
    assert "0001-0b1e6c2a.csv.gz: not gzip" in caplog.text  # (its CRC-32 fails first)


def test_a_data_file_tampered_during_the_run_publishes_nothing(s3: Any) -> None:
    site_with_pages(s3, "site-b", count=40)
    key = put_inventory(s3, "site-b")
    location = f"s3://{STATE}/" + INVENTORY.format(bucket="site-b")
    run = run_of(s3, "site-b")
    planned = plan_run(run, RunRequest("full-1", "site-b", ""), inventory_planner(location))
    assert planned["inventory"] is not None
    tamper_data_file(s3, key)  # (after the planner's sample read it)
    files = run.files("full-1")
    shuffles = files.get_json("inventory.json")
    assert isinstance(shuffles, list) and len(shuffles) == 3
    shuffle_item(run, shuffles[0], location)
    with pytest.raises(InventoryError, match=r"0001-0b1e6c2a\.csv\.gz"):
        shuffle_item(run, shuffles[1], location)
    shuffle_item(run, shuffles[2], location)
    items = files.get_json("shards.json")
    assert isinstance(items, list)
    with pytest.raises(IncompleteRunError, match="2 of 3 inventory files were shuffled"):
        list(fragment_listing(run, item_from_json(items[0])))
    with pytest.raises(IncompleteRunError, match="items did not report"):
        reduce_run(run, "full-1")
    assert "Contents" not in s3.list_objects_v2(Bucket="site-b", Prefix="sitemap")
    # The report is refused from now on: the next run lists the bucket.
    reduced = inventory_run(s3, "site-b", "full-2")
    assert manifest(s3, "site-b", "full-2")["source"] == "list"
    assert reduced.verdict["urls"] == 46


def test_one_and_four_threads_write_the_same_bytes(s3: Any) -> None:
    site_with_pages(s3, "site-e", count=120)
    written = []
    for threads in (1, 4):
        run = run_of(s3, "site-e", state=f"s3://{STATE}/threads-{threads}/state.json.gz")
        LocalExecutor(run, None, threads=threads).execute(RunRequest("full-1", "site-e", ""))
        written.append(files(s3, "site-e"))
        for name in written[-1]:  # (the next run starts from nothing)
            s3.delete_object(Bucket="site-e", Key=name)
    assert written[0] == written[1] and len(written[0]) > 5


def test_mode_shards_renders_those_shards_alone(s3: Any) -> None:
    site_with_pages(s3, "site-c", count=120)
    run = run_of(s3, "site-c")
    first = LocalExecutor(run, None).execute(RunRequest("full-1", "site-c", ""))
    before = files(s3, "site-c")
    edited = backend().put_object("site-c", "s1/p0001.html", b"<title>y</title><p>new words")
    edited.last_modified = datetime(2026, 11, 1, 3, 4, 5)  # (moto's keys: naive UTC)
    plan = run.store.read_manifest().plan
    assert plan is not None
    shard = plan.ids[plan.shard_of("s1/p0001.html")]
    reduced = LocalExecutor(run, None).execute(
        RunRequest("shards-1", "site-c", "", "shards", (shard,))
    )
    assert manifest(s3, "site-c", "shards-1")["items"] == 1
    assert reduced.verdict["shards"] == first.verdict["shards"]
    after = files(s3, "site-c")
    changed = {name for name in after if after[name] != before.get(name)}
    (child,) = changed - {"sitemap.xml"}  # its file, under a new name: the index names it
    assert child.startswith(f"sitemap-{shard}-") and set(before) - set(after) == {
        name for name in before if name.startswith(f"sitemap-{shard}-")
    }


def test_a_canonical_to_another_shard_is_decided_by_the_last_build(s3: Any) -> None:
    s3.create_bucket(Bucket="site-d")
    for n in range(60):  # uploaded one by one: a first run dates them
        stored = backend().put_object("site-d", f"p{n:03d}.html", PAGE)
        stored.last_modified = datetime(2026, 11, 20, 8, 0) + timedelta(minutes=11 * n)
    copy = b'<!doctype html><title>x</title><link rel="canonical" href="/p059.html">'
    backend().put_object("site-d", "p000.html", copy)
    run = run_of(s3, "site-d")
    LocalExecutor(run, None).execute(RunRequest("full-1", "site-d", ""))
    listed = urls(s3, "site-d")
    # No build before this one: the copy's target was not known to be listed.
    assert BASE.encode() + b"p000.html" in listed
    LocalExecutor(run, None).execute(RunRequest("full-2", "site-d", ""))
    listed = urls(s3, "site-d")
    assert BASE.encode() + b"p000.html" not in listed and BASE.encode() + b"p059.html" in listed


def test_run_names_are_deterministic() -> None:
    one = run_name("full", ["m2", "m1"], NOW)
    assert one == run_name("full", ["m1", "m2"], NOW) == "full-" + one[5:13] + "-20261123T1200Z"
    assert run_name("full", ["m3"], NOW) != one
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,80}", one)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"run": "../x"}, "no valid run"),
        ({"shard": "raaaaaaaa"}, "does not match its boundary"),
        ({"afters": []}, "no valid shard boundaries"),
        ({"afters": ["a" * 1100]}, "no valid shard boundaries"),
        ({"last": ""}, "no valid last key"),
        ({"group": -1}, "no valid group"),
    ],
)
def test_a_hostile_render_item_is_refused(change: dict[str, Any], message: str) -> None:
    value = item_to_json(Item("full-1", ("", "b"), "c")) | change
    with pytest.raises(StateError, match=message):
        item_from_json(value)


def test_the_reducer_keeps_robots_txts_sitemap_line(s3: Any) -> None:
    site_with_pages(s3, "site-f", count=60)
    backend().put_object("site-f", "robots.txt", b"User-agent: *\nDisallow: /private/\n")
    run = run_of(s3, "site-f", robots_txt=True)
    reduced = LocalExecutor(run, None).execute(RunRequest("full-1", "site-f", ""))
    robots = s3.get_object(Bucket="site-f", Key="robots.txt")["Body"].read()
    assert robots == b"User-agent: *\nDisallow: /private/\nSitemap: " + BASE.encode() + (
        b"sitemap.xml\n"
    )
    assert "robots.txt" in reduced.report.result.written
    again = LocalExecutor(run, None).execute(RunRequest("full-2", "site-f", ""))
    assert "robots.txt" not in again.report.result.written


@pytest.mark.parametrize(
    ("values", "why"),
    [
        ({"html_sitemap": True}, "sitemap.html"),
        ({"images": True}, "the site chrome"),
    ],
)
def test_what_needs_the_whole_site_is_never_distributed(
    s3: Any, values: dict[str, Any], why: str
) -> None:
    site_with_pages(s3, "site-g", count=30)
    run = run_of(s3, "site-g", **values)
    with pytest.raises(ConfigError, match=f"a distributed rebuild cannot run here: {why}"):
        plan_run(run, RunRequest("full-1", "site-g", ""))
    # The router rebuilds such a site itself, exactly, however big.
    started: list[str] = []
    report = rebuild_partitioned(
        run.config, s3, run.site, run.store,
        options=RebuildOptions(distribute=lambda why: started.append(why) or "arn"),
    )  # fmt: skip
    assert started == [] and report.execution is None and report.result.url_count == 36
    assert "Contents" in s3.list_objects_v2(Bucket="site-g", Prefix="sitemap")


def test_the_router_distributes_a_site_without_a_plan_that_does_not_fit_it(s3: Any) -> None:
    site_with_pages(s3, "site-h", count=30)
    run = run_of(s3, "site-h")
    # One shard of 20 pages is all the function takes here: 36 do not fit.
    started: list[str] = []
    report = rebuild_partitioned(
        run.config, s3, run.site, run.store,
        options=RebuildOptions(
            max_touched=1, distribute=lambda why: started.append(why) or "arn:execution:x"
        ),
    )  # fmt: skip
    assert report.execution == "arn:execution:x" and report.result.written == []
    assert started == ["no plan yet, and more than 20 pages (1 shard of 20 the function takes)"]
    assert "Contents" not in s3.list_objects_v2(Bucket="site-h", Prefix="sitemap")


def test_the_router_rebuilds_a_site_without_a_plan_that_fits_it_itself(s3: Any) -> None:
    site_with_pages(s3, "site-h2", count=30)
    run = run_of(s3, "site-h2")
    started: list[str] = []
    report = rebuild_partitioned(
        run.config,
        s3,
        run.site,
        run.store,
        options=RebuildOptions(distribute=lambda why: started.append(why) or "arn"),
    )  # (36 pages: 2 shards of 20, of the 20 the function takes)
    assert started == [] and report.execution is None and report.result.url_count == 36
    assert len(report.result.written) == 3 and report.state_written
    assert len(live_files(s3, "site-h2")) == 3


def test_a_run_another_run_published_during_publishes_nothing(s3: Any) -> None:
    site_with_pages(s3, "site-i", count=60)
    run = run_of(s3, "site-i")
    LocalExecutor(run, None).execute(RunRequest("full-1", "site-i", ""))
    plan_run(run, RunRequest("full-2", "site-i", ""))
    items = run.files("full-2").get_json("shards.json")
    assert isinstance(items, list)
    for value in items:
        item = item_from_json(value)
        render_item(run, item, range_listing(run, item), None)
    # Meanwhile the router publishes a deploy of its own.
    edited = backend().put_object("site-i", "s2/p0002.html", b"<title>new</title><p>words")
    edited.last_modified = datetime(2026, 11, 2, 3, 4, 5)
    routed = rebuild_partitioned(run.config, s3, run.site, run.store, changed=["s2/p0002.html"])
    assert routed.result.written
    live = files(s3, "site-i")
    with pytest.raises(IncompleteRunError, match="another run published the sitemaps"):
        reduce_run(run, "full-2")
    assert files(s3, "site-i") == live  # (the router's deploy stays live)


def test_a_group_of_several_shards_is_an_index_with_shards_auto(s3: Any) -> None:
    site_with_pages(s3, "site-j", count=54)
    put_inventory(s3, "site-j")
    location = f"s3://{STATE}/" + INVENTORY.format(bucket="site-j")
    config = make_config(
        state=f"s3://{STATE}/site-j/sitemill-state.json.gz", shards="auto", shard_fill=20
    )
    store = open_partitioned(config, s3, BucketSite("site-j"))
    assert store is not None
    run = DistributedRun(config, s3, BucketSite("site-j"), store, STATE, NOW)
    executor = LocalExecutor(run, None, inventory=inventory_planner(location))
    reduced = executor.execute(RunRequest("full-1", "site-j", ""), location)
    published = files(s3, "site-j")
    assert reduced.verdict["shards"] == 3 and len(published) == 4
    assert published["sitemap.xml"].count(b"<sitemap>") == 3
    for data in published.values():
        assert_xsd_valid(data)


@pytest.mark.parametrize("folders", [False, True], ids=["declared", "language folders"])
def test_an_hreflang_cluster_across_shards_is_joined_from_the_last_build(
    s3: Any, folders: bool
) -> None:
    s3.create_bucket(Bucket="site-k")
    for n in range(20):
        links = "".join(
            f'<link rel="alternate" hreflang="{lang}" href="/{lang}/p{n:02d}.html">'
            for lang in ("en", "fr")
        )
        for lang in ("en", "fr"):
            head = "" if folders else links
            page = f"<!doctype html><html lang={lang}><head><title>{n}</title>{head}</head>"
            backend().put_object("site-k", f"{lang}/p{n:02d}.html", page.encode())
    more = {"alternates": {"en": "en/**", "fr": "fr/**"}} if folders else {}
    run = run_of(s3, "site-k", shard_fill=10, **more)
    fr_link = b'hreflang="fr" href="' + BASE.encode() + b'fr/p03.html"'

    def en_child() -> bytes:
        published = files(s3, "site-k")
        (child,) = (data for name, data in published.items() if b"en/p03.html<" in data)
        return child

    LocalExecutor(run, None).execute(RunRequest("full-1", "site-k", ""))
    # No build before: the French pages were in other shards, unknown to the English ones.
    assert fr_link not in en_child()
    LocalExecutor(run, None).execute(RunRequest("full-2", "site-k", ""))
    child = en_child()
    assert fr_link in child and b'hreflang="en" href="' + BASE.encode() + b'en/p03.html"' in child
    assert_xsd_valid(child)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"key": "elsewhere/data/x.csv.gz"}, "names a file outside"),
        ({"bucket": "another-bucket"}, "names a file outside"),
        ({"manifest": "elsewhere/manifest.json"}, "names a report outside"),
        ({"index": -1}, "no valid file index"),
        ({"run": "../x"}, "no valid run"),
    ],
)
def test_a_hostile_shuffle_item_is_refused(s3: Any, change: dict[str, Any], message: str) -> None:
    site_with_pages(s3, "site-l", count=10)
    put_inventory(s3, "site-l")
    location = f"s3://{STATE}/" + INVENTORY.format(bucket="site-l")
    run = run_of(s3, "site-l")
    plan_run(run, RunRequest("full-1", "site-l", ""), inventory_planner(location))
    shuffles = run.files("full-1").get_json("inventory.json")
    assert isinstance(shuffles, list)
    with pytest.raises((StateError, InventoryError), match=message):
        shuffle_item(run, shuffles[0] | change, location)


def test_the_reducer_refuses_run_files_that_do_not_match(s3: Any) -> None:
    site_with_pages(s3, "site-m", count=60)
    run = run_of(s3, "site-m")
    LocalExecutor(run, None).execute(RunRequest("full-1", "site-m", ""))
    run_files = run.files("full-1")
    items = run_files.get_json("shards.json")
    assert isinstance(items, list) and len(items) > 1
    # A summary written for another item's shards: refused, nothing published.
    other = run_files.get_json(f"summaries/{items[1]['shard']}.json")
    run_files.put_json(f"summaries/{items[0]['shard']}.json", other)
    with pytest.raises(StateError, match="is not of its shards"):
        reduce_run(run, "full-1")
    # Items of another run.
    run_files.put_json("shards.json", [value | {"run": "full-9"} for value in items])
    with pytest.raises(StateError, match="name another run"):
        reduce_run(run, "full-1")
