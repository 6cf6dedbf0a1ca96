"""A bucket's listing read from its newest trusted S3 Inventory report (CSV, gzip), streamed."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import InventoryError
from sitemill.sources.inventorycsv import KeySample, csv_rows, data_blocks
from sitemill.sources.inventorycsv import decode_key as decode_key
from sitemill.sources.s3 import LIST_PAGE_SIZE, describe_error, read_object

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ObjectTypeDef

log = logging.getLogger(__name__)

# A report is <prefix>/<source bucket>/<config id>/YYYY-MM-DDTHH-MMZ/manifest.json, beside it
# manifest.checksum (the MD5 of manifest.json); its data files are <...>/<config id>/data/*.csv.gz.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory-location.html
MANIFEST_NAME: Final = "manifest.json"
CHECKSUM_NAME: Final = "manifest.checksum"
DATA_FOLDER: Final = "data/"
DATA_SUFFIX: Final = ".csv.gz"
_REPORT_FOLDER: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}Z")
_REPORT_TIME: Final = "%Y-%m-%dT%H-%MZ"
# Bounds on what a report may hold; AWS's own stay far below them (a manifest lists a few files).
MAX_MANIFEST_BYTES: Final = 16 * 1024 * 1024
MAX_CHECKSUM_BYTES: Final = 1024
MAX_FILES: Final = 100_000
# The columns a listing needs; fileSchema names them in the order of the CSV's fields (the
# files have no header). Bucket, StorageClass and the rest are optional and ignored.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory.html
REQUIRED_COLUMNS: Final = ("Key", "Size", "LastModifiedDate", "ETag")
_CLOCK_SKEW: Final = timedelta(minutes=15)  # a creationTimestamp this far ahead is no error
_BUCKET_NAME: Final = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_MD5_HEX: Final = re.compile(r"[0-9a-f]{32}")
_DIGITS: Final = re.compile(r"[0-9]{1,14}")  # (10**14 ms is year 5138: within datetime)
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class InventoryFile:
    """One data file a manifest lists: its key in the report's bucket, its size, its MD5."""

    key: str
    size: int
    md5: str


@dataclass(frozen=True, slots=True)
class InventoryReport:
    """A report whose manifest passed every check: where it is and what it lists."""

    bucket: str  # the bucket holding the report (the inventory's destination)
    manifest_key: str
    source_bucket: str
    created: datetime  # creationTimestamp, UTC
    columns: tuple[str, ...]  # fileSchema, stripped
    files: tuple[InventoryFile, ...]


def parse_location(location: str) -> tuple[str, str]:
    """``s3://bucket/folder/`` as (bucket, folder ending in "/", or "" for the bucket's root)."""
    text = location.strip()
    if not text.startswith("s3://"):
        raise InventoryError(f"{location!r} is not an s3://bucket/folder/ location")
    bucket, _, folder = text[len("s3://") :].partition("/")
    if not _BUCKET_NAME.fullmatch(bucket) or ".." in bucket:
        raise InventoryError(f"{location!r}: {bucket!r} is not an S3 bucket name")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in folder):
        raise InventoryError(f"{location!r} has a control character in its folder")
    folder = folder.strip("/")
    return bucket, f"{folder}/" if folder else ""


def find_report(
    client: S3Client,
    location: str,
    source_bucket: str,
    *,
    now: datetime | None = None,
    max_age: timedelta = timedelta(days=8),
) -> InventoryReport:
    """The newest report in ``location`` (``s3://dest/<prefix>/<source bucket>/<config id>/``,
    the folder of the dated report folders) whose manifest passes every check.

    A report that fails one is skipped with a warning saying why, for the one before it, as
    long as that one is no older than ``max_age``; none left is an InventoryError (one line).
    """
    bucket, folder = parse_location(location)
    now = datetime.now(UTC) if now is None else now.astimezone(UTC)
    oldest = now - max_age
    where = f"s3://{bucket}/{folder}"
    names = _report_folders(client, bucket, folder)
    if not names:
        raise InventoryError(f"{where}: no inventory report (no YYYY-MM-DDTHH-MMZ/ folder)")
    newest: InventoryError | None = None
    for name, started in names:
        if started < oldest:
            break
        try:
            return _read_report(client, bucket, f"{folder}{name}/", source_bucket, now, oldest)
        except InventoryError as exc:
            log.warning("inventory report skipped: %s", exc)
            newest = newest or exc
    days = f"{max_age.total_seconds() / 86_400:g} days"
    if newest is None:
        raise InventoryError(f"{where}: the newest inventory report, {names[0][0]}, is over {days}")
    raise InventoryError(f"{newest}; no inventory report of the last {days} can be used")


