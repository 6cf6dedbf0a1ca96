"""Read a deployed site from an S3 bucket: its listing as pages, its robots.txt, its old outputs."""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.model import Config, LastmodMode
from sitemill.entries import Page
from sitemill.errors import SitemillError, SourceError
from sitemill.filenames.groupnames import child_group
from sitemill.filenames.outputs import (
    ENTRY_TXT,
    ENTRY_XML,
    MARKDOWN_SUFFIX,
    MAX_STATE_READ_BYTES,
    ROBOTS_TXT,
    STATE_NAME,
    is_llms_name,
    is_own_name,
)
from sitemill.protocol import Precision, format_lastmod
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES, RobotsRules
from sitemill.rules import is_leftover_html_sitemap, may_be_leftover

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ListObjectsV2RequestPaginateTypeDef, ObjectTypeDef

log = logging.getLogger(__name__)

# ListObjectsV2 returns at most 1,000 keys per call; asking for the maximum keeps calls few.
# https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html
LIST_PAGE_SIZE: Final = 1_000
# Empty "folder" markers made by the S3 console (key ending in "/") and by Hadoop tools.
_FOLDER_MARKER_SUFFIX: Final = "_$folder$"
_NOT_FOUND_CODES: Final = frozenset({"NoSuchKey", "404", "NotFound"})


@dataclass(frozen=True, slots=True)
class StoredObject:
    """What a listing says about one object: enough to tell whether new bytes differ."""

    etag: str
    size: int


def _is_llms(name: str) -> bool:  # llms.txt, llms-full.txt, a twin (in its folder's listing)
    return is_llms_name(name) or name.endswith(MARKDOWN_SUFFIX)


@dataclass
class Inventory:
    """sitemill's own files and robots.txt at the prefix root, as one listing found them.

    The source fills it while it streams the listing, so that the sink needs no second LIST;
    ``complete`` turns true once the whole listing has been read.
    """

    objects: dict[str, StoredObject] = field(default_factory=dict)
    complete: bool = False
    had_sitemap: bool = False  # the listing found a sitemap.xml or sitemap.txt (an earlier run)
    # Empty objects the listing skipped (website redirects among them), relative to the prefix.
    empty: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)  # other "sitemap*": sitemill.writing.takeover

    def note(self, name: str, obj: ObjectTypeDef) -> None:
        """Remember a root-level object if it is one that the sink may replace or delete (a
        named group's child by its shape: the configuration says whose it is)."""
        if name == ROBOTS_TXT or is_own_name(name) or _is_llms(name):
            self.objects[name] = StoredObject(obj.get("ETag", ""), obj.get("Size", 0))
        elif name.startswith("sitemap"):
            self.others.add(name)
            if child_group(name) is not None:
                self.objects[name] = StoredObject(obj.get("ETag", ""), obj.get("Size", 0))

    def tells(self, name: str) -> bool:
        """Whether the listing notes a root-level object of that name (then one it does not
        hold is not there); of any other, it says nothing."""
        own = name == ROBOTS_TXT or is_own_name(name) or _is_llms(name)
        return own or name.startswith("sitemap")


def _users_page(
    config: Config, name: str, obj: ObjectTypeDef, read_head: HeadReader | None
) -> bool:
    """Whether the root object ``name`` of one of sitemill's names is a page of the user's:
    a sitemap.html while html_sitemap is off, unless its head says sitemill made it (an
    earlier run's, which this run deletes: ``read_head`` reads it, one ranged GET; without
    one, as for weighing pages, it counts as a page)."""
    if not may_be_leftover(config, name) or obj.get("Size", 0) == 0:
        return False
    return read_head is None or not is_leftover_html_sitemap(read_head(name))


def describe_error(exc: ClientError | BotoCoreError) -> str:
    """One line naming the S3 error code and HTTP status, without request details."""
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        message = " ".join(str(error.get("Message", "")).split())[:200]
        code = error.get("Code", "error")
        return f"{code} (HTTP {status}){': ' + message if message else ''}"
    return " ".join(str(exc).split())[:300]


def is_not_found(exc: ClientError) -> bool:
    """True for the errors S3 gives for a key that does not exist."""
    return str(exc.response.get("Error", {}).get("Code", "")) in _NOT_FOUND_CODES


