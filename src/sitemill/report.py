"""What a run reports: the write result, skipped pages by reason, warnings."""
# Its progress (sitemill.progress) is re-exported here.

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from sitemill.config.model import LastmodMode
from sitemill.entries import Skip, SkipReason
from sitemill.filenames.groupnames import SHARD_STEM
from sitemill.filenames.outputs import HTML_SITEMAP
from sitemill.lastmod.summary import dates_text
from sitemill.messages import counted
from sitemill.progress import Progress as Progress  # (the jobs import these from here)
from sitemill.progress import file_progress as file_progress
from sitemill.state.llmsfiles import LlmsRecord
from sitemill.urlstyle import StyleDecision

if TYPE_CHECKING:  # (the state and the HTML readers behind them: not every run needs them)
    from sitemill.diff.model import SiteDiff
    from sitemill.shards.plan import Plan

log = logging.getLogger(__name__)

# Skips kept in full for reports and annotations; beyond this they are only counted.
MAX_SKIPS_KEPT: Final = 1_000
_WARNED: Final = frozenset({SkipReason.DUPLICATE, SkipReason.TOO_LONG, SkipReason.OFF_SITE})
# Warnings of one reason before the rest are only counted: a list made for another site
# would otherwise print a line for each of its million URLs (the summary counts them all).
MAX_WARNINGS_PER_REASON: Final = 20


@dataclass
class WriteResult:
    """What a run produced and what it changed."""

    entry_files: list[str] = field(default_factory=list)  # sitemap.xml (and further indexes)
    users_named: int = 0  # the user's sitemaps the index names too (writing.usersitemaps)
    files: list[str] = field(default_factory=list)  # every sitemap file, entry files first
    url_count: int = 0
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    # sitemill's own files left beside the sitemaps after the run: the files above and any
    # stale one a deletion failed on (the state remembers them; a later run deletes those).
    outputs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    plan: Plan | None = None  # the shard plan the sitemaps were written by (None: not sharded)
    # Each sitemap file (not an index) as written: name -> (URLs, newest lastmod, MD5 of the
    # bytes stored, "" where the job took none: WriteSetup(digests=False)); and each shard
    # child's boundary (sitemill.shards.partition keeps both).
    sitemaps: dict[str, tuple[int, str | None, str]] = field(default_factory=dict)
    boundaries: dict[str, str] = field(default_factory=dict)
    index_digests: dict[str, str] = field(default_factory=dict)  # each index's, by name
    # The MD5 of each stale file a deletion failed on (what proves it sitemill's to the next
    # run: writing.ownbytes).
    left_digests: dict[str, str] = field(default_factory=dict)
    llms: LlmsRecord = field(default_factory=LlmsRecord)  # (llms.run)

    def count_as_written(self, names: list[str]) -> None:
        """Files an earlier, failed attempt of this run wrote: changed too (a CDN must
        forget them) although this attempt found them as it wanted them."""
        for name in names:
            if name in self.unchanged:
                self.unchanged.remove(name)
                self.written.append(name)

    def digests(self) -> dict[str, str]:
        """Each sitemap file and index published and left among the outputs, by name: the
        MD5 of its bytes as stored."""
        found = {name: digest for name, (_, _, digest) in self.sitemaps.items()}
        found |= self.index_digests
        found |= self.left_digests
        return {name: digest for name, digest in found.items() if name in self.outputs}

    @property
    def changed(self) -> bool:
        return bool(self.written or self.deleted)

    @property
    def sitemap_count(self) -> int:
        """The sitemap files and indexes among ``files`` (sitemap.html, for people, is not)."""
        return sum(1 for name in self.files if name != HTML_SITEMAP)


class Announcing(Protocol):
    """What a feature that tells others of the run's changes (IndexNow) reports of it: its
    numbers for a summary, one line for a terminal, and the lines that went wrong."""

    messages: list[str]

    def counts(self) -> dict[str, Any]:
        """The numbers for a Lambda or job summary."""
        ...

    def line(self) -> str:
        """One line for a terminal."""
        ...


@dataclass(frozen=True, slots=True)
class Declared:
    """A base URL the site declares (urls.normalize_base_url), where it says so ("CNAME",
    "og:url on 40 of 42 pages"), and whether that is enough alone (listing.siteurl)."""

    base: str
    source: str
    strong: bool = False


