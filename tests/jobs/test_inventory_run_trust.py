"""A distributed rebuild from an S3 Inventory report trusts no file of the state bucket (issue 39):
a row's date is a page's lastmod only when every remembered date would be (docs/distributed.md, S3
Inventory), in the report and in the shuffle's fragments alike, and a fragment is read bounded and
checked.
"""

from __future__ import annotations

import gzip
import json
import logging
import random
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

import inventoryutil
from outputlist import DistributedRun
from s3util import BASE, PAGE, make_config, moto_bucket
from sitemill.errors import IncompleteRunError, InventoryError, StateError
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.scaleout import _distfragments as distfragments
from sitemill.scaleout.distplan import RunRequest, plan_run
from sitemill.scaleout.distshuffle import fragment_listing, inventory_planner, shuffle_item
from sitemill.scaleout.executor import LocalExecutor
from sitemill.scaleout.runfiles import Item, item_from_json
from xsd import assert_xsd_valid

STATE = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
INVENTORY = "inventory/{bucket}/sitemill/"
MODIFIED = datetime(2026, 11, 20, 8, 0)  # (moto's keys: naive UTC)
URL = re.compile(rb"<url><loc>([^<]*)</loc>(?:<lastmod>([^<]*)</lastmod>)?")


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE)
        yield client


def backend() -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"]


def site(s3: Any, bucket: str, count: int = 40) -> list[str]:
    s3.create_bucket(Bucket=bucket)
    keys = [f"s{n % 4}/p{n:04d}.html" for n in range(count)]
    for n, key in enumerate(keys):
        stored = backend().put_object(bucket, key, PAGE)
        stored.last_modified = MODIFIED + timedelta(minutes=11 * n)  # uploaded one by one
    return keys


def put_inventory(s3: Any, bucket: str, dates: dict[str, str] | None = None) -> str:
    """A report of every object of ``bucket`` over 3 data files; ``dates`` replaces the
    LastModifiedDate of some keys."""
    rows = [
        [bucket, inventoryutil.encode(o["Key"]), str(o["Size"]),
         (dates or {}).get(o["Key"], o["LastModified"].strftime("%Y-%m-%dT%H:%M:%S.000Z")),
         o["ETag"].strip('"'), "STANDARD"]
        for o in s3.list_objects_v2(Bucket=bucket)["Contents"]
    ]  # fmt: skip
    random.Random(3).shuffle(rows)

    def put(key: str, data: bytes) -> None:
        backend().put_object(STATE, key, data)

    folder = INVENTORY.format(bucket=bucket)
    split = [rows[index::3] for index in range(3)]
    return inventoryutil.put_report(put, folder, bucket, STATE, NOW - timedelta(hours=6), split)


def location(bucket: str) -> str:
    return f"s3://{STATE}/" + INVENTORY.format(bucket=bucket)


def run_of(s3: Any, bucket: str) -> DistributedRun:
    config = make_config(
        shards="on", shard_fill=10, state=f"s3://{STATE}/{bucket}/sitemill-state.json.gz"
    )
    site_ = BucketSite(bucket)
    store = open_partitioned(config, s3, site_)
    assert store is not None
    return DistributedRun(config, s3, site_, store, STATE, NOW)


def inventory_run(s3: Any, bucket: str, name: str) -> Any:
    planner = inventory_planner(location(bucket), group_rows=15, sample_rows=100)
    executor = LocalExecutor(run_of(s3, bucket), None, threads=2, inventory=planner)
    return executor.execute(RunRequest(name, bucket, ""), location(bucket))


def manifest(s3: Any, bucket: str, run: str) -> dict[str, Any]:
    key = f"{bucket}/sitemill-state/runs/{run}/run.json"
    return dict(json.loads(s3.get_object(Bucket=STATE, Key=key)["Body"].read()))


def published(s3: Any, bucket: str) -> dict[bytes, bytes | None]:
    """Every <url> of the bucket's children: loc -> lastmod (None: none written)."""
    found: dict[bytes, bytes | None] = {}
    for o in s3.list_objects_v2(Bucket=bucket, Prefix="sitemap-")["Contents"]:
        data = s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
        assert_xsd_valid(data)
        found.update((loc, lastmod or None) for loc, lastmod in URL.findall(data))
    return found


