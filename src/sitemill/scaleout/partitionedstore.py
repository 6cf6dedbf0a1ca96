"""The partitioned state a configuration names for a bucket site, opened (or None), and a run
over it (ShardedRun)."""
# Apart from sitemill.scaleout.partitioned's rebuild: the router opens it to read what sitemill
# last published (sitemill.aws._overwritten) without importing the rebuild; a run over a bucket
# whose state is one object learns so (partitioned_prefix) without importing the manifest and the
# shard states (sitemill.state.partitioned).

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, ShardsMode
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucketsite import BucketSite
from sitemill.state.s3 import parse_s3_location

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.outputs import OutputFeature
    from sitemill.state.partitioned import PartitionedStore


@dataclass(frozen=True, slots=True)
class ShardedRun:
    """Where a run over a partitioned state runs (the router's shards, a full sharded rebuild,
    a distributed rebuild: each adds what it needs) and what its front end ``asked`` (RunAsked:
    its dry run, progress, output features); what a commit needs (scaleout._runcommit)."""

    config: Config
    client: S3Client
    site: BucketSite
    store: PartitionedStore
    asked: RunAsked = field(default=SITEMAPS_ALONE, kw_only=True)

    @property
    def outputs(self) -> Sequence[OutputFeature]:
        """The output features the front end lists."""
        return self.asked.outputs


def open_partitioned(config: Config, client: S3Client, site: BucketSite) -> PartitionedStore | None:
    """The partitioned state ``config`` names (sitemill.state.partitioned), or None: also when
    it would sit in the site's own bucket, where a shard's listing could be served (the one
    state object there names no page the sitemaps leave out)."""
    where = partitioned_prefix(config)
    if where is None or config.state is None or where[0] == site.bucket:
        return None
    # The one state object of earlier runs (sitemill.state.s3): a first partitioned run
    # starts from it, so that no head is read again and no content date is lost.
    legacy = parse_s3_location(config.state)[1]
    from sitemill.state.partitioned import PartitionedStore  # (a partitioned state's only)

    return PartitionedStore(client, *where, legacy=legacy, base_url=config.base_url)


_SUFFIXES: Final = (".json.gz", ".gz", ".json")


def partitioned_prefix(config: Config) -> tuple[str, str] | None:
    """(bucket, prefix) of the partitioned state, or None when a bucket's state is not
    partitioned: it is only in a state location of its own (never beside the public
    sitemaps: a shard state names every object of its range) and with shards not "off"."""
    if config.state is None or not config.state.startswith("s3://"):
        return None
    if config.shards is ShardsMode.OFF:
        return None
    bucket, key = parse_s3_location(config.state)
    for suffix in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
            break
    return bucket, key + "/"
