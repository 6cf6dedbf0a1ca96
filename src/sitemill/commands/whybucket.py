"""One bucket page's date and its evidence (``sitemill why --bucket``): the bucket job run dry."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sitemill.commands.why import (
    PageWhy,
    ReadOnlyStore,
    SeenPrevious,
    Window,
    declared_rung,
    spellings,
)
from sitemill.config.model import Config, LastmodMode
from sitemill.config.names import did_you_mean
from sitemill.config.tables import group_names
from sitemill.entries import Page, SkipReason
from sitemill.filenames.outputs import HTML_SITEMAP, STATE_NAME, is_own_name
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucket import BucketAsked, build_bucket
from sitemill.jobs.bucketsite import BucketSite, open_partitioned, partitioned_start
from sitemill.lastmod.decide import DateReason
from sitemill.lastmod.filetimes.spread import Stamp, busiest_window, seconds
from sitemill.robots.rules import RobotsRules
from sitemill.rules import LEFTOVER_HTML_SITEMAP, own_output, reads_page
from sitemill.sources.s3 import Inventory
from sitemill.state.recall import Knowledge
from sitemill.state.s3 import S3StateStore
from sitemill.state.start import Start

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


# Objects the bucket job lists but never takes for a page: said as the rebuild would.
_EMPTY = "an empty object (a folder marker, a placeholder or a website redirect): not a page"


@dataclass
class _Watch:
    """What the dry run saw of the keys that may be the page asked about (``names``)."""

    names: list[str]
    config: Config
    listed: dict[str, Page] = field(default_factory=dict)  # as listed
    dated: dict[str, Page] = field(default_factory=dict)  # with facts and date
    skipped: dict[str, SkipReason] = field(default_factory=dict)
    paths: list[str] = field(default_factory=list)  # every page listed (a near miss)
    stamped: list[tuple[str, str]] = field(default_factory=list)  # (path, LastModified)
    ran_from: tuple[Start, Knowledge, Inventory] | None = None
    times: list[float] = field(default_factory=list)  # LastModified the stamp rule judges

    def page(self, page: Page) -> None:
        self.paths.append(page.path)
        if page.lastmod is not None:
            self.stamped.append((page.path, page.lastmod))
        if page.path in self.names:
            self.listed[page.path] = page

    def date(self, page: Page) -> None:
        if page.path in self.names:
            self.dated[page.path] = page

    def skip(self, path: str, reason: SkipReason) -> None:
        if path in self.names:
            self.skipped.setdefault(path, reason)

    def ran(
        self, start: Start, knowledge: Knowledge, inventory: Inventory, robots: RobotsRules | None
    ) -> None:
        self.ran_from = start, knowledge, inventory
        config = self.config
        self.times = [
            seconds(time) for path, time in self.stamped if reads_page(config, robots, path)
        ]


def key_names(name: str, root: str) -> list[str]:
    """The keys (relative to the prefix ``root``) a page name may be served from: the name
    as a site path, then as a whole key under the prefix."""
    names = spellings(name)
    if root and name.startswith(root):
        names += [key for key in spellings(name[len(root) :]) if key not in names]
    return names


def explain_bucket_page(
    config: Config,
    client: S3Client,
    site: BucketSite,
    name: str,
    asked: RunAsked = SITEMAPS_ALONE,
) -> PageWhy:
    """Run the bucket job dry on ``site`` as the front end ``asked`` (a dry-run sink: nothing
    is written, deleted or remembered) and say what it decided for the page ``name``. The
    state is read from the state store ``asked`` names (default: beside the sitemaps), else
    its previous state; a state kept in parts (jobs.bucketsite.open_partitioned) is read
    whole, its pages in one start (partitioned_start)."""
    store = asked.state_store or S3StateStore(client, site.bucket, site.root + STATE_NAME)
    seen = ReadOnlyStore(store)  # (read as the job reads it; never written)
    before = None if asked.previous is None else SeenPrevious(asked.previous)
    watch = _Watch(key_names(name, site.root), config)
    dry = replace(asked, dry_run=True, state_store=seen, previous=before)
    partitioned = open_partitioned(config, client, site)
    begun = None if partitioned is None else partitioned_start(config, partitioned)
    start = None if begun is None else begun[0]
    report = build_bucket(config, client, site, dry, BucketAsked(watch, start))
    assert watch.ran_from is not None  # (told once the pages are read)
    start, knowledge, inventory = watch.ran_from
    path = next((key for key in watch.names if key in watch.listed), None)
    if path is None:  # (the dry run's deletion of a leftover took it out of the inventory)
        return _missing(config, name, watch, inventory, report.result.deleted)
    where = begun[1] if begun else _where(seen, before)
    state_from = None if start.first_run else where
    detail = next((s.detail for s in report.skips if s.path == path), "")
    return _decided(config, path, watch, start, knowledge, state_from, detail)


def _where(seen: ReadOnlyStore, before: SeenPrevious | None) -> str:
    """Where the run's state was read: its store, else the previous state it started from."""
    return seen.where if seen.found or before is None else before.location


def _decided(
    config: Config,
    path: str,
    watch: _Watch,
    start: Start,
    knowledge: Knowledge,
    state_from: str | None,
    detail: str,
) -> PageWhy:
    """What the run decided for the listed page ``path``, and on what evidence."""
    page = watch.dated.get(path)
    reason = None if page is None or page.date_reason is None else DateReason(page.date_reason)
    listed = watch.listed[path].lastmod
    record = knowledge.remember.record(path)
    rung = declared_rung(knowledge.ladder) if reason is not None else None
    check = None if rung is None else rung.check()
    window = None
    if knowledge.ladder.times is not Stamp.UNJUDGED and watch.times:
        ordered = sorted(watch.times)
        window = Window(knowledge.ladder.times, busiest_window(ordered), len(ordered), True)
    return PageWhy(
        path,
        LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME,
        lastmod=None if page is None else page.lastmod,
        reason=reason,
        skipped=watch.skipped.get(path),
        detail=detail,
        mtime=None if listed is None else seconds(listed),
        remembered=start.state.record(path),
        state_from=state_from,
        fingerprint=None if record is None else record.fingerprint,
        window=window,
        refused=None if check is None else check.refused.get(path),
        declared=None if check is None else check.accepted.get(path),
        uploads=True,
    )


def _missing(
    config: Config, name: str, watch: _Watch, inventory: Inventory, deleted: list[str]
) -> PageWhy:
    """No page answers ``name``: an object the job leaves out before the pipeline (one of
    sitemill's own, or its leftover sitemap.html, which the dry run ``deleted``), or none."""
    mode = config.lastmod
    for key in watch.names:
        if key in inventory.empty:
            return PageWhy(key, mode, detail=_EMPTY, excluded=True)
        groups = group_names(config.groups)
        if key == HTML_SITEMAP and key in deleted:
            return PageWhy(key, mode, detail=LEFTOVER_HTML_SITEMAP, excluded=True)
        if "/" not in key and is_own_name(key, groups) and key in inventory.objects:
            why = own_output(config, key) or LEFTOVER_HTML_SITEMAP  # (else it was a page)
            return PageWhy(key, mode, detail=why, excluded=True)
    hint = did_you_mean(name, watch.paths)
    return PageWhy(None, mode, near=hint.removeprefix("; did you mean ").removesuffix("?"))
