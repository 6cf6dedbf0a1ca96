"""The S3 Inventory source: finding the newest trusted report, streaming its CSV data files.

Every report is built here as AWS writes one (manifest.json, manifest.checksum, gzip CSV data
files with every field quoted and the key URL-encoded), then broken the ways a partial
delivery, a careless copy or a tamperer would break it.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote, quote_plus

import boto3
import pytest
from botocore.exceptions import ClientError
from hypothesis import given, settings
from hypothesis import strategies as st
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

import inventoryutil
from inventoryutil import encode, gzip_csv, md5
from s3util import Requests
from sitemill.errors import InventoryError, SourceError
from sitemill.sources import inventory, inventorycsv, inventorymanifest
from sitemill.sources.inventory import (
    InventoryFile,
    InventoryReport,
    decode_key,
    find_report,
    parse_inventory_location,
    read_rows,
    sample_report,
)

DEST = "inventory-dest"
SOURCE = "site-bucket"
CONFIG = f"inventory/{SOURCE}/daily/"  # <destination prefix>/<source bucket>/<config id>/
LOCATION = f"s3://{DEST}/{CONFIG}"
NOW = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)
VERSIONED = "Bucket, Key, VersionId, IsLatest, IsDeleteMarker, Size, LastModifiedDate, ETag"
ETAG = "d41d8cd98f00b204e9800998ecf8427e"
MODIFIED = "2026-11-20T01:02:03.000Z"
ODD_KEYS = [
    "a b.html",
    "a+b.html",
    "a%20b%2B.html",
    "100%.html",
    "café/ü.html",
    "日本語/ページ.html",
    "a,b.html",
    'say "hi".html',
    "it's.html",
    "line\nbreak.html",
    "cr\rtab\tbell\x07.html",
    "~*()!$&=;:@?#[].html",
    "  spaces  .html",
    "+",
]

Edit = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def aws() -> Iterator[Any]:
    """One moto S3 and one client for the module (a client costs some 30 ms to make)."""
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
            patch.setenv(name, "testing")
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        yield boto3.client("s3", region_name="us-east-1")


@pytest.fixture
def s3(aws: Any) -> Any:
    """The client, over an S3 holding only an empty DEST (the reset disposes of every key)."""
    backend().reset()
    aws.create_bucket(Bucket=DEST)
    return aws


@pytest.fixture
def requests(s3: Any) -> Iterator[Requests]:
    """The S3 calls of this test (the shared client forgets the hook after it)."""
    counted = Requests(s3)
    yield counted
    s3.meta.events.unregister("before-call.s3.*", counted._record)


def backend() -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"]


def put(key: str, body: bytes) -> None:
    """An object of DEST, put straight into moto's backend (no HTTP round trip)."""
    backend().put_object(DEST, key, body)


def row(key: str, size: int = 10, etag: str = ETAG, modified: str = MODIFIED) -> list[str]:
    """One row of SCHEMA."""
    return [SOURCE, encode(key), str(size), modified, etag, "STANDARD"]


def put_report(s3: Any, when: datetime, parts: list[list[list[str]]], **options: Any) -> str:
    """A report of SOURCE in DEST (inventoryutil.put_report); the manifest's key."""
    return inventoryutil.put_report(put, CONFIG, SOURCE, DEST, when, parts, **options)


def find(s3: Any, **options: Any) -> InventoryReport:
    return find_report(s3, LOCATION, SOURCE, now=NOW, **options)


def any_date(_: datetime) -> bool:
    """Every date trusted (the rule itself: test_inventory_trust.py)."""
    return True


def all_rows(s3: Any, report: InventoryReport, prefix: str = "") -> list[dict[str, Any]]:
    return [
        dict(obj)
        for item in report.files
        for obj in read_rows(s3, report, item, prefix=prefix, trusted=any_date)
    ]


def one_report(s3: Any, rows: list[list[str]], **options: Any) -> InventoryReport:
    put_report(s3, NOW - timedelta(hours=5), [rows], **options)
    return find(s3)


# --- finding the report ---------------------------------------------------------------------


