"""How a run of a sharded bucket commits (docs/distributed.md, "How a run commits")."""
# Stage (new objects under names their content gives), commit (one write of the manifest, If-Match
# the version the run started from: a 412 is a ConflictError, and the caller starts again), go live
# (the entry file, If-Match the version live when the run read it), collect (the names the commit
# retired, after it and only after it). A run that fails before the commit leaves garbage no
# manifest names, never a half-published sitemap.

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.model import Config
from sitemill.config.tables import group_names
from sitemill.errors import ConflictError, SinkError, SourceError
from sitemill.filenames.groupnames import index_rank
from sitemill.filenames.outputs import (
    ENTRY_TXT,
    ENTRY_XML,
    content_type,
    stored_digest,
)
from sitemill.jobs.bucketsite import BucketSite
from sitemill.render.indexes import IndexItem
from sitemill.render.renderer import Renderer
from sitemill.report import WriteResult
from sitemill.scaleout._shardcollect import delete_retired
from sitemill.shards.manifest import (
    IndexState,
    Publication,
    next_manifest,
)
from sitemill.shards.partition import Part
from sitemill.shards.plan import MAX_SHARDS
from sitemill.sinks.s3 import S3Sink, supports_conditional_put
from sitemill.sinks.s3conditional import Headers, IfMatch, put_object
from sitemill.sources.s3 import describe_error, is_not_found
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.removedurls import RemovedUrl
from sitemill.writing.childdates import dated_parts

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.writing.ownbytes import OwnFiles

log = logging.getLogger(__name__)

# Times the entry file is written again after another writer replaced it right after this
# run's commit (each time only while the committed manifest is still this run's).
_GO_LIVE_TRIES: Final = 3
_ENTRIES: Final = (ENTRY_XML, ENTRY_TXT)


@dataclass(frozen=True, slots=True)
class Live:
    """An entry file as it was live when the run began: its ETag (None: there was none)."""

    etag: str | None
    name: str = ENTRY_XML

    @property
    def digest(self) -> str | None:
        return None if self.etag is None else self.etag.strip('"')


