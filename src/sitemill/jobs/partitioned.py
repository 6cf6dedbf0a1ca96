"""A sharded bucket with a partitioned state (scale-out.md): a deploy that touches a few shards
re-renders those alone; anything else is a full rebuild that keeps the plan.

The router groups the changed keys by shard; up to ``max_touched`` shards are rendered by
workers on a small thread pool (sitemill.jobs.shardworker), then published: changed parts,
their states, the index (conditional on the one this state last wrote), the index-state
and the plan. With no plan yet, more shards touched, a changed robots.txt, configuration or
template, or a shard whose pages name pages of other shards, the run is a full rebuild: the
whole listing through one pass (its shards' ranges listed in parallel by ``threads``), which
then writes every shard's state. Children no index names are deleted only once they have
been unnamed longer than a rebuild can take (sitemill.shards.partition.DELETE_AFTER).
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.model import Config, IndexNowMode, LastmodMode
from sitemill.errors import (
    ConflictError,
    FullRebuildNeeded,
    RefusedError,
    SinkError,
    SourceError,
)
from sitemill.jobs.bucketsite import BucketSite
from sitemill.jobs.membership import not_distributable
from sitemill.jobs.shardfull import FullRun, rebuild_full, record_pending
from sitemill.jobs.shardpublish import publish_shards
from sitemill.jobs.shardworker import ShardJob, render_shard
from sitemill.outputs import ENTRY_XML, ROBOTS_TXT
from sitemill.report import Progress, Report, WriteResult
from sitemill.robots import MAX_ROBOTS_TXT_BYTES, RobotsRules
from sitemill.safefs import read_regular
from sitemill.shards.partition import IndexState
from sitemill.sources.s3 import (
    describe_error,
    is_not_found,
    read_missing_as_none,
)
from sitemill.sources.s3requests import counted_requests
from sitemill.state.partitioned import PartitionedStore, partitioned_prefix
from sitemill.state.s3 import parse_s3_location

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# scale-out.md: the router renders up to this many touched shards itself.
MAX_TOUCHED: Final = 20
# Shards listed (or rendered) at a time unless told (``workers``): S3 serves many at once.
DEFAULT_THREADS: Final = 4
MAX_TEMPLATE_BYTES: Final = 1024 * 1024  # a template larger than this is hashed as unreadable
ATTEMPTS: Final = 3


def open_partitioned(config: Config, client: S3Client, site: BucketSite) -> PartitionedStore | None:
    """The partitioned state ``config`` names (sitemill.state.partitioned), or None: also when
    it would sit in the site's own bucket, where a shard's listing could be served (the one
    state object there names no page the sitemaps leave out)."""
    where = partitioned_prefix(config)
    if where is None or config.state is None or where[0] == site.bucket:
        return None
    # The one state object of earlier runs (sitemill.state.s3): a first partitioned run
    # starts from it, so that no head is read again and no content date is lost.
    return PartitionedStore(client, *where, legacy=parse_s3_location(config.state)[1])


def rebuild_partitioned(
    config: Config,
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    *,
    changed: Collection[str] | None = None,
    threads: int = DEFAULT_THREADS,
    max_touched: int = MAX_TOUCHED,
    dry_run: bool = False,
    progress: Progress | None = None,
    now: datetime | None = None,
    distribute: Callable[[], str] | None = None,
) -> Report:
    """Rebuild the sitemaps of ``site``: ``changed`` paths (relative to the site root) only,
    where that gives what a full rebuild would; else (and with ``changed`` None) in full.
    ``distribute``: starts a distributed full rebuild and names it, for a site of more than
    ``max_touched`` shards or none yet (the report then says so, and nothing else is done)."""
    requests: Counter[str] = Counter()
    moment = now or datetime.now(UTC)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            with counted_requests(client, requests):
                report = _attempt(
                    config,
                    client,
                    site,
                    store,
                    changed,
                    threads,
                    max_touched,
                    dry_run,
                    progress,
                    moment,
                    distribute,
                )
        except ConflictError as exc:
            store.warnings.clear()
            if attempt == ATTEMPTS:
                raise SinkError(f"{exc}, {ATTEMPTS} times: another rebuild is running") from exc
            log.warning("%s; reading the state again and redoing the rebuild", exc)
            continue
        report.requests = requests
        report.warnings.extend(store.warnings)
        return report
    raise AssertionError("unreachable")


def _attempt(
    config: Config,
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    changed: Collection[str] | None,
    threads: int,
    max_touched: int,
    dry_run: bool,
    progress: Progress | None,
    now: datetime,
    distribute: Callable[[], str] | None = None,
) -> Report:
    robots_data, robots = site_robots(config, client, site)
    inputs = inputs_fingerprint(config, robots_data)
    plan_file = store.read_plan()
    last = store.read_index()
    # The plan written with the index-state (one object: never two runs' halves).
    plan = last.plan or (None if plan_file is None else plan_file.plan)
    if changed is not None and plan_file is not None and plan is not None and not dry_run:
        try:
            if plan_file.inputs != inputs:
                raise FullRebuildNeeded("robots.txt, the configuration or a template changed")
            job = ShardJob(config, client, site, store, plan, robots)
            return _incremental(job, changed, last, inputs, threads, max_touched, now)
        except FullRebuildNeeded as exc:
            log.info("a full rebuild: %s", exc)
    big = plan is None or len(plan.afters) > max_touched
    if distribute is not None and not dry_run and big and not_distributable(config) is None:
        started = Report(WriteResult(), LastmodMode.MTIME)
        started.execution = distribute()
        log.info("a distributed rebuild: %s", started.execution)
        return started
    run = FullRun(config, client, site, store, threads, now)
    return rebuild_full(run, plan, last, robots, inputs, dry_run=dry_run, progress=progress)


def _incremental(
    job: ShardJob,
    changed: Collection[str],
    last: IndexState,
    inputs: str,
    threads: int,
    max_touched: int,
    now: datetime,
) -> Report:
    if job.config.html_sitemap:
        raise FullRebuildNeeded("sitemap.html lists the whole site")
    if job.config.images and not job.config.keep_image_chrome:
        raise FullRebuildNeeded("the site chrome among images is counted over the whole site")
    touched: dict[int, set[str]] = {}
    # robots.txt's rules are in the inputs' fingerprint (checked): a change to its Sitemap
    # lines alone (sitemill's own rewrite) changes no shard.
    for path in (path for path in changed if path != ROBOTS_TXT):
        touched.setdefault(job.plan.shard_of(path), set()).add(path)
    if len(touched) > max_touched:
        raise FullRebuildNeeded(f"{len(touched)} shards touched, more than {max_touched}")
    if (
        _live_entry(job, last.entry or ENTRY_XML) != last.digest
    ):  # (a run whose state could not be written, a hand)
        raise FullRebuildNeeded("the live sitemap.xml is not the one the state knows")
    with ThreadPoolExecutor(max_workers=max(1, min(threads, len(touched) or 1))) as pool:
        rendered = list(pool.map(lambda item: render_shard(job, *item), sorted(touched.items())))
    report = publish_shards(job, rendered, last, inputs, now)
    found = {url: kind for item in rendered for url, kind in item.found.items()}
    report.indexnow = record_pending(job.config, job.store, found, first_run=False)
    return report


def _live_entry(job: ShardJob, name: str) -> str | None:
    """The MD5 of the live sitemap.xml (its ETag: one PUT), None when there is none."""
    try:
        head = job.client.head_object(Bucket=job.site.bucket, Key=job.site.root + name)
    except ClientError as exc:
        if is_not_found(exc):
            return None
        raise SourceError(f"cannot read {name}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise SourceError(f"cannot read {name}: {describe_error(exc)}") from exc
    return str(head.get("ETag", "")).strip('"')


def site_robots(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[bytes | None, RobotsRules | None]:
    """robots.txt's bytes when the configuration reads it, and its rules when it obeys them."""
    data = _robots_bytes(client, site) if _reads_robots(config) else None
    if not config.respect_robots_txt or data is None:
        return data, None
    return data, RobotsRules.parse(data.decode("utf-8", "replace"))


