"""Publishing an incremental run of a sharded bucket: a distributed run's reducer, in process."""
# After the workers: the completeness check (every shard of the next plan has a file and a state
# from this run or the last manifest), then the commit of sitemill.scaleout.shardcommit: the changed
# files and states go up under new names, one conditional write of the manifest names them, the
# entry file goes live from it, and what the commit retired is deleted.

from __future__ import annotations

import logging
from datetime import datetime
from typing import Final

from sitemill.config.model import LastmodMode, ShardsMode
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML
from sitemill.report import Report, WriteResult
from sitemill.scaleout._runcommit import RunCommit, commit_run
from sitemill.scaleout._shardworker import FullRebuildNeeded, Rendered, ShardJob
from sitemill.scaleout.shardcommit import Live, put_child
from sitemill.shards.manifest import IndexState
from sitemill.shards.partition import StateRef, current_parts, next_plan
from sitemill.state.removedurls import RemovedUrl

log = logging.getLogger(__name__)

_ENTRIES: Final = (ENTRY_XML, ENTRY_TXT)


def publish_shards(
    job: ShardJob,
    rendered: list[Rendered],
    base: IndexState,
    live: Live,
    inputs: str,
    now: datetime,
    removed: dict[str, RemovedUrl] | None = None,
) -> Report:
    """Publish what the workers rendered over the manifest ``base`` (its entry file live as
    ``live``): a ConflictError when another run committed since ``base`` was read.
    ``removed``: the URLs the manifest keeps as removed (None: the base's)."""
    config = job.config
    summaries = {item.summary.shard: item.summary for item in rendered}
    plan = next_plan(job.plan, summaries)
    parts, missing = current_parts(plan, summaries, base.files())
    if missing:  # (a manifest from another sitemill, a hand): a full rebuild knows
        raise FullRebuildNeeded(
            f"shard {missing[0]} has no file from this run or the last ({len(missing)} in all)"
        )
    urls = sum(part.urls for part in parts)
    # (groups, or the user's sitemaps named: an index whatever its size)
    fits = config.shards is ShardsMode.AUTO and not config.groups and not base.users
    if fits and len(parts) > 1 and urls <= config.max_urls:
        raise FullRebuildNeeded("the site may fit one sitemap again")
    result = WriteResult(plan=plan, url_count=urls)
    single = _stage_children(job, rendered, base, result)
    states = _stage_states(job, rendered, base)
    lost = [shard for shard in plan.ids if shard not in states]
    if lost:
        raise FullRebuildNeeded(f"shard {lost[0]} has no state from this run or the last")
    commit = RunCommit(base, live, plan, inputs, parts, states, single, removed=removed)
    committed = commit_run(job, commit, now, result)
    report = Report(
        result, LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    )
    report.state_written = committed
    report.shards_touched = len(rendered)
    for item in rendered:
        if item.report is not None:
            merge_report(report, item.report)
    return report


def _stage_children(
    job: ShardJob, rendered: list[Rendered], base: IndexState, result: WriteResult
) -> bytes | None:
    """Put up each rendered file that the base manifest does not name (a name says its
    content: one it names is live already); the single sitemap.xml's bytes, if one."""
    named = base.named()
    single: bytes | None = None
    for item in rendered:
        for part in item.summary.parts:
            data = item.data[part.name]
            if part.name in _ENTRIES:
                single = data
            elif part.name in named:
                result.unchanged.append(part.name)
            else:
                put_child(job.client, job.site, part.name, data)
                result.written.append(part.name)
    return single


def _stage_states(job: ShardJob, rendered: list[Rendered], base: IndexState) -> dict[str, StateRef]:
    """Each shard's state: the rendered ones put up (new objects), the others the base's."""
    plan_ids = set(job.plan.ids)
    states = {shard: ref for shard, ref in base.states.items() if shard in plan_ids}
    for item in rendered:
        states.pop(item.summary.shard, None)  # (an emptied shard leaves with its state)
        states.update(job.store.write_states(item.states, base))
    return states


def merge_report(report: Report, item: Report) -> None:
    """Add what one worker's pass found to the run's report."""
    report.warnings.extend(item.warnings)
    report.skipped.update(item.skipped)
    report.skips.extend(item.skips)
    report.heads_read += item.heads_read
    report.heads_reused += item.heads_reused
    report.dates.update(item.dates)
    report.alternates += item.alternates
    report.images += item.images