def head_live(client: S3Client, site: BucketSite, name: str = ENTRY_XML) -> Live:
    """The live entry file's ETag, by one HEAD (the MD5 of its bytes: one PUT wrote it)."""
    try:
        head = client.head_object(Bucket=site.bucket, Key=site.root + name)
    except ClientError as exc:
        if is_not_found(exc):
            return Live(None, name)
        raise SourceError(f"cannot read {name}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise SourceError(f"cannot read {name}: {describe_error(exc)}") from exc
    return Live(str(head.get("ETag", "")) or None, name)


def put_child(client: S3Client, site: BucketSite, name: str, data: bytes) -> None:
    """Put one of a run's files up under its own name (unconditional: whatever the name
    holds, it is these bytes; no reader follows it before a manifest names it)."""
    put_object(
        client,
        site.bucket,
        site.root + name,
        data,
        digest=bytes.fromhex(stored_digest(data)),
        headers=Headers(content_type(name), site.cache_control),
    )


def render_manifest_index(config: Config, parts: list[Part], users: Sequence[str] = ()) -> bytes:
    """The index of ``parts`` (the children a manifest names, in the plan's order), as it
    goes live: the default children first, then each named group's (docs/output.md), then
    the ``users``' sitemaps (absolute locs, sorted), without a <lastmod>, as a one-state run's."""
    if config.groups:
        rank = index_rank(group_names(config.groups))
        parts = sorted(parts, key=lambda part: rank(part.name))  # (stable)
    items = [IndexItem(config.base_url + part.name, part.lastmod) for part in parts]
    items += [IndexItem(loc, None) for loc in users]
    renderer = Renderer(config.templates_dir, text=False)
    ((_, data),) = renderer.render_indexes(
        items, max_per_index=MAX_SHARDS, max_bytes=config.max_bytes
    )
    return data


def entry_of(
    config: Config, parts: list[Part], single: bytes | None, users: Sequence[str] = ()
) -> tuple[str, bytes]:
    """The entry file of ``parts``: the single file itself, or their index (naming the
    ``users``' sitemaps too: with any, a run renders no single file)."""
    if is_single(parts) and not users:
        if single is None:
            raise ValueError("a single sitemap's bytes are needed to publish it")
        return parts[0].name, single
    return ENTRY_XML, render_manifest_index(config, parts, users)


def is_single(parts: list[Part]) -> bool:
    return len(parts) == 1 and parts[0].name in _ENTRIES


def index_parts(config: Config, parts: list[Part], base: IndexState, now: datetime) -> list[Part]:
    """``parts`` as the manifest keeps them: an index's children dated by when their bytes
    changed (sitemill.writing.childdates), over the manifest ``base``; a single file as is."""
    return parts if is_single(parts) else dated_parts(config, parts, base.children, now)


@dataclass(frozen=True, slots=True)
class ShardCommit:
    """What a run publishes over ``base``: the manifest's parts and its entry's bytes; the
    URLs it removed, kept in the manifest for `sitemill check` (None: the base's, kept); and
    the ``owners``, the output features the run lists that a deletion asks too."""

    base: IndexState
    published: Publication
    entry: bytes
    strays: tuple[str, ...] = ()
    removed: dict[str, RemovedUrl] | None = None
    owners: Sequence[OwnFiles] = ()


def commit_and_go_live(
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    commit: ShardCommit,
    live: Live,
    now: datetime,
    result: WriteResult,
) -> bool:
    """Commit the manifest (a ConflictError when another run committed since ``base`` was
    read), then write the entry file from it, then delete what the commit retired; whether
    the manifest was written. ``result`` gets the entry's name and every write."""
    manifest, due = next_manifest(commit.base, commit.published, now, commit.strays)
    name = commit.published.entry
    if live.name != name:  # (one file became an index, or the other way round)
        live = head_live(client, site, name)
    committed = store.commit(manifest, commit.removed)
    result.entry_files.append(name)
    result.files[:0] = [name] + [p.name for p in commit.published.children if p.name != name]
    if go_live(client, site, store, name, commit.entry, live):
        result.written.insert(0, name)
    else:
        result.unchanged.insert(0, name)
    old = commit.base.entry
    if old and old != name:  # the entry file the index replaces (its own URL in robots.txt)
        due = [*due, old]
    base = commit.base  # (the MD5s of the files it named prove them: writing.ownbytes)
    recorded = base.published_digests()
    result.deleted.extend(delete_retired(client, site, store, due, recorded, commit.owners))
    return committed


def go_live(
    client: S3Client, site: BucketSite, store: PartitionedStore, name: str, data: bytes, live: Live
) -> bool:
    """Write the committed entry file over the one live when the run began (If-Match): if
    another writer replaced it since, read both again and write once more while the
    committed manifest is still this run's (a newer one is its committer's to publish)."""
    digest = stored_digest(data)
    ours = store.etag
    for attempt in range(1, _GO_LIVE_TRIES + 1):
        if live.digest == digest:
            return False
        try:
            put_object(
                client,
                site.bucket,
                site.root + name,
                data,
                digest=bytes.fromhex(digest),
                headers=Headers(content_type(name), site.cache_control),
                condition=IfMatch(live.etag) if supports_conditional_put(client) else None,
            )
        except ConflictError:
            live = head_live(client, site, name)  # (first: then the manifest it must match)
            store.read_manifest()
            if store.etag != ours or attempt == _GO_LIVE_TRIES:
                log.warning(
                    "%s was replaced by another writer right after this run's commit; the "
                    "run that committed last, or the next one, puts it right",
                    name,
                )
                return False
            continue
        return True
    return False


def publish_after_commit(
    client: S3Client, site: BucketSite, files: Mapping[str, bytes], result: WriteResult
) -> None:
    """The files the outputs published with the sitemaps made (sitemap.html), once the
    sitemaps they link are live (each in place, conditional)."""
    sink = S3Sink(client, site.bucket, site.root, cache_control=site.cache_control)
    for name, data in files.items():
        if sink.put(name, data, content_type=content_type(name)):
            result.written.append(name)


def delete_after_commit(listed: S3Sink, names: Iterable[str], result: WriteResult) -> None:
    """The files the outputs published with the sitemaps proved their own in the pass
    (sitemill's leftover sitemap.html), deleted once the commit is live, each only while it
    is the version ``listed`` (the pass's listing) holds (a failure is a warning)."""
    for name in names:
        try:
            listed.delete(name)
        except SinkError as exc:
            message = f"could not delete sitemill's old {name} ({exc}); the next run tries again"
            log.warning("%s", message)
            result.warnings.append(message)
            continue
        result.deleted.append(name)
