"""sitemill's sitemap files overwritten by another writer, told by the digests on record."""
# `aws s3 sync` of a build folder replaces sitemill's sitemap.xml with the generator's, or with
# another run's. The creation of each of sitemill's names reaches the function
# (infra/template.yaml); the object is compared with the digests the committed record (the sharded
# manifest, else the state) says sitemill published, never a file's shape: other bytes ask for the
# rebuild that puts sitemill's back; the same bytes are sitemill's own write coming back.

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.aws._selection import Selection
from sitemill.config.model import Config, OutputFormat
from sitemill.errors import SitemillError, SourceError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, read_limit, stored_digest
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.sources.s3 import describe_error, is_not_found, read_bucket_state, read_object
from sitemill.state.parse import parse_state
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

Digests = dict[str, str]  # name (under the prefix) -> the MD5 hex of the bytes published
# An ETag that is the MD5 of the body: a single PUT without SSE-KMS. Another one (a multipart
# upload's "…-N", an SSE-KMS object's) tells nothing: the bytes are read and hashed instead.
_KMS: Final = ("aws:kms", "aws:kms:dsse")


def restore_overwritten(
    config: Config,
    selection: Selection,
    client: Callable[[], S3Client],
    site_of: Callable[[str], BucketSite],
) -> None:
    """Count as relevant (``selection.own_replaced``) each of sitemill's sitemap files whose
    write was notified and whose object is not what the committed record says sitemill
    published: one HEAD each (a GET where the ETag is no MD5), after one read of the record.
    With no record to read, the entry file is counted (the rebuild records one); another
    file waits for its index. An object that is gone changes nothing here (its deletion is
    an event of its own)."""
    buckets = sorted({change.bucket for change in selection.own_written})
    if len(buckets) != 1:
        return  # (none, or several with no SITEMILL_BUCKET: choose_bucket refuses those)
    site = site_of(buckets[0])
    names = sorted({change.key[len(site.root) :] for change in selection.own_written})
    s3 = client()
    partitioned = open_partitioned(config, s3, site)
    if selection.relevant and partitioned is None:
        return  # a full pass rewrites every file whose bytes are not the ones it publishes
    record = published_digests(config, s3, site, partitioned)
    for name in names:
        why = _why_replaced(s3, site, name, record, _entry_names(config))
        if why is None:
            continue
        log.warning(
            "s3://%s/%s%s %s (a sync of a build folder?): rebuilding puts sitemill's back",
            site.bucket,
            site.root,
            name,
            why,
        )
        selection.own_replaced.append(name)
        selection.relevant += 1
        selection.buckets.add(site.bucket)
        _unignore(selection, sum(1 for c in selection.own_written if c.key == site.root + name))


def published_digests(
    config: Config, s3: S3Client, site: BucketSite, partitioned: PartitionedStore | None
) -> Digests | None:
    """What the committed record says sitemill published: the sharded manifest's entry file
    and children (``partitioned``), else the state's digests; None when there is none to
    read or trust."""
    try:
        if partitioned is not None:
            manifest = partitioned.read_manifest()
            if not partitioned.trusted or not manifest.entry or not manifest.digest:
                return None
            return manifest.published_digests()
        store = open_state_store(config, s3_client=lambda: s3)
        data = read_bucket_state(s3, site.bucket, site.root) if store is None else store.read()
        if data is None:
            return None
        return parse_state(data).digests or None
    except SitemillError as exc:
        log.warning("cannot read what sitemill last published (%s): a rebuild decides", exc)
        return None


def _entry_names(config: Config) -> tuple[str, ...]:
    """The entry files crawlers are told about that this configuration writes."""
    return (ENTRY_XML, ENTRY_TXT) if config.format is OutputFormat.TXT else (ENTRY_XML,)


def _why_replaced(
    s3: S3Client, site: BucketSite, name: str, record: Digests | None, entries: Iterable[str]
) -> str | None:
    """Why the object ``name`` is not sitemill's (None: it is, or it is gone, or nothing of
    sitemill's names it: another run's file on its way, or a stray)."""
    expected = None if record is None else record.get(name)
    if expected is None and name not in entries:
        return None  # (with no record: the entry file, what crawlers read, is counted)
    held = _held_digest(s3, site, name)
    if held is None or held == expected:
        return None
    if record is None:
        return "was written, and no record of what sitemill published can be read"
    return "is not the file sitemill published"


def _held_digest(s3: S3Client, site: BucketSite, name: str) -> str | None:
    """The MD5 of the object's bytes: its ETag (one HEAD) when that is one, else from its
    bytes (one GET, bounded); None when the object is gone. A file larger than sitemill
    writes under the name is no file of sitemill's ("" never matches)."""
    key = site.root + name
    try:
        head = s3.head_object(Bucket=site.bucket, Key=key)
    except ClientError as exc:
        if is_not_found(exc):
            return None
        raise _read_error(site, key, exc) from exc
    except BotoCoreError as exc:
        raise _read_error(site, key, exc) from exc
    etag = str(head.get("ETag", "")).strip('"')
    if "-" not in etag and str(head.get("ServerSideEncryption", "")) not in _KMS:
        return etag
    if int(head.get("ContentLength", 0)) > read_limit(name):
        return ""
    data = read_object(s3, site.bucket, key, limit=read_limit(name) + 1)
    return None if data is None else stored_digest(data)


def _read_error(site: BucketSite, key: str, exc: ClientError | BotoCoreError) -> SourceError:
    return SourceError(f"cannot read s3://{site.bucket}/{key}: {describe_error(exc)}")


def _unignore(selection: Selection, count: int) -> None:
    """The writes of a file found replaced are relevant, not sitemill's own output."""
    selection.ignored["own_output"] -= count
    if selection.ignored["own_output"] <= 0:
        del selection.ignored["own_output"]
