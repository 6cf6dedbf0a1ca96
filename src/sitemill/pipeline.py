"""The whole job: a source's pages, filtered and mapped to entries, written through a sink."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sitemill.bounded.dedupe import SeenUrls
from sitemill.config.model import Config, LastmodMode
from sitemill.entries import Entry, Page, SkipReason
from sitemill.extensions import Extensions, across_the_site
from sitemill.html.facts import PageFacts, wants_facts
from sitemill.listing.checks import PageChecks
from sitemill.listing.stubs import WebsiteRedirect
from sitemill.outputs import Output, OutputFeature, OutputRun, PageReading
from sitemill.progress import PAGES, Ticker
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.report import (
    Declared,
    OnSkip,
    Progress,
    Report,
    Tally,
    WriteResult,
    file_progress,
)
from sitemill.robots.rules import RobotsRules
from sitemill.rules import (
    NO_PAGE_NAME,
    builtin_exclusion,
    first_rule,
    is_candidate,
    rule_values,
)
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import OtherShards
from sitemill.sinks import Sink
from sitemill.urls import page_url, site_root_path
from sitemill.urlstyle import StyleDecision, resolve_url_style
from sitemill.writing.childdates import ChildDates
from sitemill.writing.ownbytes import file_owners
from sitemill.writing.writer import WriteSetup, explain_empty_run, write_sitemaps

if TYPE_CHECKING:
    from sitemill.images.pages import HasFile
    from sitemill.state.model import State
    from sitemill.writing.usersitemaps import UserSitemaps

log = logging.getLogger(__name__)
PROGRESS_EVERY: Final = 100  # pages between two ticks of progress (a call: cheap)


@dataclass(frozen=True, slots=True)
class SiteInputs:
    """What a source knows of its site beside the pages, and whom a run tells what it did.

    A page's facts: its source's, else ``read_facts(path)`` for an HTML page (None: could not be
    read). ``robots_source``: the site's robots.txt if sitemill keeps one elsewhere (``--out``).
    ``remembered``: own files the state says earlier runs left; ``on_skip`` is told each page
    left out (a job forgets those in its state). ``has_file``: whether the site holds a file at
    a path, named exactly so, where the source knows: images without one are left out, a link to
    ``/x`` names the folder page ``/x/`` without a file ``x``, ``x.html`` or ``x.htm``
    (sitemill.listing._aliases). ``shards``: the source's key order and last plan, when its
    sitemaps may be shards; ``kept``: own files to keep now (sitemill.writing.writer);
    ``others``: the other shards, for a canonical or alternate naming a page not in this run;
    ``style``: what ``url_style = "auto"`` decided before (sitemill.urlstyle); ``redirects``: the
    website redirect of an object no page is; ``on_stubs``: told where each redirect stub
    leads, at the end (sitemill.listing.stubs); ``expected``: the pages, if known (progress);
    ``named``: the user's sitemaps the index names (sitemill.writing.usersitemaps);
    ``outputs``: the features written beside the sitemaps (sitemill.outputs), with ``pages``,
    how they read a listed page again, ``known`` and ``keep``, the state the last run left
    and the one this run keeps, and ``live``, where they read what is live (OutputRun).
    ``site_url_check`` is told what the pages say of the site's URL (their canonicals and
    og:url: listing.siteurl) once every page is read, before anything is published: what it
    raises leaves every file as it was.
    """

    robots: RobotsRules | None
    read_facts: Callable[[str], PageFacts | None] | None
    lastmod: LastmodMode
    warnings: list[str] | None = None
    progress: Progress | None = None
    robots_source: bytes | None = None
    remembered: Collection[str] = ()
    recorded: Mapping[str, str] = field(default_factory=dict)  # their MD5s (WriteSetup)
    on_skip: OnSkip | None = None
    has_file: HasFile | None = None
    shards: ShardSetup | None = None
    kept: Collection[str] = ()
    others: OtherShards | None = None
    style: StyleDecision | None = None
    redirects: WebsiteRedirect | None = None
    on_stubs: Callable[[dict[str, bool | None]], None] | None = None
    expected: int | None = None
    dates: ChildDates | None = None  # when each index child's bytes changed (the state's)
    named: Callable[[], UserSitemaps] | None = None
    outputs: Sequence[OutputFeature] = ()
    pages: PageReading | None = None
    known: State | None = None
    keep: State | None = None
    live: Sink | None = None
    site_url_check: Callable[[list[Declared]], None] | None = None


def build_from_pages(config: Config, pages: Iterator[Page], sink: Sink, site: SiteInputs) -> Report:
    """Generate sitemaps from any source of files (a tree, a bucket listing)."""
    robots, read_facts, progress, others = site.robots, site.read_facts, site.progress, site.others
    report = Report(WriteResult(), site.lastmod, warnings=list(site.warnings or []))
    tally = _Tally(report.skipped, report.skips, site.on_skip)
    config, pages, report.url_style = resolve_url_style(
        config, pages, robots, read_facts, site.style
    )
    outputs = _started(config, sink, site)  # (llms_pages without a state: refused here)
    lists = None if others is None else others.lists  # (a style set: hint when pages disagree)
    checks = PageChecks(
        config, tally, site.has_file, lists, site.redirects, hint=report.url_style is None
    )
    extensions = Extensions(config, checks, site.has_file)
    told = Ticker(progress, PAGES, site.expected, every=PROGRESS_EVERY)
    entries = _page_entries(config, pages, robots, read_facts, checks, told, report, extensions)
    entries = across_the_site(entries, extensions, checks, others)
    if extensions.alternates or extensions.images:
        entries = _counted(entries, report)
    for output in outputs:
        entries = output.watch(entries)
    with explain_empty_run(report.skipped):
        setup = WriteSetup(
            on_file=file_progress(progress), robots_source=site.robots_source,
            extensions=extensions.alternates or extensions.images, remembered=site.remembered,
            recorded=site.recorded,
            shards=site.shards, kept=site.kept, dates=site.dates, named=site.named,
            outputs=outputs, owners=file_owners(site.outputs),
            before_publishing=_checked(site.site_url_check, checks),
        )  # fmt: skip
        report.result = write_sitemaps(entries, sink, config, setup)
    for output in outputs:
        output.finish(report.result)
    _summarize(report, checks, extensions, tally.strangers_line())
    if site.on_stubs is not None:
        site.on_stubs(checks.stub_ends())
    return report


def _checked(
    check: Callable[[list[Declared]], None] | None, checks: PageChecks
) -> Callable[[], None] | None:
    """``check`` told the pages' word on the site's URL, once every page was seen."""
    return None if check is None else lambda: check(checks.declared_urls())


def _started(config: Config, sink: Sink, site: SiteInputs) -> list[Output]:
    """Each output feature's part in this run (sitemill.outputs)."""
    group = None
    if config.groups:
        from sitemill.writing.groupkind import kind_name, kind_of

        kind = kind_of(config)

        def group(entry: Entry) -> str | None:
            return kind_name(config.groups, kind(entry))

    run = OutputRun(config, sink, site.pages, site.known, site.keep, group, site.live)
    return [feature.start(run) for feature in site.outputs]


