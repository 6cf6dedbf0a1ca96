"""The scale-out wing: sharded runs of the router, full sharded rebuilds, Step Functions steps."""
# Each run over a partitioned state is a ShardedRun (below) carrying its front end's RunAsked. It
# uses the jobs and the pure plan (sitemill.shards); no job and no core module imports it, and it
# imports no front end (tests/core/test_layout.py).

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
