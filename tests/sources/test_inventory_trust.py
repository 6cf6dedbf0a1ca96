"""An S3 Inventory report is input from outside (issue 39): a row's LastModifiedDate dates a page
only when every remembered date would (docs/distributed.md, S3 Inventory: the rule the shuffle gives
read_rows, sitemill.scaleout._distfragments.trusted_time), and no date, however odd, fails a read;
whatever a report's folders, manifest or rows say, reading it costs what its bounds allow and fails,
if it fails, with an InventoryError (one line), never another exception.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

import inventoryutil
from inventoryutil import encode, md5
from sitemill.errors import InventoryError
from sitemill.scaleout._distfragments import trusted_time
from sitemill.sources import inventorymanifest
from sitemill.sources.inventory import InventoryReport, find_report, read_rows, sample_report
from sitemill.state.parse import CLOCK_SKEW, OLDEST_LASTMOD

DEST = "inventory-trust"
SOURCE = "site-bucket"
CONFIG = f"inventory/{SOURCE}/daily/"
LOCATION = f"s3://{DEST}/{CONFIG}"
NOW = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)
ETAG = "d41d8cd98f00b204e9800998ecf8427e"
MODIFIED = "2026-11-20T01:02:03.000Z"


@pytest.fixture(scope="module")
def aws() -> Iterator[Any]:
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
            patch.setenv(name, "testing")
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        yield boto3.client("s3", region_name="us-east-1")


@pytest.fixture
def s3(aws: Any) -> Any:
    backend().reset()
    aws.create_bucket(Bucket=DEST)
    return aws


def backend() -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"]


def put(key: str, body: bytes) -> None:
    backend().put_object(DEST, key, body)


def row(key: str, modified: str = MODIFIED) -> list[str]:
    return [SOURCE, encode(key), "10", modified, ETAG, "STANDARD"]


def one_report(s3: Any, rows: list[list[str]], **options: Any) -> InventoryReport:
    when = NOW - timedelta(hours=5)
    inventoryutil.put_report(put, CONFIG, SOURCE, DEST, when, [rows], **options)
    return find_report(s3, LOCATION, SOURCE, now=NOW)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def rule(now: datetime) -> Callable[[datetime], bool]:
    """The shuffle's rule for a run at ``now``."""
    return lambda moment: trusted_time(moment, now + CLOCK_SKEW)


# --- item 1: a row's LastModifiedDate is trusted as every remembered date is ----------------

UNTRUSTED = [
    ("after the run", "2999-01-01T00:00:00.000Z"),
    ("past the clock skew", iso(NOW + CLOCK_SKEW + timedelta(seconds=1))),
    ("before the web", "1970-01-01T00:00:00.000Z"),
    ("a day before the oldest", iso(OLDEST_LASTMOD - timedelta(days=1))),
    ("year 1", "0001-01-01T00:00:00.000Z"),
    # Valid ISO 8601 with a zone, but no datetime in UTC (astimezone overflows).
    ("past year 9999 in UTC", "9999-12-31T23:59:59.000-14:00"),
    ("before year 1 in UTC", "0001-01-01T00:00:00.000+14:00"),
]
TRUSTED = [
    ("the oldest", iso(OLDEST_LASTMOD)),
    ("within the clock skew", iso(NOW + CLOCK_SKEW)),
    ("an offset", "2026-11-20T03:02:03.000+02:00"),
]


def test_a_row_with_an_untrusted_date_is_listed_without_it(s3: Any, caplog: Any) -> None:
    rows = [row(f"bad/{name}.html", modified) for name, modified in UNTRUSTED]
    rows += [row(f"good/{name}.html", modified) for name, modified in TRUSTED]
    report = one_report(s3, rows)
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        got = {obj["Key"]: obj for obj in read_rows(s3, report, report.files[0], trusted=rule(NOW))}
    assert sorted(got) == sorted(key for key in (f"bad/{n}.html" for n, _ in UNTRUSTED)) + sorted(
        f"good/{n}.html" for n, _ in TRUSTED
    )  # (every page kept)
    for name, _ in UNTRUSTED:
        assert "LastModified" not in got[f"bad/{name}.html"], name
        assert got[f"bad/{name}.html"]["Size"] == 10
    assert got["good/the oldest.html"]["LastModified"] == OLDEST_LASTMOD
    assert got["good/within the clock skew.html"]["LastModified"] == NOW + CLOCK_SKEW
    assert got["good/an offset.html"]["LastModified"] == datetime(2026, 11, 20, 1, 2, 3, tzinfo=UTC)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1  # one summary line for the file, with the count and an example
    message = warnings[0].getMessage()
    assert f"{len(UNTRUSTED)} rows" in message and "2999-01-01T00:00:00.000Z" in message
    assert report.files[0].key in message and "without" in message


def test_the_run_time_bounds_the_dates(s3: Any) -> None:
    """The bound is the run's time, not the clock of the machine."""
    report = one_report(s3, [row("a.html", "2030-01-01T00:00:00.000Z")])
    item = report.files[0]
    (early,) = read_rows(s3, report, item, trusted=rule(NOW))
    (late,) = read_rows(s3, report, item, trusted=rule(datetime(2031, 1, 1, tzinfo=UTC)))
    assert "LastModified" not in early
    assert late["LastModified"] == datetime(2030, 1, 1, tzinfo=UTC)


def test_no_warning_when_every_date_is_trusted(s3: Any, caplog: Any) -> None:
    report = one_report(s3, [row("a.html"), row("b.html")])
    with caplog.at_level(logging.WARNING, logger="sitemill"):
        assert len(list(read_rows(s3, report, report.files[0], trusted=rule(NOW)))) == 2
    assert not caplog.records


