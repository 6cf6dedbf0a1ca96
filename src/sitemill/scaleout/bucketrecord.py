"""What a bucket's last run published, for `sitemill check`: its state, digests and pending."""
# A bucket's state names the digests of the sitemap files it published; a partitioned one (a
# sharded site, sitemill.scaleout) holds them in its manifest, and its pages in the shard states
# the manifest names, read one at a time; and the URLs the last run that removed any removed, in
# the manifest too (state.partitioned: never beside the sitemaps).

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.errors import SourceError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.indexnow.outcome import PendingStore
from sitemill.indexnow.pending import ObjectPending, StatePending
from sitemill.jobs.bucket import state_again
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout.partitionedstore import open_partitioned
from sitemill.state.model import State
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

NO_RECORD = (
    "no sitemill state for s3://{where}: `sitemill check` compares the live site with what "
    "the last run published (run `sitemill s3` or the Lambda first, with the same `state`)"
)


def bucket_record(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[State, dict[str, str], PendingStore]:
    """The state of the bucket's last build, its sitemap files' digests by name, and where
    IndexNow's pending URLs are."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        return _partitioned_record(partitioned, site)
    pending = _one_object_pending(config, client, site)
    state = pending.state()
    if state is None:
        said = NO_RECORD.format(where=f"{site.bucket}/{site.root}")
        raise SourceError(said if config.state else said + _stack_state(site))
    return state, state.digests, pending


def _stack_state(site: BucketSite) -> str:
    """Where the S3 stack (infra/template.yaml) keeps the state it names, as the flag to pass:
    in its own state bucket, never beside the sitemaps."""
    return (
        f"; the S3 stack keeps its state in its own bucket (its StateBucketName output): "
        f"pass --state s3://<StateBucketName>/{site.bucket}/{site.root}{STATE_NAME}"
    )


def bucket_pending(config: Config, client: S3Client, site: BucketSite) -> PendingStore:
    """Where the bucket's last run keeps IndexNow's pending URLs (`sitemill indexnow`)."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        return ObjectPending(partitioned.pending_store())
    return _one_object_pending(config, client, site)


def _one_object_pending(config: Config, client: S3Client, site: BucketSite) -> StatePending:
    store, public = state_again(client, site, open_state_store(config, s3_client=lambda: client))
    return StatePending(store, public=public)


def _partitioned_record(
    partitioned: PartitionedStore, site: BucketSite
) -> tuple[State, dict[str, str], PendingStore]:
    manifest = partitioned.read_manifest()
    if not partitioned.trusted or not manifest.entry:
        raise SourceError(NO_RECORD.format(where=f"{site.bucket}/{site.root}"))
    digests = {part.name: part.digest for part in manifest.children}
    digests[manifest.entry] = manifest.digest
    state = State(base_url=manifest.base_url, removed=dict(partitioned.removed))
    for shard in sorted(manifest.states):
        found = partitioned.read_shard(shard)
        if found is None:
            continue
        part = found.state
        state.pages.update(part.pages)
        state.changes.update(part.changes)
        state.fingerprint_version, state.fingerprint_main = (
            part.fingerprint_version,
            part.fingerprint_main,
        )
        state.url_style = state.url_style or part.url_style
    return state, digests, ObjectPending(partitioned.pending_store())