def test_a_report_in_three_parts_lists_every_row(s3: Any, requests: Requests) -> None:
    parts = [[row(f"p{part}/{n}.html", size=n + 1) for n in range(4)] for part in range(3)]
    put_report(s3, NOW - timedelta(days=1), [[row("old.html")]])
    manifest = put_report(s3, NOW - timedelta(hours=5), parts)
    put(f"{CONFIG}hive/dt=2026-11-22-01-00/symlink.txt", b"x")
    report = find(s3)
    assert requests.summary() == {"ListObjectsV2": 1, "GetObject": 2}
    assert (report.bucket, report.manifest_key, report.source_bucket) == (DEST, manifest, SOURCE)
    assert report.created == NOW - timedelta(hours=5)
    assert report.columns == ("Bucket", "Key", "Size", "LastModifiedDate", "ETag", "StorageClass")
    assert len(report.files) == 3
    assert all(item.key.startswith(f"{CONFIG}data/") for item in report.files)
    rows = all_rows(s3, report)
    assert [obj["Key"] for obj in rows] == [f"p{p}/{n}.html" for p in range(3) for n in range(4)]
    assert rows[5] == {
        "Key": "p1/1.html",
        "Size": 2,
        "LastModified": datetime(2026, 11, 20, 1, 2, 3, tzinfo=UTC),
        "ETag": f'"{ETAG}"',
    }
    assert requests.count("GetObject") == 2 + 3  # one GET per data file


def test_a_tampered_newest_report_falls_back_to_the_one_before(
    s3: Any, caplog: pytest.LogCaptureFixture
) -> None:
    older = put_report(s3, NOW - timedelta(days=1), [[row("older.html")]])
    newest = put_report(s3, NOW - timedelta(hours=5), [[row("newest.html")]])
    manifest = json.loads(s3.get_object(Bucket=DEST, Key=newest)["Body"].read())
    manifest["files"][0]["key"] = f"{CONFIG}data/elsewhere.csv.gz"  # after its checksum
    put(newest, json.dumps(manifest).encode())
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        report = find(s3)
    assert report.manifest_key == older
    assert [obj["Key"] for obj in all_rows(s3, report)] == ["older.html"]
    assert f"s3://{DEST}/{newest}: manifest.checksum does not match" in caplog.text


def test_a_report_without_its_checksum_is_skipped(
    s3: Any, caplog: pytest.LogCaptureFixture
) -> None:
    older = put_report(s3, NOW - timedelta(days=1), [[row("older.html")]])
    newest = put_report(s3, NOW - timedelta(hours=5), [[row("new.html")]], checksum=False)
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        assert find(s3).manifest_key == older
    assert f"s3://{DEST}/{newest}: no manifest.checksum beside it" in caplog.text


def test_when_every_report_is_bad_one_line_names_the_newest(s3: Any) -> None:
    put_report(s3, NOW - timedelta(days=2), [[row("a.html")]], checksum=False)
    newest = put_report(s3, NOW - timedelta(days=1), [[row("b.html")]])
    put(newest.replace(".json", ".checksum"), b"0" * 32)
    with pytest.raises(InventoryError) as caught:
        find(s3)
    message = str(caught.value)
    assert message.startswith(f"s3://{DEST}/{newest}: manifest.checksum does not match; ")
    assert "no inventory report of the last 8 days can be used" in message
    assert "\n" not in message
    assert isinstance(caught.value, SourceError)


def test_an_older_good_report_past_max_age_is_not_used(s3: Any, requests: Requests) -> None:
    put_report(s3, NOW - timedelta(days=9), [[row("stale.html")]])
    put_report(s3, NOW - timedelta(hours=5), [[row("new.html")]], checksum=False)
    with pytest.raises(InventoryError, match=r"no manifest\.checksum beside it"):
        find(s3)
    assert requests.count("GetObject") == 1  # the stale one was never read
    assert find(s3, max_age=timedelta(days=10)).created == NOW - timedelta(days=9)


def test_a_report_older_than_max_age_is_refused(s3: Any) -> None:
    put_report(s3, NOW - timedelta(days=9), [[row("stale.html")]])
    with pytest.raises(InventoryError, match=r"2026-11-13T06-00Z, is over 8 days$"):
        find(s3)


