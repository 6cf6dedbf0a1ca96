"""S3 Inventory reports as AWS delivers them, built by the tests: gzip CSV data files under
``<config folder>data/``, a dated folder with manifest.json and manifest.checksum."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import quote_plus

SCHEMA = "Bucket, Key, Size, LastModifiedDate, ETag, StorageClass"

Put = Callable[[str, bytes], None]  # (key in the destination bucket, bytes)
Edit = Callable[[dict[str, Any]], None]


def encode(key: str) -> str:
    """A key as the CSV holds it: URL-encoded the HTML-form way, a space as '+'."""
    return quote_plus(key.encode("utf-8", "surrogateescape"), safe="*")


def gzip_csv(rows: list[list[str]]) -> bytes:
    text = io.StringIO()
    csv.writer(text, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    return gzip.compress(text.getvalue().encode("utf-8"), mtime=0)


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def put_report(
    put: Put,
    config_folder: str,
    source: str,
    dest: str,
    when: datetime,
    parts: list[list[list[str]]],
    *,
    schema: str = SCHEMA,
    edit: Edit | None = None,
    checksum: bool = True,
) -> str:
    """A report, its data files (one per part) under data/; ``edit`` changes the manifest
    before its checksum is taken. The manifest's key."""
    folder = f"{config_folder}{when:%Y-%m-%dT%H-%MZ}/"
    files = []
    for number, rows in enumerate(parts):
        body = gzip_csv(rows)
        key = f"{config_folder}data/{when:%Y%m%d%H%M}-{number:04d}-0b1e6c2a.csv.gz"
        put(key, body)
        files.append({"key": key, "size": len(body), "MD5checksum": md5(body)})
    manifest = {
        "sourceBucket": source,
        "destinationBucket": f"arn:aws:s3:::{dest}",
        "version": "2016-11-30",
        "creationTimestamp": str(int(when.timestamp() * 1000)),
        "fileFormat": "CSV",
        "fileSchema": schema,
        "files": files,
    }
    if edit is not None:
        edit(manifest)
    data = json.dumps(manifest, indent=2).encode("utf-8")
    put(folder + "manifest.json", data)
    if checksum:
        put(folder + "manifest.checksum", md5(data).encode())
    return folder + "manifest.json"
