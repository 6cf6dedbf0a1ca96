"""One pass over a bucket's listing: pages with their facts, generated and written."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Container, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from sitemill.config.model import Config, ContentScope, LastmodMode, OutputFormat
from sitemill.entries import Page, SkipReason
from sitemill.jobs.bucketsite import MAX_HEAD_READERS, BucketSite
from sitemill.lastmod.decide import evidence_ceiling
from sitemill.lastmod.deploys.templateedits import DeployEdits
from sitemill.lastmod.filetimes.spread import seconds
from sitemill.lastmod.fingerprint.versions import MAX_FINGERPRINT_BYTES
from sitemill.lastmod.pagedate import bucket_ladder
from sitemill.listing.stubs import WebsiteRedirect
from sitemill.outputs import OutputFeature, PageReading
from sitemill.pipeline import SiteInputs, build_from_pages
from sitemill.report import OnSkip, Progress, Report, WriteResult
from sitemill.robots.rules import RobotsRules
from sitemill.rules import is_candidate, reads_page
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import Order, OtherShards, Plan
from sitemill.sinks import Sink
from sitemill.sources.s3 import Inventory, bucket_pages, head_reader
from sitemill.sources.s3pages import WebsiteRedirects, read_page
from sitemill.state.model import State
from sitemill.state.recall import (
    HeadCounts,
    Knowledge,
    Reading,
    attach_facts,
    still_leaving_out,
)
from sitemill.state.start import Start
from sitemill.urlstyle import keep_style
from sitemill.writing.childdates import ChildDates, child_dates

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ObjectTypeDef

    from sitemill.lastmod.declared.w3cdate import DeclaredDate
    from sitemill.writing.usersitemaps import UserSitemaps


@dataclasses.dataclass(frozen=True, slots=True)
class PassOptions:
    """What one pass over a bucket is told besides its pages: ``plan``: the shard plan to keep
    (default: the start state's); ``kept``: own files not to delete yet; ``on_page``, ``on_skip``,
    ``on_dated``: told each page, in order (left out, and why; with its facts and date: ``why``);
    ``others``: the site's other shards (scaleout.membership); ``raw_keys``: cut shards among
    every candidate key, a duplicate's too (a private state's); ``named``: the user's sitemaps
    to name; ``outputs``: the output features the front end lists (none unless listed);
    ``live``: where they read what is live, when ``sink`` stages (sitemill.outputs.OutputRun)."""

    robots: RobotsRules | None
    progress: Progress | None = None
    plan: Plan | None = None
    kept: Collection[str] = ()
    on_page: Callable[[Page], None] | None = None
    on_skip: OnSkip | None = None
    others: OtherShards | None = None
    raw_keys: bool = False
    on_dated: Callable[[Page], None] | None = None
    named: Callable[[], UserSitemaps] | None = None
    outputs: Sequence[OutputFeature] = ()
    live: Sink | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Listing:
    """What a bucket run lists: its ``objects`` in key order (the whole prefix, a shard's
    range, a group's rows), read as pages by ``config``, the old outputs and empty objects
    among them noted in ``inventory`` (the sink's, when it writes to the bucket); or its
    ``pages``, read already (the router's shard: its state's listing with the changed keys
    listed anew, scaleout._shardworker), whose canonicals ask no website redirect."""

    config: Config
    objects: Iterable[ObjectTypeDef]
    inventory: Inventory
    pages: Iterable[Page] | None = None


def pass_listing(
    config: Config,
    client: S3Client,
    site: BucketSite,
    sink: Sink,
    start: Start,
    listing: Listing,
    options: PassOptions,
) -> tuple[Report, Knowledge]:
    """The step every bucket run shares (the one-state bucket, the sharded full rebuild, the
    router's shard, a distributed worker): the ``listing``'s pages (sources.s3.bucket_pages:
    a leftover sitemap.html asked by its head whether sitemill made it) with their facts
    (heads read many at a time where the start state does not know them), generated and
    written through ``sink``; and what the run learnt (``options``: PassOptions)."""
    robots, raw_keys, others = options.robots, options.raw_keys, options.others  # (short names)
    pages, empty = listing.pages, None
    if pages is None:
        heads = head_reader(client, site.bucket, site.root)  # (a sitemap.html: is it sitemill's?)
        inventory = listing.inventory
        pages = bucket_pages(listing.config, listing.objects, site.root, inventory, heads)
        empty = inventory.empty  # (website redirects)
    run_time = datetime.now(UTC)
    knowledge, pages = _judged(config, robots, knowledge_for(config, start), pages, run_time)
    pages = _no_later(pages, evidence_ceiling(run_time))
    counts = HeadCounts()
    setup = ShardSetup(Order.KEYS, options.plan or start.state.plan)
    pages = _told(pages, options.on_page, config, setup.keys if raw_keys else None)
    attached = _told(attach_facts(
        pages, needs=partial(reads_page, config, robots),
        read=page_reader(client, site, config, knowledge), knowledge=knowledge, counts=counts,
        workers=head_readers(client),
    ), options.on_dated, config, None)  # fmt: skip
    inputs = SiteInputs(
        robots=robots, read_facts=None,
        lastmod=LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME,
        warnings=start.warnings, progress=options.progress, remembered=start.state.outputs,
        recorded=start.state.digests,
        on_skip=_also(knowledge.remember.forget, options.on_skip),  # (the state: no such page)
        shards=setup, kept=options.kept, others=others, style=start.state.url_style,
        redirects=_either(website_redirects(config, client, site, empty), others),
        on_stubs=partial(knowledge.remember.settle_stubs, private=raw_keys),  # (raw: private)
        dates=child_dates(config, start.state, lambda: run_time, run_time),  # (the upload)
        named=options.named,
        outputs=options.outputs, pages=bucket_reading(client, site, knowledge.remember),
        known=start.state, keep=knowledge.remember, live=options.live,
    )  # fmt: skip
    report = build_from_pages(config, attached, sink, inputs)
    keep_style(config, report.url_style, knowledge.remember)
    _remember_files(knowledge.remember, report.result, inputs.dates)
    report.heads_read, report.heads_reused = counts.read, counts.reused
    return report, knowledge


def _no_later(pages: Iterable[Page], ceiling: str) -> Iterator[Page]:
    """The pages, a LastModified after the run (``ceiling``: the latest that is evidence,
    sitemill.lastmod.decide) taken from each: no time its bytes changed. (The stamp
    rule has judged them already: one such time makes a first run's times no evidence.)"""
    for page in pages:
        if page.lastmod is not None and page.lastmod > ceiling:
            page = dataclasses.replace(page, lastmod=None)
        yield page


def _judged(
    config: Config,
    robots: RobotsRules | None,
    knowledge: Knowledge,
    pages: Iterable[Page],
    run_time: datetime,
) -> tuple[Knowledge, Iterable[Page]]:
    """With content dates, the knowledge with the run's evidence ladder where it may date a
    page (a first run; a state that remembers pages undated): the stamp rule looks at the
    LastModified of every page the run reads before the first is dated (the pages are held
    meanwhile). A first run asks the pages' declared dates first (read with their heads: every
    page is read on a first run), checked for build stamps once over all of them."""
    if not (knowledge.content_dates and (knowledge.first_run or knowledge.known.undated())):
        return knowledge, pages
    held = list(pages)
    times = (
        seconds(page.lastmod)
        for page in held
        if page.lastmod is not None and reads_page(config, robots, page.path)
    )
    declared: dict[str, tuple[DeclaredDate, ...]] | None = {} if knowledge.first_run else None
    ladder = bucket_ladder(times, run_time, declared)
    return dataclasses.replace(knowledge, ladder=ladder, declared=declared), held


def _remember_files(remember: State, result: WriteResult, dates: ChildDates | None) -> None:
    """What the state keeps of the files written: names, digests, dates and shard plan."""
    remember.outputs = frozenset(result.outputs)
    remember.digests = result.digests()
    remember.written = None if dates is None else dates.kept(remember.outputs)
    remember.plan = result.plan


def bucket_reading(client: S3Client, site: BucketSite, remember: State) -> PageReading:
    """A page read again by one GET of as much as a fingerprint reads; the version of its
    bytes, the ETag the run keeps for it."""
    from sitemill.sources.s3 import read_object

    def page_bytes(key: str) -> bytes | None:
        return read_object(client, site.bucket, site.root + key, limit=MAX_FINGERPRINT_BYTES)

    def version(key: str) -> str | None:
        record = remember.pages.get(key)
        return None if record is None else record.version

    return PageReading(page_bytes, version)


def website_redirects(
    config: Config, client: S3Client, site: BucketSite, empty: Container[str] | None
) -> WebsiteRedirects | None:
    """Where a canonical naming an empty object of the bucket leads (None: not asked)."""
    if empty is None or not (config.respect_redirects and config.respect_canonical):
        return None
    return WebsiteRedirects(client, site.bucket, site.root, empty, config.base_url)


def _either(website: WebsiteRedirects | None, others: OtherShards | None) -> WebsiteRedirect | None:
    """A stub's redirect from the bucket (a website redirect), else from another shard."""
    if others is None:
        return website
    if website is None:
        return others.redirect

    def either(key: str) -> tuple[str, str] | None:
        return website(key) or others.redirect(key)

    return either


def _also(forget: OnSkip, more: OnSkip | None) -> OnSkip:
    if more is None:
        return forget

    def both(path: str, reason: SkipReason) -> None:
        forget(path, reason)
        more(path, reason)

    return both


def _told(
    pages: Iterable[Page],
    on_page: Callable[[Page], None] | None,
    config: Config,
    keys: list[str] | None,
) -> Iterator[Page]:
    """The pages, each told to ``on_page``, and each candidate's key noted in ``keys`` (the
    raw keys the cut rule cuts among: a duplicate's too)."""
    for page in pages:
        if on_page is not None:
            on_page(page)
        if keys is not None and is_candidate(config, page.path):
            keys.append(page.path)
        yield page


def page_reader(
    client: S3Client, site: BucketSite, config: Config, knowledge: Knowledge
) -> Callable[[str], Reading]:
    """Reads a page (a ranged GET, or the whole object for its fingerprint and parts or images)."""
    images, titles, deploy = knowledge.images, knowledge.titles, knowledge.deploy
    main = config.content_scope is ContentScope.MAIN
    fingerprint = None
    if knowledge.content_dates and deploy is not None:
        fingerprint = partial(deploy.fingerprint, ignore=config.fingerprint_ignore, main=main)
    bucket, root, base = site.bucket, site.root, config.base_url
    declared = knowledge.declared
    return lambda path: read_page(
        client,
        bucket,
        root + path,
        fingerprint and partial(fingerprint, path=path, base=base),
        images=images,
        titles=titles,
        seen=None if declared is None else partial(_declares, declared, path),
    )


def _declares(declared: dict[str, tuple[DeclaredDate, ...]], path: str, data: bytes) -> None:
    """Note the dates the page at ``path`` declares in ``data`` (a first run's head reader)."""
    from sitemill.lastmod.declared.inpage import declared_dates

    if dates := tuple(declared_dates(data)):
        declared[path] = dates


def knowledge_for(config: Config, start: Start) -> Knowledge:
    """What the run starts from, and what it reads or dates under ``config``."""
    return Knowledge(
        start.state,
        State(fingerprint_main=config.content_scope is ContentScope.MAIN, base_url=config.base_url),
        config.lastmod_precision,
        content_dates=config.content_dates and config.lastmod is not LastmodMode.NONE,
        # A state whose fingerprints this sitemill cannot compute dates a page whose ETag
        # changed as a first run does (the evidence ladder); an unchanged one keeps its date.
        first_run=start.first_run or start.state.outdated,
        images=config.images and config.format is OutputFormat.XML,
        titles=config.reads_titles,
        verdicts=still_leaving_out(
            noindex=config.respect_noindex, redirects=config.respect_redirects
        ),
        deploy=DeployEdits() if config.content_dates else None,
    )


def head_readers(client: S3Client) -> int:
    """As many reads at a time as the client keeps connections (botocore's default is 10)."""
    pool = getattr(client.meta.config, "max_pool_connections", None)
    return max(1, min(MAX_HEAD_READERS, pool if isinstance(pool, int) else 10))
