"""A run over a partitioned state (ShardedRun): what each variant over it carries."""
# The state itself is opened by jobs.bucketsite.open_partitioned, below the wing: the front ends'
# door (commands.check) reads a bucket's record from it too.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucketsite import BucketSite

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