# --- item 1: a row's LastModifiedDate ---------------------------------------------------------

BAD_DATES = {
    "s1/p0001.html": "2999-01-01T00:00:00.000Z",
    "s2/p0002.html": "1970-01-01T00:00:00.000Z",
    "s3/p0003.html": "9999-12-31T23:59:59.000-14:00",  # (no datetime in UTC)
}


def test_untrusted_report_dates_list_their_pages_undated(s3: Any, caplog: Any) -> None:
    keys = site(s3, "site-a")
    put_inventory(s3, "site-a", BAD_DATES)
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        reduced = inventory_run(s3, "site-a", "full-1")
    assert manifest(s3, "site-a", "full-1")["source"] == "inventory"
    assert reduced.verdict["status"] == "published" and reduced.verdict["urls"] == len(keys)
    urls = published(s3, "site-a")
    assert len(urls) == len(keys)  # (no page dropped)
    for key in keys:
        lastmod = urls[BASE.encode() + key.encode()]
        if key in BAD_DATES:
            assert lastmod is None, key  # never 2999, never 1970
        else:
            assert lastmod is not None and lastmod.startswith(b"2026-11-20"), key
    assert b"2999" not in b"".join(v or b"" for v in urls.values())
    warned = [r.getMessage() for r in caplog.records if "LastModifiedDate" in r.getMessage()]
    assert 1 <= len(warned) <= 3  # one a data file (one a shuffle item), with its count
    assert sum(int(re.search(r": (\d+) rows", m)[1]) for m in warned) == 3  # type: ignore[index]
    # The shuffle items say how many rows they listed undated.
    files = run_of(s3, "site-a").files("full-1")
    markers = [files.get_json(f"shuffled/{name}") for name in files.names("shuffled")]
    assert sum(m["undated"] for m in markers if isinstance(m, dict)) == 3
    # The next rebuild lists the bucket (the plan exists) and lists those pages again. (With
    # the objects' times spread, as a first run now needs them to date any page, the wing
    # keeps their listing undated: the same on main; left to the scale-out wing.)
    LocalExecutor(run_of(s3, "site-a"), None).execute(RunRequest("full-2", "site-a", ""))
    assert manifest(s3, "site-a", "full-2")["source"] == "list"
    again = published(s3, "site-a")
    for key in BAD_DATES:
        assert BASE.encode() + key.encode() in again, key
        assert not (again[BASE.encode() + key.encode()] or b"").startswith((b"2999", b"1970"))


def planned(s3: Any, bucket: str, dates: dict[str, str] | None = None) -> tuple[Any, list[Item]]:
    """A planned and shuffled run "full-1"; its render items."""
    site(s3, bucket)
    put_inventory(s3, bucket, dates)
    run = run_of(s3, bucket)
    planner = inventory_planner(location(bucket), group_rows=15, sample_rows=100)
    assert plan_run(run, RunRequest("full-1", bucket, ""), planner)["inventory"] is not None
    files = run.files("full-1")
    shuffles = files.get_json("inventory.json")
    assert isinstance(shuffles, list)
    for event in shuffles:
        shuffle_item(run, event, location(bucket))
    items = files.get_json("shards.json")
    assert isinstance(items, list) and len(items) > 1
    return run, [item_from_json(value) for value in items]


def fragments(s3: Any, bucket: str, group: int = 0) -> list[str]:
    prefix = f"{bucket}/sitemill-state/runs/full-1/fragments/{group:05d}/"
    return [o["Key"] for o in s3.list_objects_v2(Bucket=STATE, Prefix=prefix)["Contents"]]


def rewrite(s3: Any, key: str, edit: Callable[[list[Any]], list[Any]]) -> None:
    """Each line of a fragment through ``edit``."""
    text = gzip.decompress(s3.get_object(Bucket=STATE, Key=key)["Body"].read())
    lines = [json.dumps(edit(json.loads(line))) for line in text.splitlines()]
    backend().put_object(STATE, key, gzip.compress(("\n".join(lines) + "\n").encode()))