def _report_folders(client: S3Client, bucket: str, folder: str) -> list[tuple[str, datetime]]:
    """The dated report folders in ``folder`` with their times, newest first."""
    found = []
    pages = client.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, Prefix=folder, Delimiter="/", PaginationConfig={"PageSize": LIST_PAGE_SIZE}
    )
    try:
        for page in pages:
            for common in page.get("CommonPrefixes", ()):
                name = common.get("Prefix", "")[len(folder) : -1]
                if _REPORT_FOLDER.fullmatch(name):  # not data/ nor hive/
                    started = datetime.strptime(name, _REPORT_TIME).replace(tzinfo=UTC)
                    found.append((name, started))
    except (ClientError, BotoCoreError) as exc:
        raise InventoryError(f"cannot list s3://{bucket}/{folder}: {describe_error(exc)}") from exc
    return sorted(found, key=lambda item: item[1], reverse=True)


def _read_report(
    client: S3Client, bucket: str, folder: str, source: str, now: datetime, oldest: datetime
) -> InventoryReport:
    """The report in ``folder`` (a dated one), or an InventoryError naming its manifest."""
    key = folder + MANIFEST_NAME
    where = f"s3://{bucket}/{key}"
    checksum = _read_small(client, bucket, folder + CHECKSUM_NAME, MAX_CHECKSUM_BYTES)
    if checksum is None:
        raise InventoryError(f"{where}: no {CHECKSUM_NAME} beside it (incomplete or not AWS's)")
    data = _read_small(client, bucket, key, MAX_MANIFEST_BYTES)
    if data is None:
        raise InventoryError(f"{where}: missing")
    if checksum.strip().lower() != hashlib.md5(data, usedforsecurity=False).hexdigest().encode():
        raise InventoryError(f"{where}: {CHECKSUM_NAME} does not match")
    try:
        manifest = json.loads(data)
        created, columns, files = _checked(manifest, source, folder, now, oldest)
    except (ValueError, RecursionError) as exc:  # (a JSON nested too deep is a RecursionError)
        raise InventoryError(f"{where}: {' '.join(str(exc).split())[:300]}") from exc
    return InventoryReport(bucket, key, source, created, columns, files)


def _read_small(client: S3Client, bucket: str, key: str, limit: int) -> bytes | None:
    """An object of at most ``limit`` bytes (one ranged GET), None when it does not exist."""
    data = read_object(client, bucket, key, error=InventoryError, limit=limit + 1)
    if data is not None and len(data) > limit:
        raise InventoryError(f"s3://{bucket}/{key}: larger than {limit:,} bytes")
    return data