@dataclass
class Report:
    """What a build did: the write result, and every page left out with why."""

    result: WriteResult
    lastmod: LastmodMode
    skipped: Counter[SkipReason] = field(default_factory=Counter)
    skips: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dates: Counter[str] = field(default_factory=Counter)  # listed pages by date reason
    heads_read: int = 0  # pages whose head this run read (an S3 ranged GET each)
    heads_reused: int = 0  # pages whose facts the state remembered for their version
    state_written: bool = False
    shards_touched: int | None = None  # shards an incremental run rendered (None: all)
    execution: str | None = None  # the distributed rebuild this run started instead
    alternates: int = 0  # listed URLs that carry hreflang alternates
    images: int = 0  # <image:image> entries written
    image_chrome: int = 0  # image entries left out as site chrome (shown on most pages)
    # IndexNow's: what to announce, and what became of it (indexnow.outcome.IndexNowOutcome;
    # kept by the feature, read by the front ends as Announcing: the report names no feature)
    indexnow: Announcing | None = None
    requests: Counter[str] = field(default_factory=Counter)  # a bucket's, by REQUEST_KINDS
    url_style: StyleDecision | None = None  # what url_style = "auto" settled on (None: set)
    lastmod_from: str | None = None  # where the dates came from, when ``lastmod`` cannot say
    # What the site says of its base URL, and where (listing.siteurl): canonicals, og:url, ...
    site_urls: list[Declared] = field(default_factory=list)
    diff: SiteDiff | None = None  # what the build changed against its start state (a bucket's)
    # What needs the user, counted by what (one, many): removed URLs a reader will miss
    # (jobs.removedpages), and how many of ``warnings`` say it (needs_line counts the rest).
    needs: Counter[tuple[str, str]] = field(default_factory=Counter)
    needs_warnings: int = 0
    # Listed URLs by the month of their lastmod ("" none): the summary's chart of dates.
    months: Counter[str] = field(default_factory=Counter)


# Skips every healthy site has (a user's or a built-in exclude, a redirect stub, a canonical
# naming another listed page, a duplicate): counted, never said to need the user (needs_line,
# the Action's annotations). The others (noindex, robots.txt, ...) a user may not expect.
ROUTINE_SKIPS: Final = frozenset(
    {SkipReason.EXCLUDED, SkipReason.REDIRECT, SkipReason.CANONICAL, SkipReason.DUPLICATE}
)


def needs_line(report: Report) -> str:
    """The first line of a run's summary: ``nothing needs you``, or ``needs you:`` and what,
    counted (removed URLs a reader will miss, pages left out for a reason a user may not
    expect, the other warnings)."""
    found = [counted(count, one, many) for (one, many), count in report.needs.items()]
    unexpected = [
        f"{reason.value} {report.skipped[reason]:,}"
        for reason in SkipReason  # (the README's order)
        if reason not in ROUTINE_SKIPS and report.skipped[reason]
    ]
    if unexpected:
        left_out = sum(n for reason, n in report.skipped.items() if reason not in ROUTINE_SKIPS)
        found.append(f"{counted(left_out, 'page')} left out ({', '.join(unexpected)})")
    others = len(dict.fromkeys(report.warnings)) - report.needs_warnings
    if others > 0:
        found.append(counted(others, "other warning" if found else "warning"))
    return f"needs you: {', '.join(found)}" if found else "nothing needs you"


# Told each page a run leaves out (the jobs forget it in the state they keep).
OnSkip = Callable[[str, SkipReason], None]


class Tally:
    """Counts skips by reason, keeps the first ones, and warns where a user would look."""

    def __init__(
        self, report_skips: Counter[SkipReason], kept: list[Skip], on_skip: OnSkip | None = None
    ) -> None:
        self.counts, self.kept, self.on_skip = report_skips, kept, on_skip
        self.warned: Counter[SkipReason] = Counter()

    def skip(self, path: str, reason: SkipReason, detail: str = "") -> None:
        self.record(Skip(path, reason, detail))

    def record(self, skip: Skip) -> None:
        self.counts[skip.reason] += 1
        if self.on_skip is not None:
            self.on_skip(skip.path, skip.reason)
        if len(self.kept) < MAX_SKIPS_KEPT:
            self.kept.append(skip)
        # Warn where the user would not expect a page to be missing; a skip without
        # detail (a URL list's repeated line) is only counted.
        if skip.detail and skip.reason in _WARNED:
            self._warn(skip)

    def _warn(self, skip: Skip) -> None:
        self.warned[skip.reason] += 1
        if (warned := self.warned[skip.reason]) <= MAX_WARNINGS_PER_REASON:
            log.warning("skipped %s: %s (%s)", skip.path, skip.reason.value, skip.detail)
        if warned == MAX_WARNINGS_PER_REASON:
            log.warning("more skipped as %s are counted, not shown", skip.reason.value)


