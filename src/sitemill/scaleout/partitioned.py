"""A sharded bucket with a partitioned state: a deploy re-renders the few shards it touches."""
# See docs/s3-lambda.md, Sharded buckets: a deploy that touches up to ``max_touched`` shards
# re-renders those alone on a small thread pool (sitemill.scaleout._shardworker), then publishes;
# anything else is a full rebuild that keeps the plan: the whole listing through one pass (its
# shards' ranges listed in parallel by ``threads``). Unnamed children are deleted only after
# sitemill.shards.manifest.DELETE_AFTER.

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, LastmodMode, OutputFormat
from sitemill.errors import (
    ConflictError,
    SinkError,
)
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, ROBOTS_TXT
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucketsite import DEFAULT_THREADS as DEFAULT_THREADS
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report, WriteResult
from sitemill.rules import is_page_candidate
from sitemill.scaleout._membership import not_distributable
from sitemill.scaleout._shardoutputs import keep_found, merge_outputs, whole_site
from sitemill.scaleout._shardpublish import publish_shards
from sitemill.scaleout._shardremoved import removed_by
from sitemill.scaleout._shardusers import rebuild_paths
from sitemill.scaleout._shardworker import FullRebuildNeeded, ShardJob, render_shard
from sitemill.scaleout.shardcommit import Live, head_live
from sitemill.scaleout.shardfull import FullRun, rebuild_full
from sitemill.scaleout.shardinputs import bucket_robots, inputs_fingerprint
from sitemill.shards.manifest import IndexState
from sitemill.shards.plan import Plan
from sitemill.sources.s3 import counted_requests, list_objects
from sitemill.state.partitioned import PartitionedStore

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# The router renders up to this many touched shards itself (docs/s3-lambda.md, Sharded buckets).
MAX_TOUCHED: Final = 20
_ATTEMPTS: Final = 3


@dataclass(frozen=True, slots=True)
class RebuildOptions:
    """How a partitioned rebuild runs: ``threads`` shards listed (or rendered) at a time, up to
    ``max_touched`` shards rendered by the router itself, and what the front end ``asked``
    (RunAsked: its dry run, progress and outputs; its ``distribute`` starts a distributed full
    rebuild and names it, for a site of more than ``max_touched`` shards, or with no plan yet
    more than that many shards' worth of pages: the report then says so and why, and nothing
    else is done)."""

    threads: int = DEFAULT_THREADS
    max_touched: int = MAX_TOUCHED
    asked: RunAsked = SITEMAPS_ALONE


_DEFAULTS: Final = RebuildOptions()


def rebuild_partitioned(
    config: Config,
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    *,
    changed: Collection[str] | None = None,
    deleted: Collection[str] = (),
    now: datetime | None = None,
    options: RebuildOptions = _DEFAULTS,
) -> Report:
    """Rebuild the sitemaps of ``site``: ``changed`` paths (relative to the site root) only,
    where that gives what a full rebuild would; else (and with ``changed`` None) in full.
    ``deleted``: sitemill's own files someone deleted (one the manifest names, or the entry
    file, is a full rebuild; the others were this run's predecessors' retired files).
    ``options``: how it runs (RebuildOptions). A run that finds another run committed
    meanwhile starts again from its manifest."""
    requests: Counter[str] = Counter()
    moment, dry_run = now or datetime.now(UTC), options.asked.dry_run
    run = FullRun(config, client, site, store, options.threads, moment, asked=options.asked)
    for attempt in range(1, _ATTEMPTS + 1):
        try:
            with counted_requests(client, requests):
                report = _attempt(run, options, changed, deleted)
        except ConflictError as exc:
            store.warnings.clear()
            if attempt == _ATTEMPTS:
                raise SinkError(f"{exc}, {_ATTEMPTS} times: another rebuild is running") from exc
            log.warning("%s; reading the state again and redoing the rebuild", exc)
            continue
        if not dry_run and report.execution is None:  # (committed: llms.txt from its states)
            merge_outputs(run, report)
        report.requests = requests
        report.warnings.extend(store.warnings)
        return report
    raise AssertionError("unreachable")


def _attempt(
    run: FullRun, options: RebuildOptions, changed: Collection[str] | None, deleted: Collection[str]
) -> Report:
    config, client, site, store = run.config, run.client, run.site, run.store
    robots_data, robots = bucket_robots(config, client, site)
    inputs = inputs_fingerprint(config, robots_data)
    # The live entry first, then the manifest: a run goes live only over what it read.
    lives = {name: head_live(client, site, name) for name in _entry_names(config)}
    base = store.read_manifest()
    store.say_move()
    live = lives.get(base.entry) or next(iter(lives.values()))
    if changed is not None and not run.asked.dry_run:
        try:
            fresh = _fresh_plan(store, live, inputs)
            job = ShardJob(config, client, site, store, fresh, robots, asked=run.asked)
            if set(deleted) & (base.named() | {base.entry}):
                raise FullRebuildNeeded("a file the sitemaps name was deleted")
            return _incremental(job, changed, base, live, inputs, run, options.max_touched)
        except FullRebuildNeeded as exc:
            log.info("a full rebuild: %s", exc)
    plan, distribute = base.plan, run.asked.distribute
    if (
        distribute is not None
        and not run.asked.dry_run
        and not_distributable(config, run.outputs) is None
    ):
        # In this function when the site fits it (a small site's first rebuild answers with
        # its URLs), else on the state machine: the report names the execution, and why.
        why = too_big(config, client, site, plan, options.max_touched)
        if why is not None:
            started = Report(WriteResult(), LastmodMode.MTIME)
            started.execution = distribute(why)
            log.info("a distributed rebuild (%s): %s", why, started.execution)
            return started
    return rebuild_full(run, base, live, robots, inputs)