def _checked(
    manifest: Any, source: str, folder: str, now: datetime, oldest: datetime
) -> tuple[datetime, tuple[str, ...], tuple[InventoryFile, ...]]:
    """What a manifest says, checked; ValueError says what is wrong."""
    if not isinstance(manifest, dict):
        raise ValueError("not a JSON object")
    # destinationBucket goes unread: the files are read from the bucket holding this manifest.
    if manifest.get("sourceBucket") != source:
        raise ValueError(f"sourceBucket is {manifest.get('sourceBucket')!r}, not {source!r}")
    if manifest.get("fileFormat") != "CSV":
        raise ValueError(f"fileFormat is {manifest.get('fileFormat')!r}: only CSV can be read")
    stamp = manifest.get("creationTimestamp")  # epoch milliseconds, as a string
    if not isinstance(stamp, str | int) or not _DIGITS.fullmatch(str(stamp)):
        raise ValueError(f"creationTimestamp {stamp!r} is not epoch milliseconds")
    created = _EPOCH + timedelta(milliseconds=int(stamp))
    if created > now + _CLOCK_SKEW or created < oldest:
        late = "in the future" if created > now else f"before {oldest:%Y-%m-%dT%H:%MZ}"
        raise ValueError(f"creationTimestamp {created:%Y-%m-%dT%H:%MZ} is {late}")
    schema = manifest.get("fileSchema")
    columns = tuple(name.strip() for name in schema.split(",")) if isinstance(schema, str) else ()
    if not set(REQUIRED_COLUMNS) <= set(columns) or len(set(columns)) != len(columns):
        raise ValueError(f"fileSchema {schema!r} lacks {'/'.join(REQUIRED_COLUMNS)} or repeats")
    files = manifest.get("files")
    if not isinstance(files, list) or not 1 <= len(files) <= MAX_FILES:
        raise ValueError(f"files is not a list of 1 to {MAX_FILES:,} data files")
    data_folder = _data_folder(folder + MANIFEST_NAME)
    return created, columns, tuple(_data_file(item, data_folder) for item in files)


def _data_folder(manifest_key: str) -> str:
    """``<...>/<config id>/data/`` for ``<...>/<config id>/<date>/manifest.json``."""
    return manifest_key[: manifest_key.rfind("/", 0, manifest_key.rfind("/")) + 1] + DATA_FOLDER


def _data_file(item: Any, data_folder: str) -> InventoryFile:
    """One entry of a manifest's files, under ``data_folder`` (no tampered manifest sends
    sitemill to read another object of the bucket)."""
    entry = item if isinstance(item, dict) else {}
    key, size, md5 = entry.get("key"), entry.get("size"), entry.get("MD5checksum")
    if not isinstance(key, str) or not _is_data_file(key, data_folder):
        raise ValueError(f"the data file {key!r} is not a {DATA_SUFFIX} file in {data_folder}")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError(f"the data file {key}: size {size!r} is not a byte count")
    if not isinstance(md5, str) or not _MD5_HEX.fullmatch(md5.lower()):
        raise ValueError(f"the data file {key}: MD5checksum {md5!r} is not an MD5")
    return InventoryFile(key, size, md5.lower())


def _is_data_file(key: str, data_folder: str) -> bool:
    name = key[len(data_folder) :]
    return key.startswith(data_folder) and name.endswith(DATA_SUFFIX) and "/" not in name


def sample_report(
    client: S3Client, report: InventoryReport, *, prefix: str, target: int
) -> KeySample:
    """A uniform sample of about ``target`` keys of ``report`` under ``prefix``, and its row
    count: every data file read whole (its size and MD5 checked: a report whose data does
    not match its manifest is refused here, before any run depends on it)."""
    sample = KeySample(report.columns, prefix, target)
    for item in report.files:
        where = f"s3://{report.bucket}/{item.key}"
        if not _is_data_file(item.key, _data_folder(report.manifest_key)):
            raise InventoryError(f"{where}: not a data file of {report.manifest_key}")
        sample.add(
            data_blocks(client, report.bucket, item.key, size=item.size, md5=item.md5), where
        )
    return sample


def read_rows(
    client: S3Client, report: InventoryReport, item: InventoryFile, *, prefix: str = ""
) -> Iterator[ObjectTypeDef]:
    """The objects one data file of ``report`` lists whose key starts with ``prefix``, as a
    LIST gives them (Key, Size, LastModified in UTC, ETag in quotes); older versions and
    delete markers left out (inventorycsv.csv_rows).

    The file is streamed, never whole in memory. Its size and MD5 are known at its end only:
    a mismatch raises InventoryError after rows were yielded. On any InventoryError the
    caller must discard every row this call gave.
    """
    where = f"s3://{report.bucket}/{item.key}"
    if not _is_data_file(item.key, _data_folder(report.manifest_key)):
        raise InventoryError(f"{where}: not a data file of {report.manifest_key}")
    blocks = data_blocks(client, report.bucket, item.key, size=item.size, md5=item.md5)
    yield from csv_rows(blocks, report.columns, prefix, where)
