"""What an incremental run of a sharded bucket removed: its touched shards, before and after."""
# A page moved from one touched shard to another is renamed, not gone: the pages of every touched
# shard's state before, together, against those of the states it writes (jobs.removedpages). Where
# a removed URL leads is asked as a full rebuild asks it (jobs.bucketremoved.BucketRedirects), from
# what the workers read: the heads of the changed keys, and an empty object's website redirect
# with one HEAD; a kept page is never asked. The URLs no longer served are kept in the manifest by
# the run's commit (state.partitioned: the rules of jobs.removedpages.remember_removed, over the
# list the manifest it started from kept), never in a shard state.

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import TYPE_CHECKING

from sitemill.diff.model import SiteDiff
from sitemill.jobs.bucketremoved import BucketRedirects, ListedBefore
from sitemill.jobs.removedpages import record_removed
from sitemill.scaleout._shardworker import Rendered, ShardJob
from sitemill.sources.s3pages import key_paths
from sitemill.state.partitioned import merged_states
from sitemill.state.removedurls import RemovedUrl
from sitemill.state.shardstate import ShardState
from sitemill.state.start import Start
from sitemill.urls import UrlStyle

if TYPE_CHECKING:
    from sitemill.state.model import State


def removed_by(
    job: ShardJob, rendered: Iterable[Rendered]
) -> tuple[SiteDiff | None, dict[str, RemovedUrl] | None]:
    """The report of the touched shards' states the workers ``rendered`` against the ones
    they started from, and the URLs the manifest keeps as removed (both None when a worker
    kept no record of its start: the manifest keeps the list it had)."""
    items = list(rendered)
    seen = [item.seen for item in items]
    if any(listed is None for listed in seen):
        return None, None
    starts = [listed for listed in seen if listed is not None]
    before, _ = merged_states(ShardState("", state=listed.start.state) for listed in starts)
    after, _ = merged_states(state for item in items for state in item.states)
    listed = ListedBefore(Start(before, first_run=False), _Union(starts))
    for one in starts:
        listed.keys.update(one.keys)
        listed.redirects.update(one.redirects)
    config = job.config
    redirects = BucketRedirects(job.client, job.site, config.base_url, listed)
    style = _style(config.url_style, before, after)
    unseen = _untouched(job, {item.summary.shard for item in items})
    before.removed = dict(job.store.removed)  # (the manifest's: kept when none is removed)
    return record_removed(config, before, after, style, redirects, unseen), after.removed


def _untouched(job: ShardJob, touched: Container[str]) -> Callable[[str], bool]:
    """Whether a URL of the site lies in a shard this run did not read (by the keys that
    may serve it): its pages are as they were, so a redirect there leads to one."""
    base, plan = job.config.base_url, job.plan

    def unseen(url: str) -> bool:
        if not url.startswith(base):
            return False
        rest = url[len(base) :].split("#", 1)[0].split("?", 1)[0]
        return any(plan.ids[plan.shard_of(key)] not in touched for key in key_paths(rest))

    return unseen


class _Union:
    """The empty objects the workers' changed keys are (website redirects among them)."""

    def __init__(self, seen: Iterable[ListedBefore]) -> None:
        self.parts: list[Container[str]] = [listed.empty for listed in seen]

    def __contains__(self, path: object) -> bool:
        return any(path in part for part in self.parts)


def _style(configured: UrlStyle, before: State, after: State) -> UrlStyle:
    """The style of the URLs the touched shards list now: for ``auto``, the one their states
    keep (a part of the site keeps the whole site's decision: urlstyle.kept_style)."""
    if configured is not UrlStyle.AUTO:
        return configured
    kept = after.url_style or before.url_style
    return configured if kept is None else kept.style
