"""One rebuild of a bucket's sitemaps: list, generate, publish; redone after a race."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, ContentScope, LastmodMode, OutputFormat
from sitemill.errors import ConflictError, SinkError
from sitemill.html.fingerprint import fingerprint_html
from sitemill.outputs import STATE_NAME, content_type
from sitemill.pipeline import build_from_pages, reads_page
from sitemill.report import Progress, Report
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import Order
from sitemill.sinks.s3 import DEFAULT_CACHE_CONTROL, S3Sink
from sitemill.sources.s3 import (
    Inventory,
    bucket_pages,
    list_objects,
    normalize_prefix,
    read_bucket_robots,
    read_bucket_state,
    read_page,
)
from sitemill.sources.s3requests import counted_requests
from sitemill.state.knowledge import (
    HeadCounts,
    Knowledge,
    Reading,
    attach_facts,
    still_leaving_out,
)
from sitemill.state.model import State
from sitemill.state.start import Previous, Start, missing_state_warning, save_state, start_state
from sitemill.state.store import StateStore

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# Conflicts with another writer are retried this many times in all (each a fresh listing).
ATTEMPTS: Final = 3
# Heads read at a time, at most (each a ranged GET on a connection of the client's pool).
MAX_HEAD_READERS: Final = 32
GZIP_TYPE: Final = content_type(STATE_NAME)
BUCKET_ENV: Final = "SITEMILL_BUCKET"
PREFIX_ENV: Final = "SITEMILL_PREFIX"
CACHE_CONTROL_ENV: Final = "SITEMILL_CACHE_CONTROL"


@dataclass(frozen=True, slots=True)
class BucketSite:
    """Where a deployed site lives: the sitemaps are written under the same prefix."""

    bucket: str
    prefix: str = ""
    cache_control: str = DEFAULT_CACHE_CONTROL

    @property
    def root(self) -> str:
        """The key prefix of the site root ('' or ending in '/')."""
        return normalize_prefix(self.prefix)


@dataclass(frozen=True, slots=True)
class BucketSettings:
    """The bucket, prefix and Cache-Control of a bucket site: one parse for the CLI and the
    Lambda. A value given explicitly (a flag) wins over SITEMILL_BUCKET / SITEMILL_PREFIX;
    the bucket may stay unknown (the Lambda takes it from its events)."""

    bucket: str | None
    prefix: str
    cache_control: str

    @classmethod
    def read(
        cls, env: Mapping[str, str], *, bucket: str | None = None, prefix: str | None = None
    ) -> BucketSettings:
        return cls(
            bucket=(bucket if bucket is not None else env.get(BUCKET_ENV, "")).strip() or None,
            prefix=(prefix if prefix is not None else env.get(PREFIX_ENV, "")).strip(),
            cache_control=env.get(CACHE_CONTROL_ENV, "").strip() or DEFAULT_CACHE_CONTROL,
        )

    def site(self, bucket: str) -> BucketSite:
        return BucketSite(bucket, self.prefix, self.cache_control)


def build_from_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    sink: S3Sink,
    inventory: Inventory,
    *,
    progress: Progress | None = None,
    state_store: StateStore | None = None,
    previous: Previous | None = None,
) -> Report:
    """One pass: robots.txt and the state (a GET each), the listing (one LIST per 1,000
    keys) with a GET of each HTML page that is new or changed since the state was written
    (many at a time: its head for the facts, its content with content dates), then the
    writes, and the state last.

    ``inventory`` must be the sink's: the listing fills it with the ETags of old outputs.
    ``state_store`` is where the state lives (default: beside the sitemaps).
    """
    root = site.root
    robots = read_bucket_robots(client, site.bucket, root) if config.respect_robots_txt else None
    store = state_store or _BesideSitemaps(client, site, sink)
    start = start_state(store, previous)
    for message in start.warnings:
        log.warning("%s", message)
    knowledge = _knowledge(config, start)
    counts = HeadCounts()
    listing = bucket_pages(config, list_objects(client, site.bucket, root), root, inventory)
    pages = attach_facts(
        listing,
        needs=partial(reads_page, config, robots),
        read=_page_reader(client, site, config, knowledge),
        knowledge=knowledge,
        counts=counts,
        workers=_workers(client),
    )
    mode = LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    report = build_from_pages(
        config,
        pages,
        sink,
        robots=robots,
        read_facts=None,
        lastmod=mode,
        warnings=start.warnings,
        progress=progress,
        remembered=start.state.outputs,
        on_skip=knowledge.remember.forget,  # the state names no page the sitemaps leave out
        shards=ShardSetup(Order.KEYS, start.state.plan),
    )
    knowledge.remember.outputs = frozenset(report.result.outputs)
    knowledge.remember.plan = report.result.plan
    report.heads_read, report.heads_reused = counts.read, counts.reused
    if knowledge.content_dates and start.missing and inventory.had_sitemap:
        message = missing_state_warning(store.where)
        log.warning("%s", message)
        report.warnings.append(message)
    if state_store is None or not sink.dry_run:  # the sink's own dry run writes nothing
        report.state_written = save_state(store, knowledge.remember, report.warnings)
    return report


def _page_reader(
    client: S3Client, site: BucketSite, config: Config, knowledge: Knowledge
) -> Callable[[str], Reading]:
    """Reads a page (a ranged GET, or the whole object for its fingerprint or images)."""
    dating, images, titles = knowledge.content_dates, knowledge.images, knowledge.titles
    main = config.content_scope is ContentScope.MAIN
    fingerprint = partial(fingerprint_html, ignore=config.fingerprint_ignore, main=main)
    bucket, root = site.bucket, site.root
    return lambda path: read_page(
        client, bucket, root + path, fingerprint if dating else None, images=images, titles=titles
    )


def _knowledge(config: Config, start: Start) -> Knowledge:
    """What the run starts from, and what it reads or dates under ``config``."""
    return Knowledge(
        start.state,
        State(fingerprint_main=config.content_scope is ContentScope.MAIN),
        config.lastmod_precision,
        content_dates=config.content_dates and config.lastmod is not LastmodMode.NONE,
        first_run=start.first_run,
        images=config.images and config.format is OutputFormat.XML,
        titles=config.html_sitemap,
        verdicts=still_leaving_out(
            noindex=config.respect_noindex, redirects=config.respect_redirects
        ),
    )


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


def _workers(client: S3Client) -> int:
    """As many reads at a time as the client keeps connections (botocore's default is 10)."""
    pool = getattr(client.meta.config, "max_pool_connections", None)
    return max(1, min(MAX_HEAD_READERS, pool if isinstance(pool, int) else 10))


def rebuild_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    state_store: StateStore | None = None,
    previous: Previous | None = None,
) -> Report:
    """Rebuild the sitemaps of ``site``. Every write is conditional on what the listing saw;
    when another writer changed an output meanwhile, list again and redo (its pages may be
    newer than ours), at most ATTEMPTS times, then give up with a SinkError."""
    earlier: list[str] = []
    requests: Counter[str] = Counter()  # every attempt's, by kind
    for attempt in range(1, ATTEMPTS + 1):
        inventory = Inventory()
        sink = S3Sink(
            client,
            site.bucket,
            site.root,
            cache_control=site.cache_control,
            inventory=inventory,
            dry_run=dry_run,
        )
        try:
            with counted_requests(client, requests):
                report = build_from_bucket(
                    config,
                    client,
                    site,
                    sink,
                    inventory,
                    progress=progress,
                    state_store=state_store,
                    previous=previous,
                )
        except ConflictError as exc:
            earlier.extend(sink.written)
            if attempt == ATTEMPTS:
                raise SinkError(
                    f"{exc}, {ATTEMPTS} times: another rebuild is running; try again"
                ) from exc
            log.warning("%s; listing the bucket again and redoing the rebuild", exc)
            continue
        report.result.count_as_written(earlier)
        report.requests = requests
        return report
    raise AssertionError("unreachable")