def test_the_shuffle_writes_untrusted_dates_as_none(s3: Any) -> None:
    run, items = planned(s3, "site-b", BAD_DATES)
    files = run.files("full-1")
    markers = [files.get_json(f"shuffled/{name}") for name in files.names("shuffled")]
    assert sum(m["undated"] for m in markers if isinstance(m, dict)) == len(BAD_DATES)
    rows = [row for item in items for row in fragment_listing(run, item)]
    assert len(rows) == 40
    undated = sorted(row["Key"] for row in rows if "LastModified" not in row)
    assert undated == sorted(BAD_DATES)
    for key in fragments(s3, "site-b") + fragments(s3, "site-b", 1):
        text = gzip.decompress(s3.get_object(Bucket=STATE, Key=key)["Body"].read())
        assert b"2999" not in text and b"1970" not in text and b"9999" not in text


@pytest.mark.parametrize(
    "modified",
    [
        "2999-01-01T00:00:00+00:00",
        "1970-01-01T00:00:00+00:00",
        "2026-11-23T12:05:01+00:00",  # (one second past the clock skew)
        "9999-12-31T23:59:59-14:00",
        "2026-11-20T08:00:00",  # (no zone)
        "yesterday",
    ],
)
def test_an_untrusted_date_in_a_fragment_is_dropped(s3: Any, modified: str, caplog: Any) -> None:
    """A fragment is a file of the state bucket: its dates are checked again when read."""
    run, items = planned(s3, "site-c")
    for key in fragments(s3, "site-c"):
        rewrite(s3, key, lambda row: [row[0], row[1], modified, row[3]])
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        rows = list(fragment_listing(run, items[0]))
    assert rows and all("LastModified" not in row for row in rows)
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert f"{len(rows)} rows of group 0" in warning and repr(modified[:40]) in warning
    # Within the bound, the date is kept.
    for key in fragments(s3, "site-c"):
        rewrite(s3, key, lambda row: [row[0], row[1], "2026-11-23T12:05:00+00:00", row[3]])
    when = datetime(2026, 11, 23, 12, 5, tzinfo=UTC)
    assert all(row["LastModified"] == when for row in fragment_listing(run, items[0]))


# --- fragments are read bounded and checked (item 1: a row's date travels through them) -------


def lines_of(*rows: object) -> bytes:
    return gzip.compress(b"".join(json.dumps(row).encode() + b"\n" for row in rows))


ETAG = '"d41d8cd98f00b204e9800998ecf8427e"'
MOMENT = "2026-11-20T08:00:00+00:00"


BROKEN = [
    (b"not gzip", "not gzip"),
    (gzip.compress(b'["s0/a.html", 1, null, "\\"e\\""]'), "not one whole gzip member"),
    (lines_of(["s0/a.html", 1, None, ETAG])[:-6], "not one whole gzip member"),
    (lines_of(["s0/a.html", 1, None, ETAG]) * 2, "not one whole gzip member"),
    (gzip.compress(b"{\n"), "line 1: not JSON"),
    (gzip.compress(b"[" * 5000 + b"\n"), "line 1: not JSON"),
    (gzip.compress(b"\n"), "line 1: not JSON"),
    (lines_of({"path": "s0/a.html"}), "line 1: not a row"),
    (lines_of(["s0/a.html", 1, None]), "line 1: not a row"),
    (lines_of(["s0/a.html", "1", None, ETAG]), "line 1: no byte count"),
    (lines_of(["s0/a.html", True, None, ETAG]), "line 1: no byte count"),
    (lines_of(["s0/a.html", -1, None, ETAG]), "line 1: no byte count"),
    (lines_of(["s0/a.html", 10**21, None, ETAG]), "line 1: no byte count"),
    (lines_of(["s0/a.html", 1, 5, ETAG]), "line 1: no time"),
    (lines_of(["s0/a.html", 1, None, "e"]), "line 1: no entity tag"),
    (lines_of(["s0/a.html", 1, None, '"a b"']), "line 1: no entity tag"),
    (lines_of(["", 1, None, ETAG]), "line 1: no key"),
    (lines_of(["s0/" + "x" * 1100, 1, None, ETAG]), "line 1: no key"),
    (lines_of(["s0/\ud800.html", 1, None, ETAG]), "line 1: no key"),
    (lines_of(["s0/a.html", 1, MOMENT, ETAG], [None, 1, None, ETAG]), "line 2: no key"),
    (lines_of(["s0/a.html", 1, None, ETAG + " " * 9000]), "line 1: over 8,192 bytes"),
]


