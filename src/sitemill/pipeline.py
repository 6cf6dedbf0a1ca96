"""The whole job: a source's pages, filtered and mapped to entries, written through a sink."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from typing import Final

from sitemill.alternates.clusters import ClusterResolver
from sitemill.alternates.declared import AlternateCounts, declared_alternates
from sitemill.config.model import Config, LastmodMode, OutputFormat
from sitemill.dedupe import SeenUrls
from sitemill.emptyrun import says_why_nothing
from sitemill.entries import Alternate, Entry, Image, SkipReason
from sitemill.html.facts import PageFacts, wants_facts
from sitemill.images.chrome import SiteChrome
from sitemill.images.pages import HasFile, PageImages
from sitemill.listing.checks import PageChecks, is_verification_file
from sitemill.listing.stubs import WebsiteRedirect
from sitemill.othershards import OtherShards
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.report import OnSkip, Progress, Report, Tally, WriteResult, file_progress
from sitemill.robots import RobotsRules
from sitemill.rules import first_rule, is_candidate, rule_values
from sitemill.shards.layout import ShardSetup
from sitemill.sinks import Sink
from sitemill.sources.page import Page
from sitemill.spool import held
from sitemill.urls import page_url, site_root_path
from sitemill.writer import write_sitemaps

log = logging.getLogger(__name__)
PROGRESS_EVERY: Final = 5_000


def build_from_pages(
    config: Config,
    pages: Iterator[Page],
    sink: Sink,
    *,
    robots: RobotsRules | None,
    read_facts: Callable[[str], PageFacts | None] | None,
    lastmod: LastmodMode,
    warnings: list[str] | None = None,
    progress: Progress | None = None,
    robots_source: bytes | None = None,
    remembered: Collection[str] = (),
    on_skip: OnSkip | None = None,
    has_file: HasFile | None = None,
    shards: ShardSetup | None = None,
    kept: Collection[str] = (),
    others: OtherShards | None = None,
    redirects: WebsiteRedirect | None = None,
) -> Report:
    """Generate sitemaps from any source of files (a tree, a bucket listing).

    A page's facts are the ones its source attached, else ``read_facts(path)`` for an HTML
    page (None: the page could not be read, no facts). ``robots_source`` is the site's
    robots.txt when sitemill maintains one elsewhere (``--out``): the starting point.
    ``remembered``: sitemill's own files that the state says earlier runs left; ``on_skip``
    is told each page left out (a job forgets those in the state it keeps). ``has_file``:
    whether the site holds a file at a path, named exactly so, where the source knows (a
    tree): images without one are left out, and a link to ``/x`` names the folder page ``/x/``
    when there is no file ``x``, ``x.html`` or ``x.htm`` (sitemill.listing.aliases).
    ``shards``: the source's key order and last plan, when its sitemaps may be shards;
    ``kept``: own files not to delete in this run (sitemill.writer); ``others``: the site's
    other shards, for a canonical or an alternate naming a page that is not in this run;
    ``redirects``: the website redirect of an object no page is (sitemill.listing.stubs).
    """
    report = Report(WriteResult(), lastmod, warnings=list(warnings or []))
    tally = Tally(report.skipped, report.skips, on_skip)
    checks = PageChecks(config, tally, has_file, others.lists if others else None, redirects)
    extensions = _Extensions(config, checks, has_file)
    entries = _page_entries(
        config, pages, robots, read_facts, checks, progress, report.dates, extensions
    )
    entries = _across_the_site(entries, extensions, checks, others)
    if extensions.alternates or extensions.images:
        entries = _counted(entries, report)
    with says_why_nothing(report.skipped):
        report.result = write_sitemaps(
            entries, sink, config, on_file=file_progress(progress), robots_source=robots_source,
            extensions=extensions.alternates or extensions.images, remembered=remembered,
            shards=shards, kept=kept,
        )  # fmt: skip
    report.warnings.extend(report.result.warnings)
    report.image_chrome = 0 if extensions.chrome is None else extensions.chrome.left_out
    report.stubs = checks.stub_ends()  # (what a state may remember of each redirect stub)
    for message in (*checks.summary(), *extensions.counts.messages(), *extensions.messages()):
        log.warning("%s", message)
        report.warnings.append(message)
    return report


def _across_the_site(
    entries: Iterator[Entry],
    extensions: _Extensions,
    checks: PageChecks,
    others: OtherShards | None,
) -> Iterator[Entry]:
    """The entries with what only the whole site tells: hreflang clusters, and images
    without the site chrome. Both hold the entries until the last one was seen."""
    chrome = extensions.chrome
    if chrome is not None:
        entries = chrome.count(entries)
    if extensions.alternates:
        borrowed = None if others is None else others.page
        resolver = ClusterResolver(checks.own_key, extensions.counts, checks.names, borrowed)
        entries = resolver.resolve(entries)  # (spools every entry until the last)
    elif chrome is not None:
        entries = held(entries)
    return entries if chrome is None else chrome.drop(entries)


def _counted(entries: Iterator[Entry], report: Report) -> Iterator[Entry]:
    """The entries, counting those with alternates and their images for the report."""
    for entry in entries:
        if entry.alternates:
            report.alternates += 1
        if entry.images:
            report.images += len(entry.images)
        yield entry


class _Extensions:
    """The sitemap extensions of a run: what each page declares (alternates, by URL key, for
    sitemill.alternates.clusters to resolve) and shows (sitemill.images)."""

    def __init__(self, config: Config, checks: PageChecks, has_file: HasFile | None) -> None:
        xml = config.format is OutputFormat.XML
        self.config = config
        self.checks = checks
        self.alternates = xml and config.alternates.enabled
        self.images = xml and config.images
        self.counts = AlternateCounts()
        self.page_images = PageImages(config, has_file) if self.images else None
        self.chrome = None
        if self.page_images is not None and not config.keep_image_chrome:
            self.chrome = SiteChrome(config.image_chrome_share, self.page_images.pages_read)

    def messages(self) -> list[str]:
        """The images' summary lines: what was left out, and why."""
        found = [] if self.page_images is None else self.page_images.messages()
        return found + ([] if self.chrome is None else self.chrome.messages())

    def of(
        self, path: str, loc: str, facts: PageFacts | None
    ) -> tuple[tuple[Alternate, ...], tuple[Image, ...]]:
        alternates: tuple[Alternate, ...] = ()
        if self.alternates and (
            (facts is not None and facts.alternates) or self.config.alternates.folders
        ):
            config = self.config
            pairs = declared_alternates(
                facts,
                path,
                loc,
                config.alternates,
                own_key=self.checks.own_key,
                site_key=self.checks.site_key,
                base_url=config.base_url,
                page_url=lambda version: page_url(config.base_url, version, config.url_style),
                counts=self.counts,
            )
            alternates = tuple(Alternate(hreflang, key) for hreflang, key in pairs)
        images = () if self.page_images is None else self.page_images.of(path, loc, facts)
        return alternates, images


