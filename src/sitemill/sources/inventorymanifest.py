"""An S3 Inventory report's manifest.json: what it says, checked."""
# sitemill.sources.inventory finds it and verifies its checksum first.

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

# A report is <prefix>/<source bucket>/<config id>/YYYY-MM-DDTHH-MMZ/manifest.json, beside it
# manifest.checksum (the MD5 of manifest.json); its data files are <...>/<config id>/data/*.csv.gz.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory-location.html
MANIFEST_NAME: Final = "manifest.json"
DATA_FOLDER: Final = "data/"
DATA_SUFFIX: Final = ".csv.gz"
# Bounds on what a report may hold; AWS's own stay far below them (a manifest lists a few files).
MAX_FILES: Final = 100_000
MAX_COLUMNS: Final = 64  # (AWS's fields are some 20)
_MAX_SCHEMA: Final = 4096  # characters of fileSchema
# The columns a listing needs; fileSchema names them in the order of the CSV's fields (the
# files have no header). Bucket, StorageClass and the rest are optional and ignored.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory.html
REQUIRED_COLUMNS: Final = ("Key", "Size", "LastModifiedDate", "ETag")
_CLOCK_SKEW: Final = timedelta(minutes=15)  # a creationTimestamp this far ahead is no error
_MD5_HEX: Final = re.compile(r"[0-9a-f]{32}")
_DIGITS: Final = re.compile(r"[0-9]{1,14}")  # (10**14 ms is year 5138: within datetime)
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class InventoryFile:
    """One data file a manifest lists: its key in the report's bucket, its size, its MD5."""

    key: str
    size: int
    md5: str


def load_manifest(data: bytes) -> Any:
    """The JSON of a manifest (at most MAX_MANIFEST_BYTES), within what one of MAX_FILES data
    files holds: an object per file and a few fields, five strings and a number per file. The
    containers and strings are counted before json.loads builds any (16 MiB of [[],[],...]
    would be millions of lists), numbers as they are parsed. ValueError says what is wrong."""
    files = MAX_FILES  # (read when called: the tests lower it)
    if data.count(b"{") + data.count(b"[") > 2 * files + 64:
        raise ValueError(f"more JSON containers than a manifest of {files:,} files holds")
    if data.count(b'"') > 2 * (8 * files + 64):
        raise ValueError(f"more JSON strings than a manifest of {files:,} files holds")
    numbers = 0

    def number(text: str, kind: type[int] | type[float]) -> int | float:
        nonlocal numbers
        numbers += 1
        if numbers > 2 * files + 64:
            raise ValueError(f"more JSON numbers than a manifest of {files:,} files holds")
        return kind(text)

    return json.loads(
        data, parse_int=lambda text: number(text, int), parse_float=lambda t: number(t, float)
    )


def check_columns(columns: tuple[str, ...]) -> None:
    """ValueError unless ``columns`` (fileSchema's) name each of REQUIRED_COLUMNS once, and
    at most MAX_COLUMNS (a shuffle item carries them too)."""
    if len(columns) > MAX_COLUMNS:
        raise ValueError(f"names more than {MAX_COLUMNS} columns")
    if not set(REQUIRED_COLUMNS) <= set(columns) or len(set(columns)) != len(columns):
        raise ValueError(f"lacks {'/'.join(REQUIRED_COLUMNS)} or repeats")


def check_manifest(
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
    if isinstance(schema, str) and len(schema) > _MAX_SCHEMA:
        raise ValueError(f"fileSchema is longer than {_MAX_SCHEMA:,} characters")
    columns = tuple(name.strip() for name in schema.split(",")) if isinstance(schema, str) else ()
    try:
        check_columns(columns)
    except ValueError as exc:
        shown = repr(schema) if len(repr(schema)) <= 100 else repr(schema)[:97] + "..."
        raise ValueError(f"fileSchema {shown} {exc}") from None
    files = manifest.get("files")
    if not isinstance(files, list) or not 1 <= len(files) <= MAX_FILES:
        raise ValueError(f"files is not a list of 1 to {MAX_FILES:,} data files")
    folder_of_data = data_folder(folder + MANIFEST_NAME)
    return created, columns, tuple(_data_file(item, folder_of_data) for item in files)


def data_folder(manifest_key: str) -> str:
    """``<...>/<config id>/data/`` for ``<...>/<config id>/<date>/manifest.json``."""
    return manifest_key[: manifest_key.rfind("/", 0, manifest_key.rfind("/")) + 1] + DATA_FOLDER


def _data_file(item: Any, folder: str) -> InventoryFile:
    """One entry of a manifest's files, under ``folder`` (no tampered manifest sends
    sitemill to read another object of the bucket)."""
    entry = item if isinstance(item, dict) else {}
    key, size, md5 = entry.get("key"), entry.get("size"), entry.get("MD5checksum")
    if not isinstance(key, str) or not is_data_file(key, folder):
        raise ValueError(f"the data file {key!r} is not a {DATA_SUFFIX} file in {folder}")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError(f"the data file {key}: size {size!r} is not a byte count")
    if not isinstance(md5, str) or not _MD5_HEX.fullmatch(md5.lower()):
        raise ValueError(f"the data file {key}: MD5checksum {md5!r} is not an MD5")
    return InventoryFile(key, size, md5.lower())


def is_data_file(key: str, folder: str) -> bool:
    """Whether ``key`` names a data file in ``folder`` (a report's data folder)."""
    name = key[len(folder) :]
    return key.startswith(folder) and name.endswith(DATA_SUFFIX) and "/" not in name