@pytest.mark.parametrize("keys", [[], [f"{CONFIG}data/x.csv.gz", f"{CONFIG}hive/x/symlink.txt"]])
def test_no_report_at_all(s3: Any, keys: list[str]) -> None:
    for key in keys:
        put(key, b"x")
    with pytest.raises(InventoryError, match=rf"^{LOCATION}: no inventory report \("):
        find(s3)


def test_an_unreadable_destination_is_an_inventory_error(s3: Any) -> None:
    with pytest.raises(InventoryError, match=r"^cannot list s3://no-such-bucket/x/: NoSuchBucket"):
        find_report(s3, "s3://no-such-bucket/x/", SOURCE, now=NOW)


def set_file(field: str, value: Any) -> Edit:
    return lambda manifest: manifest["files"][0].__setitem__(field, value)


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda m: m.update(sourceBucket="other-bucket"), "sourceBucket is 'other-bucket', not"),
        (lambda m: m.update(fileFormat="ORC"), "fileFormat is 'ORC': only CSV can be read"),
        (lambda m: m.update(fileSchema="Bucket, Key, Size, LastModifiedDate"), "fileSchema"),
        (lambda m: m.update(fileSchema="Key, Key, Size, LastModifiedDate, ETag"), "repeats"),
        (lambda m: m.update(fileSchema=None), "fileSchema None lacks"),
        (lambda m: m.update(files=[]), "files is not a list of 1 to 100,000"),
        (lambda m: m.update(files={"key": "x"}), "files is not a list"),
        (lambda m: m.update(creationTimestamp="yesterday"), "is not epoch milliseconds"),
        (lambda m: m.update(creationTimestamp="9" * 15), "is not epoch milliseconds"),
        (lambda m: m.update(creationTimestamp=str(10**13)), "is in the future"),
        (lambda m: m.update(creationTimestamp="1514944800000"), "is before 2026-11-14T06:00Z"),
        (lambda m: m.pop("sourceBucket"), "sourceBucket is None"),
        (set_file("key", "inventory/secret.csv.gz"), "is not a .csv.gz file in inventory/site"),
        (set_file("key", f"{CONFIG}data/../../../secret.csv.gz"), "is not a .csv.gz file"),
        (set_file("key", f"{CONFIG}2026-11-21T01-00Z/x.csv.gz"), "is not a .csv.gz file"),
        (set_file("key", f"{CONFIG}data/x.json"), "is not a .csv.gz file"),
        (set_file("key", None), "the data file None is not"),
        (set_file("size", -1), "size -1 is not a byte count"),
        (set_file("size", True), "size True is not a byte count"),
        (set_file("size", "10"), "size '10' is not a byte count"),
        (set_file("MD5checksum", "xyz"), "MD5checksum 'xyz' is not an MD5"),
        (set_file("MD5checksum", None), "MD5checksum None is not an MD5"),
    ],
)
def test_a_manifest_that_is_wrong_is_refused(
    s3: Any, requests: Requests, edit: Edit, reason: str
) -> None:
    manifest = put_report(s3, NOW - timedelta(hours=5), [[row("a.html")]], edit=edit)
    with pytest.raises(InventoryError) as caught:
        find(s3)
    message = str(caught.value)
    assert message.startswith(f"s3://{DEST}/{manifest}: ")
    assert reason in message
    assert "\n" not in message
    assert requests.count("GetObject") == 2  # the checksum, the manifest: never a data file


@pytest.mark.parametrize(
    ("data", "reason"), [(b"{", "Expecting property name"), (b"[1]", "not a JSON object")]
)
def test_a_manifest_that_is_not_json_is_refused(s3: Any, data: bytes, reason: str) -> None:
    folder = f"{CONFIG}2026-11-22T01-00Z/"
    put(folder + "manifest.json", data)
    put(folder + "manifest.checksum", md5(data).encode() + b"\n")
    with pytest.raises(InventoryError, match=reason):
        find(s3)