def _page_entries(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    read_facts: Callable[[str], PageFacts | None] | None,
    checks: PageChecks,
    progress: Progress | None = None,
    dates: Counter[str] | None = None,
    extensions: _Extensions | None = None,
) -> Iterator[Entry]:
    seen = SeenUrls()
    tally = checks.tally
    base = config.base_url
    root_path = site_root_path(base)
    for count, page in enumerate(pages, start=1):
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(count)  # pages checked: reading heads and history can take a while
        path = page.path
        if not is_candidate(config, path):
            continue
        if is_verification_file(path):
            tally.skip(path, SkipReason.EXCLUDED, "search-engine verification file")
            continue
        rule = first_rule(config, path)
        if rule is not None and rule.exclude:
            tally.skip(path, SkipReason.EXCLUDED, f"rule {rule.pattern.pattern}")
            continue
        changefreq, priority = rule_values(rule)
        loc = page_url(base, path, config.url_style)
        if robots is not None and not robots.allows(root_path + loc[len(base) :]):
            tally.skip(path, SkipReason.ROBOTS_TXT, "disallowed for User-agent: *")
            checks.left_out(loc)  # canonicals naming it need not wait for the end
            continue
        if page.verdict is not None:  # left out by these same bytes last time
            checks.skip_remembered(path, loc, page.verdict)
            continue
        facts = page.facts
        if facts is None and read_facts is not None and wants_facts(path):
            facts = read_facts(path)
        if facts is not None and checks.skip_reason(path, loc, facts):
            continue
        if len(loc) > MAX_URL_LENGTH:
            tally.skip(path, SkipReason.TOO_LONG, f"URL of {len(loc)} characters")
            checks.left_out(loc)
            continue
        if not seen.add(loc):
            tally.skip(path, SkipReason.DUPLICATE, f"{loc} is already listed (kept the first)")
            continue
        if dates is not None and page.date_reason is not None:
            dates[page.date_reason] += 1  # before the canonical gate: close enough
        title = None if facts is None else facts.title or None  # read for html_sitemap only
        entry = Entry(loc, page.lastmod, changefreq, priority, title=title, key=path)
        if extensions is not None and (extensions.alternates or extensions.images):
            alternates, images = extensions.of(path, loc, facts)
            if alternates or images:
                entry = entry._replace(alternates=alternates, images=images)
        yield from checks.offer(entry, path, facts)
    yield from checks.finish()


def reads_head(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the facts of the page at ``path``: an HTML page
    that include, exclude, rules and robots.txt leave in. A source whose reads cost a round
    trip (S3) reads only these."""
    return wants_facts(path) and reads_page(config, robots, path)


def reads_page(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the page at ``path`` at all (include, exclude,
    rules, robots.txt): only such pages are read, fingerprinted and dated."""
    if not is_candidate(config, path) or is_verification_file(path):
        return False
    rule = first_rule(config, path)
    if rule is not None and rule.exclude:
        return False
    if robots is None:
        return True
    base = config.base_url
    loc = page_url(base, path, config.url_style)
    return robots.allows(site_root_path(base) + loc[len(base) :])
