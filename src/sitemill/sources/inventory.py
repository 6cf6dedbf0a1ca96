"""A bucket's listing read from its newest trusted S3 Inventory report (CSV, gzip), streamed."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import InventoryError
from sitemill.sources.inventorycsv import KeySample, UntrustedDates, csv_rows, data_blocks
from sitemill.sources.inventorycsv import decode_key as decode_key
from sitemill.sources.inventorymanifest import (
    MANIFEST_NAME,
    check_manifest,
    data_folder,
    is_data_file,
    load_manifest,
)
from sitemill.sources.inventorymanifest import InventoryFile as InventoryFile
from sitemill.sources.s3 import LIST_PAGE_SIZE, describe_error, read_object

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ObjectTypeDef

log = logging.getLogger(__name__)

# A report is <prefix>/<source bucket>/<config id>/YYYY-MM-DDTHH-MMZ/manifest.json, beside it
# manifest.checksum (the MD5 of manifest.json); its data files are <...>/<config id>/data/*.csv.gz.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory-location.html
CHECKSUM_NAME: Final = "manifest.checksum"
_REPORT_FOLDER: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}Z")
_REPORT_TIME: Final = "%Y-%m-%dT%H-%MZ"
# Bounds on what a report may hold; AWS's own stay far below them (a manifest lists a few files).
MAX_MANIFEST_BYTES: Final = 16 * 1024 * 1024
MAX_CHECKSUM_BYTES: Final = 1024
_BUCKET_NAME: Final = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")


@dataclass(frozen=True, slots=True)
class InventoryReport:
    """A report whose manifest passed every check: where it is and what it lists."""

    bucket: str  # the bucket holding the report (the inventory's destination)
    manifest_key: str
    source_bucket: str
    created: datetime  # creationTimestamp, UTC
    columns: tuple[str, ...]  # fileSchema, stripped
    files: tuple[InventoryFile, ...]


def parse_inventory_location(location: str) -> tuple[str, str]:
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
    bucket, folder = parse_inventory_location(location)
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
                    try:
                        started = datetime.strptime(name, _REPORT_TIME).replace(tzinfo=UTC)
                    except ValueError:  # (2026-13-01T00-00Z: no folder AWS writes)
                        log.warning(
                            "s3://%s/%s%s/ skipped: its name is no date", bucket, folder, name
                        )
                        continue
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
        manifest = load_manifest(data)
        created, columns, files = check_manifest(manifest, source, folder, now, oldest)
    except (ValueError, RecursionError) as exc:  # (a JSON nested too deep is a RecursionError)
        raise InventoryError(f"{where}: {' '.join(str(exc).split())[:300]}") from exc
    return InventoryReport(bucket, key, source, created, columns, files)


def _read_small(client: S3Client, bucket: str, key: str, limit: int) -> bytes | None:
    """An object of at most ``limit`` bytes (one ranged GET), None when it does not exist."""
    data = read_object(client, bucket, key, error=InventoryError, limit=limit + 1)
    if data is not None and len(data) > limit:
        raise InventoryError(f"s3://{bucket}/{key}: larger than {limit:,} bytes")
    return data


def sample_report(
    client: S3Client, report: InventoryReport, *, prefix: str, target: int
) -> KeySample:
    """A uniform sample of about ``target`` keys of ``report`` under ``prefix``, and its row
    count: every data file read whole (its size and MD5 checked: a report whose data does
    not match its manifest is refused here, before any run depends on it)."""
    sample = KeySample(report.columns, prefix, target)
    for item in report.files:
        where = f"s3://{report.bucket}/{item.key}"
        if not is_data_file(item.key, data_folder(report.manifest_key)):
            raise InventoryError(f"{where}: not a data file of {report.manifest_key}")
        sample.add(
            data_blocks(client, report.bucket, item.key, size=item.size, md5=item.md5), where
        )
    return sample


def read_rows(
    client: S3Client,
    report: InventoryReport,
    item: InventoryFile,
    *,
    prefix: str = "",
    trusted: Callable[[datetime], bool],
) -> Iterator[ObjectTypeDef]:
    """The objects one data file of ``report`` lists whose key starts with ``prefix``, as a
    LIST gives them (Key, Size, LastModified in UTC, ETag in quotes); older versions and
    delete markers left out (inventorycsv.csv_rows).

    A report is input from outside: a LastModifiedDate dates its object only when ``trusted`` (the
    caller's rule for remembered dates, docs/state.md, "Public, and trusted by no one"). An object
    whose date is not comes without LastModified (its page is listed, without a lastmod), and the
    file's end logs one warning with their count and the first one's text.

    The file is streamed, never whole in memory. Its size and MD5 are known at its end only:
    a mismatch raises InventoryError after rows were yielded. On any InventoryError the
    caller must discard every row this call gave.
    """
    where = f"s3://{report.bucket}/{item.key}"
    if not is_data_file(item.key, data_folder(report.manifest_key)):
        raise InventoryError(f"{where}: not a data file of {report.manifest_key}")
    blocks = data_blocks(client, report.bucket, item.key, size=item.size, md5=item.md5)
    untrusted = UntrustedDates()
    yield from csv_rows(blocks, report.columns, prefix, where, trusted=trusted, untrusted=untrusted)
    if untrusted.count:
        log.warning(
            "%s: %d rows have a LastModifiedDate that is no date a page may have (the first: "
            "%r): their pages are listed without one",
            where, untrusted.count, untrusted.example,
        )  # fmt: skip