@pytest.fixture(scope="module")
def shuffled() -> tuple[dict[str, bytes], list[Item], str]:
    """What planned(…, "site-d") leaves in the state bucket (key -> bytes), its render items and
    the first fragment of group 0: planned once for the broken fragments below, each of which
    replaces that fragment in a copy of it (planned again for each, the same run every time:
    their CPU, 21 tests, 5.6 -> 3.0 s with pytest's start)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        bucket = moto_bucket(monkeypatch)
        s3 = next(bucket)
        try:
            s3.create_bucket(Bucket=STATE)
            _, items = planned(s3, "site-d")
            kept = {
                o["Key"]: s3.get_object(Bucket=STATE, Key=o["Key"])["Body"].read()
                for page in s3.get_paginator("list_objects_v2").paginate(Bucket=STATE)
                for o in page.get("Contents", ())
            }
            return kept, items, fragments(s3, "site-d")[0]
        finally:
            bucket.close()  # (moto's data gone before the tests start their own)


@pytest.mark.parametrize(
    ("data", "message"), BROKEN, ids=[f"{n}-{message}" for n, (_, message) in enumerate(BROKEN)]
)
def test_a_broken_fragment_fails_its_item(
    s3: Any, shuffled: tuple[dict[str, bytes], list[Item], str], data: bytes, message: str
) -> None:
    kept, items, first = shuffled
    for key, value in kept.items():
        backend().put_object(STATE, key, value)
    site(s3, "site-d")
    backend().put_object(STATE, first, data)
    with pytest.raises(StateError, match=re.escape(message)):
        list(fragment_listing(run_of(s3, "site-d"), items[0]))


def test_a_row_outside_its_groups_range_fails_its_item(s3: Any) -> None:
    """A tampered fragment (or groups.json) cannot put a key in another group's shards."""
    run, items = planned(s3, "site-e")
    outside = items[1].afters[0] + "-next.html"  # (after the boundary: group 1's)
    backend().put_object(STATE, fragments(s3, "site-e")[0], lines_of([outside, 1, None, ETAG]))
    with pytest.raises(StateError, match="a key outside the group's range"):
        list(fragment_listing(run, items[0]))
    first = fragments(s3, "site-e", 1)[0]
    backend().put_object(STATE, first, lines_of([items[1].afters[0], 1, None, ETAG]))
    with pytest.raises(StateError, match="a key outside the group's range"):
        list(fragment_listing(run, items[1]))  # (the boundary itself is the group before's)


@pytest.mark.parametrize("name", ["x.jsonl.gz", "000099-0000.jsonl.gz", "000000-0000.json"])
def test_a_fragment_the_shuffle_never_writes_fails_its_item(s3: Any, name: str) -> None:
    run, items = planned(s3, "site-f")
    key = f"site-f/sitemill-state/runs/full-1/fragments/00000/{name}"
    backend().put_object(STATE, key, lines_of(["s0/a.html", 1, None, ETAG]))
    with pytest.raises(StateError, match="is no fragment the shuffle writes"):
        list(fragment_listing(run, items[0]))


