"""What a bucket's last run published, for `sitemill check`: its state, digests and pending."""
# A bucket's state names the digests of the sitemap files it published; a partitioned one (a
# sharded site, sitemill.scaleout) holds them in its manifest, and its pages in the shard states
# the manifest names, read one at a time; and the URLs the last run that removed any removed, in
# the manifest too (state.partitioned: never beside the sitemaps). Where IndexNow keeps its pending
# URLs (in the state, or in an object of their own beside a partitioned one) is told by the front
# end (PendingPlaces: indexnow.pending.PENDING_PLACES): the run names no feature.

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

from sitemill.config.model import Config
from sitemill.errors import SourceError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import state_again
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout.partitionedstore import open_partitioned
from sitemill.state.model import State
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.store import StateStore, open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

P = TypeVar("P")


class PendingPlaces(Protocol[P]):
    """Where a front end's pending URLs are kept: ``in_state`` (read with it: ``state``, whose
    reading a write later settles over), or in an object of their own (``own_object``)."""

    def in_state(self, store: StateStore, *, public: bool) -> P: ...

    def state(self, pending: P) -> State | None: ...

    def own_object(self, store: StateStore) -> P: ...


NO_RECORD = (
    "no sitemill state for s3://{where}: `sitemill check` compares the live site with what "
    "the last run published (run `sitemill s3` or the Lambda first, with the same `state`)"
)


def bucket_record(
    config: Config, client: S3Client, site: BucketSite, places: PendingPlaces[P]
) -> tuple[State, dict[str, str], P]:
    """The state of the bucket's last build, its sitemap files' digests by name, and where
    its pending URLs are (``places``)."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        state, digests = _partitioned_record(partitioned, site)
        return state, digests, places.own_object(partitioned.pending_store())
    pending = _one_object_pending(config, client, site, places)
    found = places.state(pending)
    if found is None:
        said = NO_RECORD.format(where=f"{site.bucket}/{site.root}")
        raise SourceError(said if config.state else said + _stack_state(site))
    return found, found.digests, pending


def _stack_state(site: BucketSite) -> str:
    """Where the S3 stack (infra/template.yaml) keeps the state it names, as the flag to pass:
    in its own state bucket, never beside the sitemaps."""
    return (
        f"; the S3 stack keeps its state in its own bucket (its StateBucketName output): "
        f"pass --state s3://<StateBucketName>/{site.bucket}/{site.root}{STATE_NAME}"
    )


def bucket_pending(
    config: Config, client: S3Client, site: BucketSite, places: PendingPlaces[P]
) -> P:
    """Where the bucket's last run keeps its pending URLs (`sitemill indexnow`)."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        return places.own_object(partitioned.pending_store())
    return _one_object_pending(config, client, site, places)


def _one_object_pending(
    config: Config, client: S3Client, site: BucketSite, places: PendingPlaces[P]
) -> P:
    store, public = state_again(client, site, open_state_store(config, s3_client=lambda: client))
    return places.in_state(store, public=public)


def _partitioned_record(
    partitioned: PartitionedStore, site: BucketSite
) -> tuple[State, dict[str, str]]:
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
    return state, digests