def test_a_manifest_of_too_many_files_is_refused(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    put_report(s3, NOW - timedelta(hours=5), [[row("a.html")], [row("b.html")], [row("c.html")]])
    monkeypatch.setattr(inventorymanifest, "MAX_FILES", 2)
    with pytest.raises(InventoryError, match=r"manifest.json: files is not a list of 1 to 2 data"):
        find(s3)


def test_manifest_and_checksum_are_read_bounded(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = put_report(s3, NOW - timedelta(hours=5), [[row("a.html")]])
    monkeypatch.setattr(inventory, "MAX_MANIFEST_BYTES", 100)
    with pytest.raises(InventoryError, match=r"manifest.json: larger than 100 bytes"):
        find(s3)
    monkeypatch.undo()
    put(manifest.replace(".json", ".checksum"), b" " * 1025)
    with pytest.raises(InventoryError, match=r"manifest.checksum: larger than 1,024 bytes"):
        find(s3)


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("s3://dest/inventory/site/daily/", ("dest", "inventory/site/daily/")),
        ("s3://dest/inventory/site/daily", ("dest", "inventory/site/daily/")),
        (" s3://dest// ", ("dest", "")),
        ("s3://dest", ("dest", "")),
    ],
)
def test_parse_location(location: str, expected: tuple[str, str]) -> None:
    assert parse_inventory_location(location) == expected


@pytest.mark.parametrize(
    "location", ["dest/inventory/", "https://dest/x/", "s3://Dest/x/", "s3://a..b/x/", "s3://d/\n/"]
)
def test_parse_location_refuses(location: str) -> None:
    with pytest.raises(InventoryError):
        parse_inventory_location(location)


# --- reading its rows -----------------------------------------------------------------------


def test_odd_keys_round_trip(s3: Any) -> None:
    report = one_report(s3, [row(key) for key in ODD_KEYS])
    assert [obj["Key"] for obj in all_rows(s3, report)] == ODD_KEYS


@pytest.mark.parametrize(
    ("field", "key"),
    [
        ("a+b", "a b"),
        ("a%2Bb", "a+b"),
        ("a%20b", "a b"),
        ("100%25", "100%"),
        ("caf%C3%A9", "café"),
        ("a%2Cb%22c%22", 'a,b"c"'),
        ("line%0Abreak%0D", "line\nbreak\r"),
        ("docs%2Fa.html", "docs/a.html"),
        ("docs/a.html", "docs/a.html"),
        ("%FF%FE", "\udcff\udcfe"),  # no UTF-8: the bytes kept, as surrogates
    ],
)
def test_decode_key(field: str, key: str) -> None:
    assert decode_key(field) == key


@settings(max_examples=200, deadline=None)
@given(st.text(), st.sampled_from(["", "*", "/", "*/~"]), st.booleans())
def test_decode_key_undoes_the_form_encoding(key: str, safe: str, plus: bool) -> None:
    # Whatever AWS leaves unencoded (the docs do not say), decoding gives the key back; a
    # space may come as '+' or '%20'.
    encoded = quote_plus(key, safe=safe) if plus else quote(key, safe=safe)
    assert decode_key(encoded) == key


@settings(max_examples=200, deadline=None)
@given(st.binary())
def test_decode_key_keeps_any_bytes(raw: bytes) -> None:
    assert decode_key(quote_plus(raw)).encode("utf-8", "surrogateescape") == raw


def test_older_versions_and_delete_markers_are_left_out(s3: Any) -> None:
    def versioned(key: str, latest: str, deleted: str) -> list[str]:
        return [SOURCE, encode(key), "v1", latest, deleted, "5", MODIFIED, ETAG]

    rows = [
        versioned("kept.html", "true", "false"),
        versioned("old-version.html", "false", "false"),
        [*versioned("deleted.html", "true", "true")[:5], "", "", ""],
        versioned("caps.html", "True", "False"),
    ]
    report = one_report(s3, rows, schema=VERSIONED)
    assert [obj["Key"] for obj in all_rows(s3, report)] == ["kept.html", "caps.html"]
    put_report(
        s3, NOW - timedelta(hours=4), [[versioned("a.html", "yes", "false")]], schema=VERSIONED
    )
    report = find(s3)
    with pytest.raises(InventoryError, match=r": row 1: IsLatest 'yes' is neither true nor false$"):
        all_rows(s3, report)


