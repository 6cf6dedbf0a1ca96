"""The Sink for an S3 prefix: skips unchanged files; every write is conditional."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.errors import SinkError, TooLargeError
from sitemill.filenames.outputs import (
    DEFAULT_CACHE_CONTROL,
    ENTRY_XML,
    normalize_prefix,
    read_limit,
)
from sitemill.sinks.s3conditional import (
    Headers,
    IfMatch,
    delete_object,
    put_object,
    renew_object,
)
from sitemill.sources.s3 import (
    Inventory,
    StoredObject,
    list_objects,
    read_object,
)

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)


def _md5(data: bytes) -> bytes:
    # MD5 is what S3 uses as the ETag of a single-part upload; not a security use.
    return hashlib.md5(data, usedforsecurity=False).digest()


def holds(stored: StoredObject, data: bytes) -> bool:
    """True when the stored object certainly has exactly these bytes.

    The ETag of a single-part upload without SSE-KMS is the hex MD5 of the body; a multipart
    ETag has a "-" and an SSE-KMS ETag is opaque, so those never compare equal and the file
    is simply written again.
    """
    return stored.size == len(data) and stored.etag.strip('"') == _md5(data).hex()


class S3Sink:
    """Files under one prefix of a bucket (only sitemill's own names and robots.txt).

    Give it the ``inventory`` the S3 source fills while listing to spare a second LIST; without
    one it lists the prefix root itself on first use. ``dry_run`` compares and records, and
    never writes or deletes.
    """

    def __init__(
        self,
        client: S3Client,
        bucket: str,
        prefix: str = "",
        *,
        cache_control: str = DEFAULT_CACHE_CONTROL,
        inventory: Inventory | None = None,
        dry_run: bool = False,
    ) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = normalize_prefix(prefix)
        self.cache_control = cache_control
        self.dry_run = dry_run
        self.written: list[str] = []
        self.deleted: list[str] = []
        self._inventory = inventory
        self.entry_before: bytes | None = None  # sitemap.xml as first read, before any write
        # sitemap.xml larger than any sitemill writes (someone else's): what tells whose it is
        # and what it names (sitemill.writing.sitemapfile.read_size), read before any write.
        self.entry_head: bytes | None = None
        self._head: tuple[int, Callable[[bytes], int]] | None = None  # (keep_entry's reading)
        self._pending: dict[str, bytes] = {}  # a dry run's would-be writes, for reading back
        self._supports_conditions: bool | None = None

    def _uri(self, name: str) -> str:
        return f"s3://{self.bucket}/{self.prefix}{name}"

    def _objects(self) -> dict[str, StoredObject]:
        if self._inventory is None:
            self._inventory = Inventory()
            for obj in list_objects(self.client, self.bucket, self.prefix, delimiter="/"):
                self._inventory.note(obj.get("Key", "")[len(self.prefix) :], obj)
            self._inventory.complete = True
        if not self._inventory.complete:
            # The index must be written against the ETags of one finished listing.
            raise SinkError(f"internal error: {self._uri('')} was written before it was listed")
        return self._inventory.objects

    def read(self, name: str) -> bytes | None:
        if self.dry_run and name in self._pending:
            return self._pending[name]
        stored = self._objects().get(name)
        if stored is None:
            return None  # the listing says it does not exist: no GET needed
        if name == ENTRY_XML and not self.written and self.entry_before is not None:
            return self.entry_before  # (read before this run wrote: the version listed)
        if stored.size > (limit := read_limit(name)):
            # As for a local folder: no sitemap or robots.txt sitemill rewrites is this big.
            if name == ENTRY_XML and not self.written and self._head is not None:
                self.entry_head = self._read_entry_head(*self._head)  # (buckettakeover)
                self._head = None
            raise SinkError(
                f"refusing to read or replace {self._uri(name)}: {stored.size:,} bytes is more "
                f"than such a file may hold ({limit:,}); remove or shrink it"
            ) from TooLargeError(self._uri(name), f"is larger than {limit:,} bytes")
        data = read_object(self.client, self.bucket, self.prefix + name, error=SinkError)
        if name == ENTRY_XML and not self.written and self.entry_before is None:
            self.entry_before = data  # (sitemill.jobs._buckettakeover: whose it was)
        return data

    def keep_entry(self, head_bytes: int, size_of: Callable[[bytes], int]) -> None:
        """Keep sitemap.xml as listed, before this run writes: its bytes (entry_before), or
        when it is larger than a sitemap may be, its telling head (entry_head), bounded: its
        first ``head_bytes``, then as much as ``size_of`` that head says tells what it names
        (the caller's reading of a sitemap: a sink knows no sitemap)."""
        if self.entry_head is None:
            self._head = (head_bytes, size_of)
        try:
            self.read(ENTRY_XML)
        except SinkError as exc:
            if not isinstance(exc.__cause__, TooLargeError):
                raise

    def _read_entry_head(self, head_bytes: int, size_of: Callable[[bytes], int]) -> bytes:
        """The first bytes of a sitemap.xml too large to read whole: its head, or as much as
        that head says tells what it names (ranged GETs: never the whole object)."""
        key = self.prefix + ENTRY_XML
        head = read_object(self.client, self.bucket, key, error=SinkError, limit=head_bytes)
        size = size_of(head or b"")
        if head is None or len(head) < head_bytes or size <= len(head):
            return head or b""
        return read_object(self.client, self.bucket, key, error=SinkError, limit=size) or head

    def names(self) -> Iterator[str]:
        return iter(sorted(self._objects()))

    def holds(self, name: str, staged: Path) -> bool:
        stored = self._objects().get(name)
        return stored is not None and holds(stored, staged.read_bytes())

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        """Write unless the listed object has these bytes; every write is conditional.

        The condition is the ETag this run listed (``If-Match``), or that the key is still
        absent (``If-None-Match: *``): a version another writer put there meanwhile is never
        replaced; the ConflictError tells the caller to list again and redo its work.
        """
        objects = self._objects()
        stored = objects.get(name)
        if stored is not None and holds(stored, data):
            return False
        digest = _md5(data)
        if self.dry_run:
            self._pending[name] = data
        else:
            etag = self._put_object(name, data, digest, content_type, expected=stored)
            objects[name] = StoredObject(etag, len(data))
        self.written.append(name)
        return True

    def _put_object(
        self,
        name: str,
        data: bytes,
        digest: bytes,
        content_type: str,
        *,
        expected: StoredObject | None,
    ) -> str:
        condition = None
        if self._conditional():  # (over the version listed, or where the key is still absent)
            condition = IfMatch(None if expected is None else expected.etag)
        return put_object(
            self.client,
            self.bucket,
            self.prefix + name,
            data,
            digest=digest,
            headers=Headers(content_type, self.cache_control),
            condition=condition,
        )

    def _conditional(self) -> bool:
        if self._supports_conditions is None:
            self._supports_conditions = supports_conditional_put(self.client)
        return self._supports_conditions

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.put(name, staged.read_bytes(), content_type=content_type)

    def renew(self, name: str, data: bytes, *, content_type: str) -> None:
        """Give the listed object that holds ``data`` a new ETag (sitemill.sinks.port)."""
        stored = self._objects().get(name)
        if stored is not None and not self.dry_run:
            etag = renew_object(
                self.client, self.bucket, self.prefix + name, data, content_type=content_type,
                cache_control=self.cache_control,
                expected_etag=stored.etag if self._conditional() else None,
            )  # fmt: skip
            self._objects()[name] = StoredObject(etag, len(data))

    def delete(self, name: str) -> None:
        """Delete, if the object is still the version listed (If-Match): one another writer
        put there since is never deleted (a ConflictError)."""
        if not self.dry_run:
            stored = self._objects().get(name)
            etag = stored.etag if stored is not None and self._conditional() else None
            delete_object(self.client, self.bucket, self.prefix + name, etag, self._uri(name))
        self._objects().pop(name, None)
        self._pending.pop(name, None)
        self.deleted.append(name)


def supports_conditional_put(client: S3Client) -> bool:
    """Whether this botocore knows PutObject's IfMatch (added in late 2024).

    The Lambda runtime's bundled boto3 may be older; without the parameter the write is
    unconditional, which is still safe with the stack's single writer (reserved concurrency 1).
    """
    shape = client.meta.service_model.operation_model("PutObject").input_shape
    if shape is not None and {"IfMatch", "IfNoneMatch"} <= set(shape.members):
        return True
    log.warning("this botocore cannot make conditional writes; writing unconditionally")
    return False
