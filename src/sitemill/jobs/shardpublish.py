"""Publishing a sharded bucket run with a partitioned state: the reducer of scale-out.md.

After the workers of an incremental run: the completeness check (every shard of the next
plan has a file from this run or the last), then the changed parts, their states, the index
(If-Match the one this state last wrote: a racing writer's makes this run start again), the
index-state with the children no index names any more, and the plan. After a full rebuild
(which published through the writer): every shard's state, the index-state and the plan.
A child is deleted once it has been unnamed for DELETE_AFTER, never sooner.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.model import Config, LastmodMode, ShardsMode
from sitemill.errors import FullRebuildNeeded
from sitemill.jobs.bucketsite import BucketSite
from sitemill.jobs.shardworker import Rendered, ShardJob, parts_of, split_states
from sitemill.outputs import ENTRY_TXT, ENTRY_XML, content_type, stored_digest
from sitemill.render.indexes import IndexItem
from sitemill.render.renderer import Renderer
from sitemill.report import Report, WriteResult
from sitemill.shards.partition import (
    IndexState,
    Part,
    current_parts,
    next_plan,
    unnamed_after,
)
from sitemill.shards.plan import MAX_SHARDS, Plan
from sitemill.sinks.s3 import put_object, supports_conditional_put
from sitemill.sources.page import Page
from sitemill.sources.s3 import describe_error
from sitemill.state.model import State
from sitemill.state.partitioned import PartitionedStore, PlanFile

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)


def publish_shards(
    job: ShardJob, rendered: list[Rendered], last: IndexState, inputs: str, now: datetime
) -> Report:
    """Publish what the workers rendered (nothing when a shard has no file)."""
    config, store = job.config, job.store
    summaries = {item.summary.shard: item.summary for item in rendered}
    plan = next_plan(job.plan, summaries)
    parts, missing = current_parts(plan, summaries, last)
    if missing:  # (a state from another sitemill, a hand): a full rebuild knows
        raise FullRebuildNeeded(
            f"shard {missing[0]} has no file from this run or the last ({len(missing)} in all)"
        )
    if (
        config.shards is ShardsMode.AUTO
        and len(parts) > 1
        and sum(part.urls for part in parts) <= config.max_urls
    ):
        raise FullRebuildNeeded("the site may fit one sitemap again")
    result = WriteResult(plan=plan, url_count=sum(part.urls for part in parts))
    # The states first: a state that cannot be written stops the run before anything is
    # published (the next run would start from the old one and lose this run's changes).
    written = [store.write_shard(state) for item in rendered for state in item.states]
    for item in rendered:
        for part in item.summary.parts:
            if last.holds(part):
                result.unchanged.append(part.name)
                continue
            _put(job.client, job.site, part.name, item.data[part.name], None)
            result.written.append(part.name)
    entry, digest = publish_entry(job, parts, last, result)
    saved = finish_publish(
        job.client, job.site, store, job.plan, plan, parts, entry, digest, last, inputs, now, result
    )
    report = Report(
        result, LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    )
    report.state_written = any(written) or saved
    report.shards_touched = len(rendered)
    for item in rendered:
        if item.report is not None:
            report.warnings.extend(item.report.warnings)
            report.skipped.update(item.report.skipped)
            report.skips.extend(item.report.skips)
            report.heads_read += item.report.heads_read
            report.heads_reused += item.report.heads_reused
            report.dates.update(item.report.dates)
            report.alternates += item.report.alternates
            report.images += item.report.images
    return report


def publish_entry(
    job: ShardJob, parts: list[Part], last: IndexState, result: WriteResult
) -> tuple[str, str]:
    """sitemap.xml: the one file of a site that fits one (a worker rendered it), else the
    index of the children, PUT when its bytes changed."""
    if len(parts) == 1 and parts[0].name in (ENTRY_XML, ENTRY_TXT):
        result.files.append(parts[0].name)
        result.entry_files.append(parts[0].name)
        return parts[0].name, parts[0].digest
    config = job.config
    items = [IndexItem(config.base_url + part.name, part.lastmod) for part in parts]
    renderer = Renderer(config.templates_dir, text=False)
    ((_, data),) = renderer.render_indexes(
        items, max_per_index=MAX_SHARDS, max_bytes=config.max_bytes
    )
    digest = stored_digest(data)
    result.entry_files.append(ENTRY_XML)
    result.files.extend([ENTRY_XML, *(part.name for part in parts)])
    if (last.entry, last.digest) == (ENTRY_XML, digest):
        result.unchanged.append(ENTRY_XML)
    else:
        _put(job.client, job.site, ENTRY_XML, data, last.digest or None)
        result.written.append(ENTRY_XML)
    return ENTRY_XML, digest


def _put(client: S3Client, site: BucketSite, name: str, data: bytes, expected: str | None) -> None:
    """PUT one of the site's own files; the index If-Match the digest the state knows."""
    digest = bytes.fromhex(stored_digest(data))
    conditional = name == ENTRY_XML and supports_conditional_put(client)
    put_object(
        client,
        site.bucket,
        site.root + name,
        data,
        digest=digest,
        content_type=content_type(name),
        cache_control=site.cache_control,
        expected_etag=None if expected is None else f'"{expected}"',
        conditional=conditional and expected is not None,
    )


def finish_publish(
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    old: Plan | None,
    plan: Plan,
    parts: list[Part],
    entry: str,
    digest: str,
    last: IndexState,
    inputs: str,
    now: datetime,
    result: WriteResult,
) -> bool:
    """Deferred deletions, the index-state, the plan, and the states of shards gone; whether
    a state object was written (a failure is a warning: the sitemaps are published)."""
    unnamed, due = unnamed_after(last, [part.name for part in parts], now)
    for name in due:
        if name in result.deleted:  # (by the writer of a full rebuild)
            continue
        try:
            client.delete_object(Bucket=site.bucket, Key=site.root + name)
        except (ClientError, BotoCoreError) as exc:
            log.warning("cannot delete %s (tried again later): %s", name, describe_error(exc))
            continue
        result.deleted.append(name)
    for name in result.deleted:
        unnamed.pop(name, None)
    index_state = IndexState(parts, entry, digest, unnamed, plan)
    wrote_index = store.write(lambda: store.write_index(index_state))
    if wrote_index is None:
        return False  # (the plan stays as it was: the next run is a full rebuild)
    wrote_plan = store.write(lambda: store.write_plan(PlanFile(plan, inputs)))
    for shard in sorted(set(old.ids if old is not None else ()) - set(plan.ids)):
        store.delete_shard(shard)
    return bool(wrote_index or wrote_plan)


def save_full(
    config: Config,
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    report: Report,
    remember: State,
    listed: Iterable[Page],
    last: IndexState,
    old: Plan | None,
    inputs: str,
    now: datetime,
    threads: int,
) -> None:
    """After a full rebuild: every shard's state, then the index-state and the plan."""
    result = report.result
    plan = result.plan or Plan()
    parts = {part.after: part for part in parts_of(result)}
    states = split_states(list(plan.afters), parts, listed, remember)
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        written = list(
            pool.map(lambda state: store.write(lambda: store.write_shard(state)), states)
        )
    if None in written:  # the index-state stays as it was: the next run is a full rebuild
        return
    ordered = [parts[after] for after in plan.afters if after in parts]
    saved = finish_publish(
        client,
        site,
        store,
        old,
        plan,
        ordered,
        result.entry_files[0],
        result.entry_digest,
        last,
        inputs,
        now,
        WriteResult(deleted=list(result.deleted)),
    )
    report.state_written = any(written) or saved