def test_only_keys_under_the_prefix(s3: Any) -> None:
    keys = ["docs/a.html", "docs-old/b.html", "docs/sub/c.html", "index.html", "doc s/d.html"]
    report = one_report(s3, [row(key) for key in keys])
    assert [obj["Key"] for obj in all_rows(s3, report, "docs/")] == [
        "docs/a.html",
        "docs/sub/c.html",
    ]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ([SOURCE, "a.html", "1"], "3 fields where fileSchema names 6"),
        ([], "0 fields where fileSchema names 6"),
        (row("a.html", etag='x"y'), "ETag 'x\"y' is not an entity tag"),
        (row("a.html", etag=""), "ETag '' is not an entity tag"),
        ([SOURCE, "a.html", "-1", MODIFIED, ETAG, "STANDARD"], "Size '-1' is not a byte count"),
        ([SOURCE, "a.html", "", MODIFIED, ETAG, "STANDARD"], "Size '' is not a byte count"),
        (
            row("a.html", modified="yesterday"),
            "LastModifiedDate 'yesterday' is not an ISO 8601 time with its zone",
        ),
        (
            row("a.html", modified="2026-11-20T01:02:03"),
            "LastModifiedDate '2026-11-20T01:02:03' is not an ISO 8601 time with its zone",
        ),
        ([SOURCE, "", "1", MODIFIED, ETAG, "STANDARD"], "an empty key"),
    ],
)
def test_a_malformed_row_names_the_file_and_row(s3: Any, bad: list[str], reason: str) -> None:
    report = one_report(s3, [row("a.html"), bad, row("c.html")])
    with pytest.raises(InventoryError) as caught:
        all_rows(s3, report)
    assert str(caught.value) == f"s3://{DEST}/{report.files[0].key}: row 2: {reason}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (b'"a","b\n', "row 1: not CSV (unexpected end of data)"),
        (b'"site-bucket","\xff","1","x","y","z"\n', "row 1: 'utf-8' codec can't decode"),
        (b'"a","b","1","' + MODIFIED.encode() + b'","e","f"\n\n', "row 2: 0 fields"),
    ],
)
def test_lines_that_are_no_csv_rows(s3: Any, text: bytes, reason: str) -> None:
    report = raw_report(s3, gzip.compress(text))
    with pytest.raises(InventoryError, match=re.escape(reason)):
        all_rows(s3, report)


def raw_report(s3: Any, body: bytes, size: int | None = None) -> InventoryReport:
    """A report of one data file holding ``body`` as is."""
    report = one_report(s3, [row("placeholder.html")])
    put(report.files[0].key, body)
    item = InventoryFile(report.files[0].key, len(body) if size is None else size, md5(body))
    return InventoryReport(
        report.bucket, report.manifest_key, SOURCE, report.created, report.columns, (item,)
    )


def test_a_line_over_the_bound_is_refused(s3: Any) -> None:
    long_key = "\u00e9" * 512  # (S3's longest key, 1,024 bytes: 3,072 characters encoded)
    report = one_report(s3, [row("a.html"), row(long_key), row("b" * 9000)])
    with pytest.raises(InventoryError, match=r": row 3 is over 8,192 bytes$"):
        all_rows(s3, report)


def test_a_file_with_no_line_break_is_refused_early(s3: Any) -> None:
    report = raw_report(s3, gzip.compress(b"x" * 3_000_000))
    rows = read_rows(s3, report, report.files[0], trusted=any_date)
    with pytest.raises(InventoryError, match=r": row 1 is over 8,192 bytes$"):
        next(rows)


def test_inflating_never_holds_more_than_a_block() -> None:
    bomb = gzip.compress(b"\n" * 4_000_000)  # 4 MB from about 4 KB
    sizes = [len(text) for text in inventorycsv._inflate(iter([bomb]), "bomb")]
    assert sum(sizes) == 4_000_000
    assert max(sizes) <= inventorycsv.BLOCK_BYTES


def test_concatenated_gzip_members_are_one_file(s3: Any) -> None:
    body = gzip_csv([row("a.html")]) + gzip_csv([row("b.html"), row("c.html")])
    report = raw_report(s3, body)
    assert [obj["Key"] for obj in all_rows(s3, report)] == ["a.html", "b.html", "c.html"]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (gzip_csv([row("a.html")] * 50)[:-9], "the gzip stream is cut short"),
        (b"", "the gzip stream is cut short"),
        (b"not gzip at all", "not gzip"),
    ],
)
def test_a_data_file_that_is_no_whole_gzip(s3: Any, body: bytes, reason: str) -> None:
    report = raw_report(s3, body)
    with pytest.raises(InventoryError, match=reason):
        all_rows(s3, report)