def list_objects(
    client: S3Client,
    bucket: str,
    prefix: str,
    *,
    delimiter: str = "",
    start_after: str = "",
    last: str | None = None,
) -> Iterator[ObjectTypeDef]:
    """Every object under ``prefix``, in key order, one LIST call per 1,000 keys; with
    ``start_after`` and ``last``, only keys ``start_after < key <= last`` (a shard's range:
    the listing stops at the first key past ``last``)."""
    request: ListObjectsV2RequestPaginateTypeDef = {
        "Bucket": bucket,
        "Prefix": prefix,
        "PaginationConfig": {"PageSize": LIST_PAGE_SIZE},
    }
    if delimiter:
        request["Delimiter"] = delimiter
    if start_after:
        request["StartAfter"] = start_after
    pages = client.get_paginator("list_objects_v2").paginate(**request)
    try:
        for page in pages:
            for obj in page.get("Contents", ()):
                if last is not None and obj.get("Key", "") > last:
                    return
                yield obj
    except (ClientError, BotoCoreError) as exc:
        raise SourceError(f"cannot list s3://{bucket}/{prefix}: {describe_error(exc)}") from exc


def list_range(
    client: S3Client, bucket: str, root: str, after: str, last: str | None
) -> Iterator[ObjectTypeDef]:
    """The objects of a shard's range under ``root``: ``after < key <= last`` (both relative
    to ``root``; ``after`` "" from the first key, ``last`` None to the last)."""
    end = None if last is None else root + last
    return list_objects(client, bucket, root, start_after=root + after if after else "", last=end)


