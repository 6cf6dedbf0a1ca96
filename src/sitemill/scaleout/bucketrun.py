"""A bucket site's run over its state as it is kept: one object, or in parts (partitioned)."""
# What `sitemill s3`, the Lambda's rebuild and its diff run alike: a partitioned state (a sharded
# site whose state is in a location of its own) is rebuilt by its shards in parallel, any other by
# the bucket job. Only this and the full rebuild choose; the front ends say how (dry, changed keys,
# progress, a distributed rebuild to start).

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.jobs.asked import RunAsked as RunAsked
from sitemill.jobs.bucket import build_bucket
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.report import Report
from sitemill.state.previous import open_previous
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.state.partitioned import PartitionedStore
    from sitemill.state.start import Start


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
    from sitemill.scaleout.partitioned import DEFAULT_THREADS, RebuildOptions, rebuild_partitioned

    options = RebuildOptions(threads=config.workers or DEFAULT_THREADS, asked=asked)
    return rebuild_partitioned(
        config, client, site, partitioned, changed=asked.changed, deleted=asked.deleted,
        options=options,
    )  # fmt: skip


def partitioned_start(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[Start, str] | None:
    """The state a rebuild starts from when it is kept in parts (every shard's pages in one),
    and where it was read; None: the state is one object."""
    from sitemill.scaleout.partitioned import DEFAULT_THREADS

    store = open_partitioned(config, client, site)
    if store is None:
        return None
    plan = store.read_manifest().plan
    start, _ = store.merged_start(config.workers or DEFAULT_THREADS)
    legacy = store.legacy
    return start, store.where if plan is not None or legacy is None else legacy.where
