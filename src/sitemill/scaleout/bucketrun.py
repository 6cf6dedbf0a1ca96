"""A bucket site's run over its state as it is kept: one object, or in parts (partitioned)."""
# What `sitemill s3` and the Lambda's rebuild run alike: a partitioned state is rebuilt by its
# shards, any other by the bucket job; the front ends say how (dry, changed keys, progress).

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.jobs.asked import RunAsked as RunAsked
from sitemill.jobs.bucket import build_bucket
from sitemill.jobs.bucketsite import DEFAULT_THREADS, BucketSite
from sitemill.report import Report
from sitemill.state.previous import open_previous
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.state.partitioned import PartitionedStore


def rebuild_site(
    config: Config,
    client: S3Client,
    site: BucketSite,
    asked: RunAsked,
    partitioned: PartitionedStore | None = None,
    job: Callable[..., Report] = build_bucket,
) -> Report:
    """Rebuild ``site``'s sitemaps (or run it dry) as ``asked`` from its state: ``partitioned``
    (as open_partitioned opened it; None: the bucket ``job``'s one state object, where
    ``config`` names it, else beside the sitemaps, and ``previous_state``)."""
    if partitioned is None:
        store = open_state_store(config, s3_client=lambda: client)
        asked = replace(asked, state_store=store, previous=open_previous(config))
        return job(config, client, site, asked=asked)  # (by name: a test wraps the job)
    from sitemill.scaleout.partitioned import RebuildOptions, rebuild_partitioned

    options = RebuildOptions(threads=config.workers or DEFAULT_THREADS, asked=asked)
    return rebuild_partitioned(
        config, client, site, partitioned, changed=asked.changed, deleted=asked.deleted,
        options=options,
    )  # fmt: skip