def _reads_robots(config: Config) -> bool:
    return config.respect_robots_txt or config.robots_txt


def _robots_bytes(client: S3Client, site: BucketSite) -> bytes | None:
    return read_missing_as_none(
        client, site.bucket, site.root + ROBOTS_TXT, limit=MAX_ROBOTS_TXT_BYTES
    )


def inputs_fingerprint(config: Config, robots: bytes | None) -> str:
    """A digest of what every shard depends on: the configuration (not where the state lives
    nor how many workers run), robots.txt's rules, the templates' files."""
    settings = replace(  # (nor whether or where IndexNow announces: no shard depends on it)
        config,
        workers=None,
        state=None,
        previous_state=None,
        indexnow=IndexNowMode.OFF,
        indexnow_endpoint="",
        indexnow_key_location=None,
        indexnow_write_key_file=False,
    )
    digest = hashlib.blake2b(repr(settings).encode("utf-8", "surrogateescape"), digest_size=16)
    if robots is None:
        digest.update(b"\0no robots.txt")
    else:  # its rules, not the Sitemap lines sitemill itself rewrites
        for line in robots.splitlines():
            if not line.strip().lower().startswith(b"sitemap:"):
                digest.update(b"\0robots\0" + line)
    if config.templates_dir is not None:
        folder = Path(config.templates_dir)
        for path in sorted(folder.glob("*.j2")) if folder.is_dir() else ():
            try:  # (a regular file only: never a link, a FIFO, a device)
                data = read_regular(path, MAX_TEMPLATE_BYTES, whole=True, follow_symlinks=False)
            except (OSError, RefusedError):
                data = b"\0unreadable"
            digest.update(b"\0" + path.name.encode("utf-8", "surrogateescape") + b"\0" + data)
    return digest.hexdigest()