@pytest.mark.parametrize(("name", "modified"), UNTRUSTED)
def test_the_sample_takes_any_date(s3: Any, name: str, modified: str) -> None:
    """The planner's sample reads keys, not dates: an overflowing date fails nothing there."""
    report = one_report(s3, [row("a.html"), row("b.html", modified)])
    sample = sample_report(s3, report, prefix="", target=10)
    assert [key for _, key in sample.keys] == ["a.html", "b.html"]


# --- item 3: the report's folders and manifest ----------------------------------------------


@pytest.mark.parametrize("name", ["2026-13-01T00-00Z", "2026-11-31T00-00Z", "2026-11-22T25-00Z"])
def test_a_report_folder_that_is_no_date_is_skipped(s3: Any, name: str, caplog: Any) -> None:
    """A folder whose name looks like a report's but is no date (no AWS report) never fails
    the search: the reports beside it are found."""
    put(f"{CONFIG}{name}/manifest.json", b"{}")
    report = one_report(s3, [row("a.html")])
    assert (
        report.manifest_key == f"{CONFIG}{(NOW - timedelta(hours=5)):%Y-%m-%dT%H-%MZ}/manifest.json"
    )
    assert name in caplog.text


def test_only_bad_folders_is_no_report(s3: Any) -> None:
    put(f"{CONFIG}2026-13-01T00-00Z/manifest.json", b"{}")
    with pytest.raises(InventoryError, match="no inventory report"):
        find_report(s3, LOCATION, SOURCE, now=NOW)


def put_manifest(document: dict[str, Any]) -> None:
    """``document`` as the manifest of a report of an hour ago (the newest)."""
    when = NOW - timedelta(hours=1)
    folder = f"{CONFIG}{when:%Y-%m-%dT%H-%MZ}/"
    stamp = str(int(when.timestamp() * 1000))
    data = json.dumps(document | {"creationTimestamp": stamp}).encode()
    put(folder + "manifest.json", data)
    put(folder + "manifest.checksum", md5(data).encode())


def good_manifest(s3: Any) -> dict[str, Any]:
    report = one_report(s3, [row("a.html")])
    return dict(json.loads(s3.get_object(Bucket=DEST, Key=report.manifest_key)["Body"].read()))


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"padding": [[] for _ in range(200)]}, "more JSON containers than"),
        ({"padding": [{} for _ in range(200)]}, "more JSON containers than"),
        ({"padding": ["" for _ in range(2_000)]}, "more JSON strings than"),
        ({"padding": list(range(1_000, 3_000))}, "more JSON numbers than"),
        ({"padding": [0.5] * 2_000}, "more JSON numbers than"),
    ],
)
def test_a_manifest_is_parsed_within_bounds(
    s3: Any, monkeypatch: pytest.MonkeyPatch, extra: dict[str, Any], reason: str
) -> None:
    """Sixteen MiB of ``[[],[],...]`` would be millions of lists: a manifest holds what its
    files need (MAX_FILES of them) and little more."""
    monkeypatch.setattr(inventorymanifest, "MAX_FILES", 10)
    put_manifest(good_manifest(s3) | extra)
    with pytest.raises(InventoryError, match=reason):
        find_report(s3, LOCATION, SOURCE, now=NOW, max_age=timedelta(hours=2))


@pytest.mark.parametrize(
    ("text", "what"), [(b"[[]," * 300 + b"[]]", "containers"), (b'[""]' * 1, "")]
)
def test_containers_and_strings_are_counted_before_parsing(
    monkeypatch: pytest.MonkeyPatch, text: bytes, what: str
) -> None:
    monkeypatch.setattr(inventorymanifest, "MAX_FILES", 10)
    parsed: list[bytes] = []
    monkeypatch.setattr(
        inventorymanifest, "json", SimpleNamespace(loads=lambda data, **_: parsed.append(data))
    )
    if what:
        with pytest.raises(ValueError, match=f"more JSON {what} than a manifest of 10 files"):
            inventorymanifest.load_manifest(text)
        assert parsed == []  # (refused before json.loads builds one object)
    else:
        inventorymanifest.load_manifest(text)
        assert parsed == [text]


def test_a_manifest_of_many_files_is_still_read(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inventorymanifest, "MAX_FILES", 10)
    document = good_manifest(s3)
    document["files"] = document["files"] * 10
    put_manifest(document)
    report = find_report(s3, LOCATION, SOURCE, now=NOW, max_age=timedelta(hours=2))
    assert len(report.files) == 10


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ("Bucket, Key, Size, LastModifiedDate, ETag" + ", X" * 100, "more than 64 columns"),
        ("Key, Size, LastModifiedDate, ETag, " + "x" * 5_000, "longer than"),
    ],
)
def test_a_file_schema_is_bounded(s3: Any, schema: str, reason: str) -> None:
    put_manifest(good_manifest(s3) | {"fileSchema": schema})
    with pytest.raises(InventoryError, match=reason):
        find_report(s3, LOCATION, SOURCE, now=NOW, max_age=timedelta(hours=2))


@pytest.mark.parametrize("size", [1024, 1025])
def test_a_key_over_s3s_limit_is_no_row(s3: Any, size: int) -> None:
    """S3 keys are at most 1,024 bytes: a longer one is no row of a real report (and would
    outgrow the bounds of the shuffle's fragment lines)."""
    key = "é" * (size // 2) + "x" * (size % 2)
    report = one_report(s3, [row(key)])
    rows = read_rows(s3, report, report.files[0], trusted=rule(NOW))
    if size <= 1024:
        assert [obj["Key"] for obj in rows] == [key]
    else:
        with pytest.raises(InventoryError, match="row 1: a key over 1,024 bytes"):
            list(rows)