def _entry_names(config: Config) -> tuple[str, ...]:
    """The entry files a run may find live: sitemap.xml (an index, or the one file), and
    sitemap.txt for the text format's one file."""
    return (ENTRY_XML, ENTRY_TXT) if config.format is OutputFormat.TXT else (ENTRY_XML,)


def _fresh_plan(store: PartitionedStore, live: Live, inputs: str) -> Plan:
    """The plan an incremental run renders by: the committed manifest's, when it is trusted,
    live (the entry file is the one it names) and of the same inputs; else FullRebuildNeeded."""
    base = store.manifest
    if not store.trusted or base.legacy or base.plan is None:
        raise FullRebuildNeeded("no manifest of this version yet")
    if live.digest != base.digest:  # (a run cut off after its commit, a hand, a generator)
        raise FullRebuildNeeded(f"the live {base.entry} is not the one the manifest names")
    if base.inputs != inputs:
        raise FullRebuildNeeded("robots.txt, the configuration or a template changed")
    return base.plan


def _incremental(
    job: ShardJob,
    changed: Collection[str],
    base: IndexState,
    live: Live,
    inputs: str,
    run: FullRun,
    max_touched: int,
) -> Report:
    why = whole_site(job.config, job.outputs)
    if why is not None:
        raise FullRebuildNeeded(why)
    if job.config.images and not job.config.keep_image_chrome:
        raise FullRebuildNeeded("the site chrome among images is counted over the whole site")
    if rebuild_paths(job.config, base) & set(changed):
        raise FullRebuildNeeded("one of the user's sitemaps the index names (or may) changed")
    touched: dict[int, set[str]] = {}
    # robots.txt's rules are in the inputs' fingerprint (checked): a change to its Sitemap
    # lines alone (sitemill's own rewrite) changes no shard.
    for path in (path for path in changed if path != ROBOTS_TXT):
        touched.setdefault(job.plan.shard_of(path), set()).add(path)
    if len(touched) > max_touched:
        raise FullRebuildNeeded(f"{len(touched)} shards touched, more than {max_touched}")
    with ThreadPoolExecutor(max_workers=max(1, min(run.threads, len(touched) or 1))) as pool:
        rendered = list(pool.map(lambda item: render_shard(job, *item), sorted(touched.items())))
    found = {url: kind for item in rendered for url, kind in item.found.items()}
    # Recorded before the commit: a run that fails after it is redone, and finds them again.
    noted = keep_found(job.config, job.outputs, job.store, found, first_run=False)
    # What it removed (the touched shards' pages: the summary's), kept by its commit.
    diff, removed = removed_by(job, rendered)
    report = publish_shards(job, rendered, base, live, inputs, run.now, removed)
    noted(report)
    report.diff = diff
    return report


# A site of at most ``max_shards`` shards' worth of pages is rebuilt in the function; a bigger one
# goes to the distributed rebuild (docs/distributed.md, When it runs). With a plan, its shard count
# decides; without one, the bucket is listed and its pages counted until the answer is known: past
# ``max_shards * shard_fill`` pages, or past twice as many keys of any kind (a bounded listing,
# never the whole of a huge bucket).
KEYS_PER_PAGE: Final = 2


def too_big(
    config: Config, client: S3Client, site: BucketSite, plan: Plan | None, max_shards: int
) -> str | None:
    """Why a full rebuild of ``site`` does not fit the function (None: it fits)."""
    if plan is not None:
        shards = len(plan.afters)
        return f"{shards} shards, more than {max_shards}" if shards > max_shards else None
    pages_bound = max_shards * config.shard_fill
    keys_bound = pages_bound * KEYS_PER_PAGE
    pages = 0
    for keys, listed in enumerate(list_objects(client, site.bucket, site.root), start=1):
        path = listed.get("Key", "")[len(site.root) :]
        if is_page_candidate(config, path):
            pages += 1
            if pages > pages_bound:
                worth = f"{max_shards} shard{'' if max_shards == 1 else 's'}"
                return (
                    f"no plan yet, and more than {pages_bound:,} pages "
                    f"({worth} of {config.shard_fill:,} the function takes)"
                )
        if keys > keys_bound:
            return f"no plan yet, and more than {keys_bound:,} objects under the prefix"
    return None