def dates_line(report: Report) -> str:
    """``lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)``; empty when
    content dates decided no page's date (sitemill.lastmod.summary)."""
    return dates_text(report.dates)


def style_line(report: Report) -> str:
    """``url style: clean (142 of 150 pages' own canonicals say so)``: what ``auto`` settled
    on, and why; empty for a style the configuration sets."""
    return "" if report.url_style is None else report.url_style.line()


def heads_line(report: Report) -> str:
    """``page heads: 3 read, 17 remembered from the last run`` (a bucket's pages: a GET each
    unless the state remembers their ETag); empty when no head was read or remembered."""
    if not (report.heads_read or report.heads_reused):
        return ""
    return (
        f"page heads: {report.heads_read:,} read, {report.heads_reused:,} remembered from "
        "the last run"
    )


# How requests are told, in this order (sitemill.sources.s3.counted_requests names them).
REQUEST_KINDS: Final = ("LIST", "GET", "HEAD", "PUT", "DELETE")


def shards_line(report: Report) -> str:
    """``shards: 12, 1 child rewritten`` when the sitemaps are shards; else empty."""
    result = report.result
    if result.plan is None:
        return ""
    children = counted(_rewritten(result), "child", "children")
    line = f"shards: {len(result.plan.afters):,}, {children} rewritten"
    if report.shards_touched is not None:  # an incremental run: the shards it rendered
        line += f", {report.shards_touched:,} touched"
    return line


def _rewritten(result: WriteResult) -> int:
    """The shards' children a run wrote (sitemill.shards.plan.child_name), named groups'
    too (sitemap-<name>-r<id>.xml)."""
    return sum(1 for name in result.written if SHARD_STEM.match(name))


def requests_line(report: Report) -> str:
    """``requests: LIST 3, GET 5, PUT 2`` (a bucket's run); empty when none were counted."""
    counts = report.requests
    parts = [f"{kind} {counts[kind]:,}" for kind in REQUEST_KINDS if counts[kind]]
    parts += [
        f"{kind} {count:,}" for kind, count in sorted(counts.items()) if kind not in REQUEST_KINDS
    ]
    return f"requests: {', '.join(parts)}" if parts else ""


def extensions_line(report: Report) -> str:
    """``extensions: 300 URLs with hreflang alternates, 5,100 images, 950 site-chrome
    images left out``; empty when none."""
    parts = []
    if report.alternates:
        parts.append(f"{counted(report.alternates, 'URL')} with hreflang alternates")
    if report.images:
        parts.append(counted(report.images, "image"))
    if report.image_chrome:
        parts.append(f"{counted(report.image_chrome, 'site-chrome image')} left out")
    return f"extensions: {', '.join(parts)}" if parts else ""


def summary_counts(report: Report, *, dry_run: bool = False) -> dict[str, Any]:
    """The Lambda summary's numbers: files, shards, S3 requests by kind, page heads read (a
    ranged GET each) or reused from the state, which is "written" (or, in a dry run, "would
    write") or "unchanged"."""
    result = report.result
    written = "would write" if dry_run else "written"
    counts: dict[str, Any] = {
        "urls": result.url_count,
        "sitemaps": result.sitemap_count,
        "written": len(result.written),
        "unchanged": len(result.unchanged),
        "deleted": len(result.deleted),
        "pages_read": report.heads_read,
        "pages_reused": report.heads_reused,
        "state": written if report.state_written else "unchanged",
        # How each listed page got its lastmod: "kept", "new page", "content changed"...
        "dates": dict(sorted(report.dates.items())),
    }
    if report.alternates or report.images or report.image_chrome:
        counts["alternates"], counts["images"] = report.alternates, report.images
        counts["image_chrome"] = report.image_chrome  # image entries left out as site chrome
    if report.skipped:
        counts["skipped"] = {reason.value: count for reason, count in report.skipped.items()}
    if result.plan is not None:  # sharded: how many, and the children among "written"
        counts["shards"] = len(result.plan.afters)
        counts["shard_children_written"] = _rewritten(result)  # (the index is not one)
        if report.shards_touched is not None:
            counts["shards_touched"] = report.shards_touched
    if report.execution is not None:
        counts["execution"] = report.execution
    counts["requests"] = dict(sorted(report.requests.items()))  # S3, by kind
    if report.indexnow is not None:
        counts["indexnow"] = report.indexnow.counts()
    return counts
