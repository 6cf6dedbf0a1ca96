"""One rebuild of a bucket's sitemaps: list, generate, publish; redone after a race."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Protocol

from sitemill.config.model import Config
from sitemill.entries import Page, SkipReason
from sitemill.errors import ConflictError, SinkError
from sitemill.filenames.outputs import STATE_NAME, content_type
from sitemill.jobs._buckettakeover import BucketNaming
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucketpass import Listing, PassOptions, pass_listing
from sitemill.jobs.bucketremoved import ListedBefore
from sitemill.jobs.bucketsite import BUCKET_ENV as BUCKET_ENV
from sitemill.jobs.bucketsite import CACHE_CONTROL_ENV as CACHE_CONTROL_ENV
from sitemill.jobs.bucketsite import MAX_HEAD_READERS as MAX_HEAD_READERS
from sitemill.jobs.bucketsite import PREFIX_ENV as PREFIX_ENV
from sitemill.jobs.bucketsite import BucketSettings as BucketSettings
from sitemill.jobs.bucketsite import BucketSite as BucketSite
from sitemill.outputs import KeptState
from sitemill.report import Report
from sitemill.robots.rules import RobotsRules
from sitemill.sinks.s3 import S3Sink
from sitemill.sources.s3 import (
    Inventory,
    counted_requests,
    list_objects,
    read_bucket_robots,
    read_bucket_state,
)
from sitemill.state.model import State
from sitemill.state.pending import remember_changes
from sitemill.state.recall import Knowledge
from sitemill.state.s3 import S3StateStore
from sitemill.state.start import Start, missing_state_warning, save_state, start_state
from sitemill.state.store import StateStore
from sitemill.urlstyle import keep_style
from sitemill.writing.takeover import take_over

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# Conflicts with another writer are retried this many times in all (each a fresh listing).
STATE_ATTEMPTS: Final = 3
GZIP_TYPE: Final = content_type(STATE_NAME)


class BucketWatch(Protocol):
    """What watches a bucket run's pages (sitemill why --bucket): each page as listed, left
    out (and why) and dated, then what the run started from and learnt, its listing and the
    robots.txt it read."""

    def page(self, page: Page) -> None: ...

    def skip(self, path: str, reason: SkipReason) -> None: ...

    def date(self, page: Page) -> None: ...

    def ran(
        self, start: Start, knowledge: Knowledge, inventory: Inventory, robots: RobotsRules | None
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class BucketAsked:
    """What a front end asks of a bucket run alone (RunAsked says the rest): a ``watch``
    (BucketWatch: the run then ends with its pages, its answer all it says; what follows is
    the site's, not a page's) and a ``start`` already read (a partitioned state's pages in
    one, jobs.bucketsite.partitioned_start, for one dry pass over the whole listing: its state
    store is then not read, and the run ends with what it removed, report.diff; the user's
    sitemaps, the takeover, the features' records and the state are kept in parts, by the
    partitioned run's)."""

    watch: BucketWatch | None = None
    start: Start | None = None


_NOTHING_MORE = BucketAsked()


def _rebuild_once(
    config: Config, client: S3Client, site: BucketSite, sink: S3Sink, inventory: Inventory,
    asked: RunAsked, alone: BucketAsked,
) -> Report:  # fmt: skip
    """One pass (``asked``: its progress, outputs, state store and previous state; what the
    bucket run alone is asked):
    robots.txt and the state (a GET each), the listing (one LIST per 1,000 keys) with a GET of
    each HTML page that is new or changed since the state was written (many at a time: its
    head for the facts, its content with content dates), then the writes, and the state last
    (with what the run removed: report.diff, State.removed). ``inventory`` must be the sink's: the
    listing fills it with the ETags of old outputs. The state lives in ``asked.state_store``
    (default: beside the sitemaps).
    """
    state_store, watch = asked.state_store, alone.watch
    root = site.root
    robots = read_bucket_robots(client, site.bucket, root) if config.respect_robots_txt else None
    store = state_store or _BesideSitemaps(client, site, sink)
    start = alone.start or start_state(store, asked.previous, base_url=config.base_url)
    if watch is None:  # (a watched run's answer is all it says)
        for message in start.warnings:
            log.warning("%s", message)
    listing = Listing(config, list_objects(client, site.bucket, root), inventory)
    listed = ListedBefore(start, inventory.empty)  # (to tell what it removed)
    naming = BucketNaming(client, site, sink, inventory, config, start.state)
    named = None if alone.start else naming  # (a partitioned state's: its manifest's)
    told = PassOptions(
        robots, asked.progress, named=named, on_dated=listed.note, outputs=asked.outputs
    )
    if watch is not None:
        told = replace(
            told, named=None, on_page=watch.page, on_skip=watch.skip, on_dated=watch.date
        )
    report, knowledge = pass_listing(config, client, site, sink, start, listing, told)
    if watch is not None:  # (what follows is the site's: its removed URLs, the takeover, the state)
        watch.ran(start, knowledge, inventory, robots)
        return report
    listed.classify(config, client, site, knowledge.remember, report)
    if alone.start is not None:  # (a partitioned state's pages: the rest is kept in parts)
        return report
    config = keep_style(config, report.url_style, knowledge.remember)  # (its URLs: keep)
    # Was the sitemap.xml replaced someone else's (a sync of a build folder)? Said once, on
    # the first run; its twins go whenever a sync brings them back.
    files, found = naming.takeover()
    _remember_users(naming, knowledge.remember, report)
    lost = knowledge.content_dates and start.missing and inventory.had_sitemap
    take_over(
        files, found, report, config.base_url,
        first=start.missing,
        lost=missing_state_warning(store.where) if lost else None,
    )  # fmt: skip
    remember_changes(start.state, knowledge.remember, first_run=start.first_run)
    again, public = state_again(client, site, state_store)
    kept = KeptState(config, start.state, knowledge.remember, start.first_run, again, public)
    for feature in asked.outputs:
        feature.keep(kept, report)
    if state_store is None or not sink.dry_run:  # the sink's own dry run writes nothing
        report.state_written = save_state(store, knowledge.remember, report.warnings)
    return report


def _remember_users(naming: BucketNaming, remember: State, report: Report) -> None:
    """The user's sitemaps the run named, found in a replaced index, for the next run; the
    lines said of those it could not name (none when the writer never asked)."""
    users = naming.users
    remember.found_sitemaps = frozenset(users.found) if users else frozenset(naming.remembered)
    remember.robots_sitemaps = users.robots_kept() if users else naming.robots_before
    if users is not None:
        report.warnings.extend(users.warnings)


def state_again(
    client: S3Client, site: BucketSite, store: StateStore | None
) -> tuple[StateStore, bool]:
    """Where the state is read and written again once the run is over (IndexNow's pending
    URLs after sending): the state object itself (read again: the sink's write was
    conditional on the listing's ETag), else ``store``; and whether it is public: in the
    site's bucket (it may be served), private elsewhere."""
    if store is None:
        return S3StateStore(client, site.bucket, site.root + STATE_NAME), True
    return store, isinstance(store, S3StateStore) and store.bucket == site.bucket


class _BesideSitemaps:
    """The state at the prefix root, read with one GET and written through the sink (so the
    write is conditional on the ETag the listing saw)."""

    def __init__(self, client: S3Client, site: BucketSite, sink: S3Sink) -> None:
        self.client, self.site, self.sink = client, site, sink
        self.where = f"s3://{site.bucket}/{site.root}{STATE_NAME}"

    def read(self) -> bytes | None:
        return read_bucket_state(self.client, self.site.bucket, self.site.root)

    def write(self, data: bytes) -> bool:
        return self.sink.put(STATE_NAME, data, content_type=GZIP_TYPE)


def build_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    asked: RunAsked = SITEMAPS_ALONE,
    bucket: BucketAsked = _NOTHING_MORE,
) -> Report:
    """Rebuild the sitemaps of ``site``, and the outputs ``asked`` lists beside them
    (RunAsked: none unless listed; its dry run writes nothing; ``bucket``: what a bucket run
    alone is asked, BucketAsked). Every write is conditional on
    what the listing saw; when another writer changed an output meanwhile, list again and redo
    (its pages may be newer than ours), at most STATE_ATTEMPTS times, then give up with a
    SinkError."""
    if (bucket.start is not None or bucket.watch is not None) and not asked.dry_run:
        # (such a run names no user's sitemap and saves no state: only a dry one may be it)
        raise ValueError("a bucket run from a given start, or watched, must be a dry run")
    earlier: list[str] = []
    requests: Counter[str] = Counter()  # every attempt's, by kind
    for attempt in range(1, STATE_ATTEMPTS + 1):
        sink = S3Sink(
            client,
            site.bucket,
            site.root,
            cache_control=site.cache_control,
            inventory=(inventory := Inventory()),
            dry_run=asked.dry_run,
        )
        try:
            with counted_requests(client, requests):
                report = _rebuild_once(config, client, site, sink, inventory, asked, bucket)
        except ConflictError as exc:
            earlier.extend(sink.written)
            if attempt == STATE_ATTEMPTS:
                raise SinkError(
                    f"{exc}, {STATE_ATTEMPTS} times: another rebuild is running; try again"
                ) from exc
            log.warning("%s; listing the bucket again and redoing the rebuild", exc)
            continue
        report.result.count_as_written(earlier)
        report.requests = requests
        return report
    raise AssertionError("unreachable")