@pytest.mark.parametrize(
    ("rows", "reason", "before"),
    [
        (4, r"more than the [0-9,]+ bytes listed$", 0),  # as soon as it passes its size
        (2, r": [0-9,]+ bytes, where its manifest says [0-9,]+$", 2),  # at its end
    ],
)
def test_a_replaced_data_file_is_refused(s3: Any, rows: int, reason: str, before: int) -> None:
    report = one_report(s3, [row(f"{n}.html") for n in range(3)])
    item = report.files[0]
    put(item.key, gzip_csv([row(f"{n}.html") for n in range(rows)]))
    got: list[str] = []
    with pytest.raises(InventoryError, match=reason):
        got.extend(obj["Key"] for obj in read_rows(s3, report, item, trusted=any_date))
    assert len(got) == before  # what came before the error: the caller discards it


def test_a_data_file_whose_md5_does_not_match(s3: Any) -> None:
    edit = set_file("MD5checksum", "0" * 32)
    report = one_report(s3, [row(f"{n}.html") for n in range(3)], edit=edit)
    got: list[str] = []
    with pytest.raises(InventoryError) as caught:
        got.extend(obj["Key"] for obj in read_rows(s3, report, report.files[0], trusted=any_date))
    message = f"s3://{DEST}/{report.files[0].key}: its MD5 does not match the manifest's"
    assert str(caught.value).startswith(message)
    assert got == ["0.html", "1.html", "2.html"]  # yielded before its end: the caller discards


def test_a_missing_data_file_is_an_inventory_error(s3: Any) -> None:
    report = one_report(s3, [row("a.html")])
    s3.delete_object(Bucket=DEST, Key=report.files[0].key)
    with pytest.raises(InventoryError, match=r"^cannot read s3://.*: NoSuchKey \(HTTP 404\)") as e:
        all_rows(s3, report)
    assert isinstance(e.value.__cause__, ClientError)


def test_read_rows_refuses_a_file_outside_the_report(s3: Any, requests: Requests) -> None:
    report = one_report(s3, [row("a.html")])
    outside = InventoryFile("inventory/secret.csv.gz", 10, "0" * 32)
    with pytest.raises(InventoryError, match="not a data file of"):
        list(read_rows(s3, report, outside, trusted=any_date))
    assert requests.count("GetObject") == 2  # find_report's: never the file outside


# --- the planner's sample ---------------------------------------------------------------------


def test_the_sample_is_uniform_over_files_that_each_hold_one_sorted_range(s3: Any) -> None:
    # Three files of 3,000 keys each, each file a range of its own (a/, b/, c/): a sample of
    # each file's first rows would see only the start of every range.
    parts = [[row(f"{folder}/{n:05d}.html") for n in range(3_000)] for folder in "abc"]
    put_report(s3, NOW - timedelta(hours=5), parts)
    report = find(s3)
    whole = sample_report(s3, report, prefix="", target=100)
    keys = [key for _, key in whole.keys]
    assert 100 <= len(keys) <= 200 and whole.rows == 9_000
    assert 8_500 <= whole.estimate() <= 9_500
    assert [sum(key.startswith(folder) for key in keys) for folder in "abc"] == [len(keys) // 3] * 3
    one = sample_report(s3, report, prefix="b/", target=100)
    assert 2_800 <= one.estimate() <= 3_200 and all(key.startswith("b/") for _, key in one.keys)


def test_the_sample_checks_every_data_file(s3: Any) -> None:
    put_report(s3, NOW - timedelta(hours=5), [[row("a.html")], [row("b.html")]])
    report = find(s3)
    key = report.files[1].key
    backend().put_object(DEST, key, gzip_csv([row("c.html")]))  # (another file's bytes)
    with pytest.raises(InventoryError, match=r"0001-0b1e6c2a\.csv\.gz"):
        sample_report(s3, report, prefix="", target=10)