def test_a_fragment_is_inflated_within_bounds(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gzip bomb (a few KB inflating to gigabytes) stops at what a fragment may hold."""
    run, items = planned(s3, "site-g")
    monkeypatch.setattr(distfragments, "_FRAGMENT_TEXT", 1024 * 1024)
    bomb = gzip.compress(b"\n" * (8 * 1024 * 1024))
    backend().put_object(STATE, fragments(s3, "site-g")[0], bomb)
    with pytest.raises(StateError, match="more than 1,048,576 bytes inflated"):
        list(fragment_listing(run, items[0]))


def test_a_fragment_is_read_within_bounds(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    run, items = planned(s3, "site-h")
    monkeypatch.setattr(distfragments, "_FRAGMENT_BYTES", 100)
    with pytest.raises(StateError, match="larger than 100 bytes"):
        list(fragment_listing(run, items[0]))


def test_fragments_as_the_shuffle_writes_them_are_read(s3: Any) -> None:
    """The bounds hold for what the shuffle writes: odd keys, sizes, every group."""
    run, items = planned(s3, "site-i")
    rows = [row for item in items for row in fragment_listing(run, item)]
    assert [row["Key"] for row in rows] == sorted(row["Key"] for row in rows)
    assert len(rows) == 40 and all(row["LastModified"].year == 2026 for row in rows)


def test_the_shuffle_done_count_is_still_checked(s3: Any) -> None:
    run, items = planned(s3, "site-j")
    s3.delete_object(Bucket=STATE, Key="site-j/sitemill-state/runs/full-1/shuffled/000001.json")
    with pytest.raises(IncompleteRunError, match="2 of 3 inventory files were shuffled"):
        list(fragment_listing(run, items[0]))


# --- item 2: inventory-refused.json -----------------------------------------------------------

REFUSED = "inventory-refused.json"


def refused_key(bucket: str) -> str:
    return f"{bucket}/sitemill-state/{REFUSED}"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"not json", "not JSON"),
        (b"\xff\xfe[]", "not ASCII JSON"),
        (b"[" * 100_000, "nested too deep"),
        (b'{"keys": []}', "not a list of at most 64 keys"),
        (b'"x"', "not a list of at most 64 keys"),
        (b"[1, 2]", "not a list of at most 64 keys"),
        (b'["", "x"]', "not a list of at most 64 keys"),
        (json.dumps(["x"] * 65).encode(), "not a list of at most 64 keys"),
        (json.dumps(["x" * 1025]).encode(), "not a list of at most 64 keys"),
        (b"[" + b"[]," * 100_000 + b"[]]", "not a list of at most 64 keys"),
        (b'["' + b"x" * (1024 * 1024) + b'"]', "larger than 1,048,576 bytes"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_refused_list_that_is_no_list_is_ignored(
    s3: Any, data: bytes, why: str, caplog: Any
) -> None:
    """The planner reads inventory-refused.json in every plan: a file there that is not the
    list sitemill writes is a warning and no refusal, never a plan that fails."""
    keys = site(s3, "site-r")
    put_inventory(s3, "site-r")
    backend().put_object(STATE, refused_key("site-r"), data)
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        reduced = inventory_run(s3, "site-r", "full-1")
    assert manifest(s3, "site-r", "full-1")["source"] == "inventory"
    assert reduced.verdict["status"] == "published" and reduced.verdict["urls"] == len(keys)
    (warning,) = [r.getMessage() for r in caplog.records if REFUSED in r.getMessage()]
    assert why in warning and "taken as none" in warning


def test_a_refused_list_still_refuses_its_reports(s3: Any) -> None:
    site(s3, "site-s")
    manifest_key = put_inventory(s3, "site-s")
    backend().put_object(STATE, refused_key("site-s"), json.dumps([manifest_key]).encode())
    inventory_run(s3, "site-s", "full-1")
    assert manifest(s3, "site-s", "full-1")["source"] == "list"


def test_a_shuffle_refusing_a_report_replaces_a_broken_list(s3: Any) -> None:
    """A data file that fails its MD5 in the shuffle refuses its report: over a broken file
    too (it raised JSONDecodeError there, hiding the InventoryError)."""
    site(s3, "site-t")
    manifest_key = put_inventory(s3, "site-t")
    run = run_of(s3, "site-t")
    plan_run(run, RunRequest("full-1", "site-t", ""), inventory_planner(location("site-t")))
    document = json.loads(s3.get_object(Bucket=STATE, Key=manifest_key)["Body"].read())
    data_key = document["files"][0]["key"]
    data = bytearray(s3.get_object(Bucket=STATE, Key=data_key)["Body"].read())
    data[-8] ^= 1  # (its gzip CRC-32: same size, another MD5)
    backend().put_object(STATE, data_key, bytes(data))
    backend().put_object(STATE, refused_key("site-t"), b"\x00garbage")
    shuffles = run.files("full-1").get_json("inventory.json")
    assert isinstance(shuffles, list)
    with pytest.raises(InventoryError):
        shuffle_item(run, shuffles[0], location("site-t"))
    stored = s3.get_object(Bucket=STATE, Key=refused_key("site-t"))["Body"].read()
    assert json.loads(stored) == [manifest_key]


# --- item 3: the run's other inventory files ------------------------------------------------


def shuffle_items(run: Any, bucket: str) -> list[dict[str, Any]]:
    planner = inventory_planner(location(bucket), group_rows=15, sample_rows=100)
    plan_run(run, RunRequest("full-1", bucket, ""), planner)
    shuffles = run.files("full-1").get_json("inventory.json")
    assert isinstance(shuffles, list)
    return shuffles


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"columns": ["Bucket", "Size", "LastModifiedDate", "ETag"]}, "lacks Key/Size"),
        ({"columns": ["Key", "Key", "Size", "LastModifiedDate", "ETag"]}, "or repeats"),
        ({"columns": ["Key", "Size", "LastModifiedDate", "ETag", *"x" * 100]}, "more than 64"),
        ({"columns": ["Key", "Size", "LastModifiedDate", "ETag", 5]}, "no valid columns"),
        ({"columns": "Key,Size,LastModifiedDate,ETag"}, "no valid columns"),
        ({"index": True}, "no valid file index"),
        ({"size": -1}, "no valid size and MD5"),
        ({"size": True}, "no valid size and MD5"),
        ({"md5": "xyz"}, "no valid size and MD5"),
    ],
)
def test_a_shuffle_item_that_is_not_the_planners_is_refused(
    s3: Any, change: dict[str, Any], message: str
) -> None:
    """An item is a file of the state bucket (inventory.json): a broken one fails its
    shuffle with a StateError, and never marks the report refused (a KeyError, or an
    InventoryError that refused a good report, before)."""
    site(s3, "site-u")
    put_inventory(s3, "site-u")
    run = run_of(s3, "site-u")
    shuffles = shuffle_items(run, "site-u")
    with pytest.raises(StateError, match=message):
        shuffle_item(run, shuffles[0] | change, location("site-u"))
    assert "Contents" not in s3.list_objects_v2(Bucket=STATE, Prefix=refused_key("site-u"))


@pytest.mark.parametrize(
    "afters",
    [
        ["", "s2/", "s1/"],  # (not ascending: rows would go to other groups)
        ["", "s1/", "s1/"],
        ["", 5],
        ["", "x" * 1100],
        ["", "\ud800"],
    ],
)
def test_groups_that_are_no_ascending_keys_fail_the_shuffle(s3: Any, afters: list[Any]) -> None:
    site(s3, "site-v")
    put_inventory(s3, "site-v")
    run = run_of(s3, "site-v")
    shuffles = shuffle_items(run, "site-v")
    run.files("full-1").put_json("groups.json", {"afters": afters, "files": 3})
    with pytest.raises(StateError, match="its groups are no ascending keys"):
        shuffle_item(run, shuffles[0], location("site-v"))


@pytest.mark.parametrize("stray", ["extra.json", "000099.json", "000000.json.bak"])
def test_only_the_shuffles_own_markers_count(s3: Any, stray: str) -> None:
    """A stray object under shuffled/ never stands in for a file that was not shuffled (its
    rows would be missing from every group: pages dropped without a word)."""
    run, items = planned(s3, "site-w")
    folder = "site-w/sitemill-state/runs/full-1/shuffled/"
    s3.delete_object(Bucket=STATE, Key=folder + "000001.json")
    backend().put_object(STATE, folder + stray, b"{}")
    with pytest.raises(IncompleteRunError, match="2 of 3 inventory files were shuffled"):
        list(fragment_listing(run, items[0]))


@pytest.mark.parametrize("count", [None, True, 0, "3"])
def test_a_groups_file_count_that_is_no_count_fails(s3: Any, count: object) -> None:
    run, items = planned(s3, "site-x")
    files = run.files("full-1")
    groups = files.get_json("groups.json")
    assert isinstance(groups, dict)
    files.put_json("groups.json", groups | {"files": count})
    with pytest.raises(StateError, match="names no count of inventory files"):
        list(fragment_listing(run, items[0]))
