"""An S3 Inventory CSV data file, streamed: its bytes checked, inflated, parsed into rows."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote_plus

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import InventoryError
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.sources.s3 import describe_error

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ObjectTypeDef

# Bytes read, and inflated, at a time: memory stays flat whatever the file's size or ratio.
BLOCK_BYTES: Final = 256 * 1024
# A key is at most 1,024 bytes of UTF-8, 3,072 URL-encoded; the other columns add a few hundred.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html
MAX_CSV_LINE_BYTES: Final = 8 * 1024
_SIZE: Final = re.compile(r"[0-9]{1,20}")
_ETAG: Final = re.compile(r"[!#-~]{1,160}")  # printable ASCII but '"' (the quotes come after)


def decode_key(field: str) -> str:
    """A key as a CSV inventory writes it, decoded. It is URL-encoded the HTML-form way (a
    space is "+", a "+" is "%2B": ``unquote`` would leave "+" for a space) over UTF-8; bytes
    that are not UTF-8 stay as surrogates, as sitemill keeps keys (shards.plan.key_order).

    https://docs.aws.amazon.com/AmazonS3/latest/userguide/storage-inventory.html: "When using
    the CSV file format, the key name is URL-encoded and must be decoded before you can use
    it"; "+" for a space: https://github.com/cloud-custodian/cloud-custodian/issues/1997
    """
    return unquote_plus(field, encoding="utf-8", errors="surrogateescape")


def data_blocks(client: S3Client, bucket: str, key: str, *, size: int, md5: str) -> Iterator[bytes]:
    """A data file's bytes as they come (one GET), checked against the ``size`` and ``md5``
    its manifest lists: at its end only, but for a file that grows past ``size``."""
    where, digest, read = f"s3://{bucket}/{key}", hashlib.md5(usedforsecurity=False), 0
    try:
        with contextlib.closing(client.get_object(Bucket=bucket, Key=key)["Body"]) as body:
            while block := body.read(BLOCK_BYTES):
                read += len(block)
                if read > size:
                    raise InventoryError(f"{where}: more than the {size:,} bytes listed")
                digest.update(block)
                yield block
    except (ClientError, BotoCoreError) as exc:
        raise InventoryError(f"cannot read {where}: {describe_error(exc)}") from exc
    if read != size:
        raise InventoryError(f"{where}: {read:,} bytes, where its manifest says {size:,}")
    if digest.hexdigest() != md5:
        raise InventoryError(f"{where}: its MD5 does not match the manifest's MD5checksum")


@dataclass(slots=True)
class UntrustedDates:
    """Rows whose LastModifiedDate may not date a page: counted, with the first one's text,
    for one warning."""

    count: int = 0
    example: str = ""

    def add(self, text: str) -> None:
        self.count += 1
        if not self.example:
            self.example = text[:40]


def csv_rows(
    compressed: Iterator[bytes],
    columns: tuple[str, ...],
    prefix: str,
    where: str,
    *,
    trusted: Callable[[datetime], bool],
    untrusted: UntrustedDates,
) -> Iterator[ObjectTypeDef]:
    """The objects a gzip CSV data file lists (its fields in the order of ``columns``) whose
    key starts with ``prefix``, as a LIST gives them; older versions and delete markers (a
    report of every version has IsLatest and IsDeleteMarker columns) left out. An object
    whose LastModifiedDate is not ``trusted`` comes without LastModified, counted in
    ``untrusted``: a report is input from outside, and may say 2999.

    Each row is one line (the key is URL-encoded: no field holds a line break); a line that
    is no row of the report raises InventoryError naming ``where`` and the row's number.
    """
    index = {name: position for position, name in enumerate(columns)}
    for number, line in enumerate(_lines(_inflate(compressed, where), where), 1):
        try:
            obj = _row(line, index, prefix, trusted, untrusted)
        except ValueError as exc:  # (UnicodeDecodeError is one)
            raise InventoryError(f"{where}: row {number}: {exc}") from exc
        if obj is not None:
            yield obj


class KeySample:
    """Every ``step``-th row of a report's data files (their order: each file as read) with
    the number of rows: one pass, at most twice ``target`` keys held (when the sample outgrows
    that, every other key is dropped and ``step`` doubles). For the boundaries of groups of
    rows: uniform over the rows however the report orders them."""

    def __init__(self, columns: tuple[str, ...], prefix: str, target: int) -> None:
        self.index = {name: position for position, name in enumerate(columns)}
        self.prefix, self.target = prefix, max(1, target)
        self.step, self.rows, self._start = 1, 0, 0
        self.matched = 0  # rows under the prefix, as the sample estimates them
        self.keys: list[tuple[int, str]] = []  # (row number, key) of picked rows in prefix

    def add(self, compressed: Iterator[bytes], where: str) -> None:
        """One data file: its lines counted (in C), every step-th parsed."""
        rest, self._start = b"", self.rows
        for block in _inflate(compressed, where):
            *lines, rest = (rest + block).split(b"\n")
            _bounded(rest, self.rows - self._start + len(lines) + 1, where)
            self._take(lines, where)
        if rest:
            self._take([rest], where)

    def _take(self, lines: list[bytes], where: str) -> None:
        first = -self.rows % self.step
        for offset in range(first, len(lines), self.step):
            number = self.rows + offset
            row = number - self._start + 1  # (in its file)
            try:  # (keys only: no date is wanted)
                obj = _row(_bounded(lines[offset], row, where), self.index, "", None, None)
            except ValueError as exc:
                raise InventoryError(f"{where}: row {row}: {exc}") from exc
            if obj is not None and obj["Key"].startswith(self.prefix):
                self.matched += self.step  # (it stands for the step's rows)
                self.keys.append((number, obj["Key"]))
        self.rows += len(lines)
        while len(self.keys) > 2 * self.target:
            self.step *= 2
            self.keys = [(n, key) for n, key in self.keys if n % self.step == 0]

    def estimate(self) -> int:
        """The rows of the report under the prefix (those of the sample, scaled)."""
        return self.matched


def _inflate(blocks: Iterator[bytes], where: str) -> Iterator[bytes]:
    """The text of one or more gzip members, at most BLOCK_BYTES at a time (a small file may
    inflate to gigabytes)."""
    inflate, members, started = zlib.decompressobj(wbits=31), 0, False
    try:
        for block in blocks:
            pending, more = block, False
            while pending or more:  # more: the output filled up, zlib may hold some back
                started = True
                text = inflate.decompress(pending, BLOCK_BYTES)
                pending, more = inflate.unconsumed_tail, len(text) == BLOCK_BYTES
                if inflate.eof:  # another member may follow
                    members, started, more = members + 1, False, False
                    pending, inflate = inflate.unused_data, zlib.decompressobj(wbits=31)
                if text:
                    yield text
    except zlib.error as exc:
        raise InventoryError(f"{where}: not gzip ({exc})") from exc
    if started or not members:
        raise InventoryError(f"{where}: the gzip stream is cut short")


def _lines(blocks: Iterator[bytes], where: str) -> Iterator[bytes]:
    """The lines of the text; one over MAX_CSV_LINE_BYTES is refused before it is all read."""
    rest, number = b"", 0
    for block in blocks:
        *lines, rest = (rest + block).split(b"\n")
        for line in lines:
            number += 1
            yield _bounded(line, number, where)
        _bounded(rest, number + 1, where)
    if rest:
        yield rest


def _bounded(line: bytes, number: int, where: str) -> bytes:
    if len(line) > MAX_CSV_LINE_BYTES:
        raise InventoryError(f"{where}: row {number} is over {MAX_CSV_LINE_BYTES:,} bytes")
    return line


def _row(
    line: bytes,
    index: dict[str, int],
    prefix: str,
    trusted: Callable[[datetime], bool] | None,
    untrusted: UntrustedDates | None,
) -> ObjectTypeDef | None:
    """One line as a listed object; None for an older version, a delete marker, or a key
    outside ``prefix``; ValueError when it is no row of the report. Its LastModified only
    when ``trusted`` (else counted in ``untrusted``; None: no date wanted)."""
    try:
        fields = next(csv.reader((line.rstrip(b"\r").decode("utf-8"),), strict=True))
    except csv.Error as exc:
        raise ValueError(f"not CSV ({exc})") from exc
    if len(fields) != len(index):
        raise ValueError(f"{len(fields)} fields where fileSchema names {len(index)}")
    current = _flag(fields, index, "IsLatest", missing=True)
    if _flag(fields, index, "IsDeleteMarker", missing=False) or not current:
        return None
    key = decode_key(fields[index["Key"]])
    if not 0 < len(key.encode("utf-8", "surrogateescape")) <= MAX_KEY_BYTES:
        raise ValueError("an empty key" if not key else f"a key over {MAX_KEY_BYTES:,} bytes")
    if not key.startswith(prefix):
        return None
    size, etag = fields[index["Size"]], fields[index["ETag"]].strip('"')
    if not _SIZE.fullmatch(size):
        raise ValueError(f"Size {size[:40]!r} is not a byte count")
    if not _ETAG.fullmatch(etag):
        raise ValueError(f"ETag {etag[:40]!r} is not an entity tag")
    text = fields[index["LastModifiedDate"]]
    modified = _time(text)
    obj: ObjectTypeDef = {"Key": key, "Size": int(size), "ETag": f'"{etag}"'}
    if trusted is not None and modified is not None and trusted(modified):
        obj["LastModified"] = modified
    elif untrusted is not None:
        untrusted.add(text)
    return obj


def _time(text: str) -> datetime | None:
    """LastModifiedDate (ISO 8601: 2026-11-22T01:02:03.000Z) in UTC; None for a time no
    datetime holds in UTC (9999-12-31T23:59:59-14:00: no date to trust either)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise ValueError(f"LastModifiedDate {text[:40]!r} is not an ISO 8601 time with its zone")
    try:
        return when.astimezone(UTC)
    except OverflowError:
        return None


def _flag(fields: list[str], index: dict[str, int], name: str, *, missing: bool) -> bool:
    """A true/false column (IsLatest, IsDeleteMarker); ``missing`` when the report has none."""
    if name not in index:
        return missing
    value = fields[index[name]]
    if value.lower() not in ("true", "false"):
        raise ValueError(f"{name} {value[:40]!r} is neither true nor false")
    return value.lower() == "true"