class _Tally(Tally):
    """The report's tally, counting the files whose names can name no page for one warning
    (never one per file: sitemill.filenames.pagenames)."""

    strangers, stranger_example = 0, ""

    def skip(self, path: str, reason: SkipReason, detail: str = "") -> None:
        if detail is NO_PAGE_NAME:
            self.strangers += 1
            self.stranger_example = self.stranger_example or path
        super().skip(path, reason, detail)

    def strangers_line(self) -> str:
        """``excluded 2 file(s) whose name can name no page …, e.g. 'new\\nline.html'``;
        empty when none."""
        if not self.strangers:
            return ""
        example = self.stranger_example
        example = example if len(example) <= 80 else example[:77] + "..."
        return (
            f"excluded {self.strangers:,} file(s) whose name can name no page of the site "
            "(a control character such as a newline or a tab, a backslash, an empty, '.' or "
            f"'..' segment), e.g. {example!r}"
        )


def _summarize(report: Report, checks: PageChecks, extensions: Extensions, strangers: str) -> None:
    """The run's summary lines into ``report`` (and the log)."""
    report.warnings.extend(report.result.warnings)
    report.image_chrome = 0 if extensions.chrome is None else extensions.chrome.left_out
    report.site_urls.extend(checks.declared_urls())
    summary = [*([strangers] if strangers else []), *checks.summary(changed=report.result.changed)]
    for message in (*summary, *extensions.counts.messages(), *extensions.messages()):
        log.warning("%s", message)
        report.warnings.append(message)


def _entry(entry: Entry, facts: PageFacts | None) -> Entry:
    """The entry with the page's title, description and site name, where they were read
    (config.reads_titles: for what shows them only)."""
    if facts is None or facts.title is None:
        return entry
    return entry._replace(
        title=facts.title or None,
        description=facts.description or None,
        site_name=facts.site_name or None,
    )


def _counted(entries: Iterator[Entry], report: Report) -> Iterator[Entry]:
    """The entries, counting those with alternates and their images for the report."""
    for entry in entries:
        if entry.alternates:
            report.alternates += 1
        if entry.images:
            report.images += len(entry.images)
        yield entry


def _page_entries(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    read_facts: Callable[[str], PageFacts | None] | None,
    checks: PageChecks,
    ticker: Ticker,
    report: Report,
    extensions: Extensions | None = None,
) -> Iterator[Entry]:
    seen = SeenUrls()
    waiting: dict[str, str] = {}  # listed pages' date reasons, until the gate lets them through
    tally = checks.tally
    base = config.base_url
    root_path = site_root_path(base)
    for page in pages:
        ticker.step()  # pages checked: reading heads and history can take a while
        path = page.path
        if not is_candidate(config, path):
            continue
        if (builtin := builtin_exclusion(path)) is not None:
            tally.skip(path, SkipReason.EXCLUDED, builtin)
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
        if page.date_reason is not None:
            waiting[path] = page.date_reason  # counted once listed (the canonical gate)
        entry = _entry(Entry(loc, page.lastmod, changefreq, priority, key=path), facts)
        if extensions is not None and (extensions.alternates or extensions.images):
            entry = extensions.of(entry, path, facts)
        yield from _dated(checks.offer(entry, path, facts), waiting, report)
    ticker.finish()
    yield from _dated(checks.finish(), waiting, report)


def _dated(entries: Iterable[Entry], waiting: dict[str, str], report: Report) -> Iterator[Entry]:
    """The entries, each listed page's date reason and lastmod month counted as it is listed:
    a page the canonical gate leaves out is not (the tallies sum to the URLs listed)."""
    dates, months = report.dates, report.months
    for entry in entries:
        if (reason := waiting.pop(entry.key or "", None)) is not None:
            dates[reason] += 1
        months[(entry.lastmod or "")[:7]] += 1
        yield entry