def read_object(
    client: S3Client,
    bucket: str,
    key: str,
    *,
    error: type[SitemillError] = SourceError,
    limit: int | None = None,
    redirect: list[str] | None = None,
) -> bytes | None:
    """The bytes of one object (its first ``limit`` bytes: one ranged GET), or None when it
    does not exist; failures raise ``error``. ``redirect`` gets the object's website
    redirect (x-amz-website-redirect-location), if it has one."""
    try:
        if limit is None:
            response = client.get_object(Bucket=bucket, Key=key)
        else:
            response = client.get_object(Bucket=bucket, Key=key, Range=f"bytes=0-{limit - 1}")
        if redirect is not None and response.get("WebsiteRedirectLocation"):
            redirect.append(response["WebsiteRedirectLocation"])
        return response["Body"].read(limit)
    except ClientError as exc:
        if is_not_found(exc):
            return None
        if limit is not None and exc.response.get("Error", {}).get("Code") == "InvalidRange":
            return b""  # a ranged GET of an empty object
        raise error(f"cannot read s3://{bucket}/{key}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise error(f"cannot read s3://{bucket}/{key}: {describe_error(exc)}") from exc


def read_bucket_state(client: S3Client, bucket: str, prefix: str) -> bytes | None:
    """The bytes of the state the last run left at the prefix root (one GET), or None when
    there is none (a first run, or ``aws s3 sync --delete`` removed it)."""
    return read_missing_as_none(client, bucket, prefix + STATE_NAME, limit=MAX_STATE_READ_BYTES)


def read_missing_as_none(
    client: S3Client, bucket: str, key: str, *, limit: int, redirect: list[str] | None = None
) -> bytes | None:
    """``read_object``, where a key that does not exist is None even when S3 says 403.

    S3 answers a GET of a missing key with 403 AccessDenied, not 404, to a caller that may
    not list it, and the stack's s3:ListBucket carries an s3:prefix condition that a GET
    does not. A page deleted between the listing and its GET, or a first run's state, must
    not fail the rebuild: on AccessDenied, one LIST of exactly this key tells "gone" from
    "denied". https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html
    """
    try:
        return read_object(client, bucket, key, limit=limit, redirect=redirect)
    except SourceError as exc:
        cause = exc.__cause__
        if isinstance(cause, ClientError) and _is_access_denied(cause):
            with contextlib.suppress(SourceError):  # (a denied LIST cannot tell: it is there)
                if listed_object(client, bucket, key) is None:
                    return None
            raise SourceError(
                f"{exc} (the object exists: these credentials may not read it)"
            ) from cause
        raise


def listed_object(client: S3Client, bucket: str, key: str) -> ObjectTypeDef | None:
    """What a listing says of ``key`` (None: no such key), by one LIST of that key alone: a
    HEAD's facts under s3:ListBucket (a HEAD needs s3:GetObject on the key)."""
    try:
        response = client.list_objects_v2(Bucket=bucket, Prefix=key, MaxKeys=1)
    except (ClientError, BotoCoreError) as exc:
        raise SourceError(f"cannot list s3://{bucket}/{key}: {describe_error(exc)}") from exc
    found = response.get("Contents", [])
    return found[0] if found and found[0].get("Key") == key else None


def read_bucket_robots(client: S3Client, bucket: str, prefix: str) -> RobotsRules | None:
    """The rules of robots.txt at the site root (one GET), or None when there is none.

    A robots.txt that exists but may not be read (AccessDenied) is taken as none, with a
    warning; a missing one is none, whatever S3 says (see ``read_missing_as_none``).
    """
    key = prefix + ROBOTS_TXT
    try:  # Google reads the first 500 KiB and ignores the rest: a huge object costs no more
        data = read_missing_as_none(client, bucket, key, limit=MAX_ROBOTS_TXT_BYTES)
    except SourceError as exc:
        cause = exc.__cause__
        if not (isinstance(cause, ClientError) and _is_access_denied(cause)):
            raise
        log.warning("cannot read s3://%s/%s (access denied): taken as no robots.txt", bucket, key)
        return None
    return None if data is None else RobotsRules.parse(data.decode("utf-8", "replace"))


def _is_access_denied(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") in ("AccessDenied", "403")


# Reads the first bytes of a root object by its name (its head: ``head_reader``).
HeadReader = Callable[[str], bytes | None]


def head_reader(client: S3Client, bucket: str, prefix: str) -> HeadReader:
    """The head of a root object (one ranged GET of PAGE_FACTS_BYTES); None when it is gone.
    A failed read raises SourceError: guessing "the user's page" would list a sitemap.html
    that the run, reading it again after its commit, proves sitemill's and deletes."""
    from sitemill.html.meta import PAGE_FACTS_BYTES

    def read(name: str) -> bytes | None:
        return read_object(client, bucket, prefix + name, limit=PAGE_FACTS_BYTES)

    return read


def bucket_pages(
    config: Config,
    objects: Iterable[ObjectTypeDef],
    prefix: str,
    inventory: Inventory,
    read_head: HeadReader | None = None,
) -> Iterator[Page]:
    """The objects as pages (path relative to the prefix), noting old outputs in ``inventory``.

    Skipped: folder markers, and zero-byte objects, which are not pages but placeholders or
    website redirects (x-amz-website-redirect-location has an empty body). Include, exclude
    and every other rule are the pipeline's job, exactly as for a file tree.
    """
    precision = Precision.DATETIME  # remembered at full precision; written as configured
    keep_lastmod = config.lastmod is not LastmodMode.NONE
    skipped = 0
    for obj in objects:
        path = obj.get("Key", "")[len(prefix) :]
        if "/" not in path:
            inventory.note(path, obj)
            if is_own_name(path) and not _users_page(config, path, obj, read_head):
                continue
        if not path or path.endswith(("/", _FOLDER_MARKER_SUFFIX)) or obj.get("Size", 0) == 0:
            if path and not path.endswith(("/", _FOLDER_MARKER_SUFFIX)):
                inventory.empty.add(path)  # (a website redirect? asked only if named)
            skipped += 1
            continue
        modified = obj.get("LastModified")
        lastmod = format_lastmod(modified, precision) if keep_lastmod and modified else None
        yield Page(path, lastmod, version=obj.get("ETag"))
    inventory.complete = True
    inventory.had_sitemap = any(name in inventory.objects for name in (ENTRY_XML, ENTRY_TXT))
    if skipped:
        log.info("skipped %d folder markers and empty objects", skipped)


# S3 operations by the kind a report tells (sitemill.report.REQUEST_KINDS); others by name.
_KINDS: Final = {
    "ListObjectsV2": "LIST",
    "GetObject": "GET",
    "HeadObject": "HEAD",
    "PutObject": "PUT",
    "CopyObject": "PUT",
    "DeleteObject": "DELETE",
    "DeleteObjects": "DELETE",
}


@contextmanager
def counted_requests(client: S3Client, counts: Counter[str]) -> Iterator[None]:
    """Count, by kind, every S3 request ``client`` makes meanwhile (a botocore hook: once per
    call, whatever its retries)."""

    def count(model: Any, **_: Any) -> None:
        counts[_KINDS.get(model.name, model.name)] += 1

    client.meta.events.register("before-call.s3", count)
    try:
        yield
    finally:
        client.meta.events.unregister("before-call.s3", count)
