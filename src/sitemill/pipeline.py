"""The whole job: a source's pages, filtered and mapped to entries, written through a sink."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Final

from sitemill.config import Config, LastmodMode
from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry, Page, SkipReason
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.report import Progress, Report, Tally, WriteResult, file_progress
from sitemill.robots import RobotsRules
from sitemill.rules import first_rule, is_candidate, rule_values
from sitemill.sinks import Sink
from sitemill.urls import page_url, site_root_path
from sitemill.writer import write_sitemaps

log = logging.getLogger(__name__)

_HTML_SUFFIXES: Final = (".html", ".htm")
PROGRESS_EVERY: Final = 5_000


def build_from_pages(
    config: Config,
    pages: Iterator[Page],
    sink: Sink,
    *,
    robots: RobotsRules | None,
    noindex: Callable[[str], bool] | None,
    lastmod: LastmodMode,
    warnings: list[str] | None = None,
    progress: Progress | None = None,
) -> Report:
    """Generate sitemaps from any source of files (a tree, a bucket listing).

    ``noindex(path)`` tells whether an HTML page asks not to be indexed (None: not checked).
    """
    report = Report(WriteResult(), lastmod, warnings=list(warnings or []))
    tally = Tally(report.skipped, report.skips)
    check = noindex if config.respect_noindex else None
    entries = _page_entries(config, pages, robots, check, tally, progress)
    report.result = write_sitemaps(entries, sink, config, on_file=file_progress(progress))
    return report


def _page_entries(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    noindex: Callable[[str], bool] | None,
    tally: Tally,
    progress: Progress | None = None,
) -> Iterator[Entry]:
    seen = SeenUrls()
    base = config.base_url
    root_path = site_root_path(base)
    for count, page in enumerate(pages, start=1):
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(count)  # pages checked: reading heads and history can take a while
        path = page.path
        if not is_candidate(config, path):
            continue
        rule = first_rule(config, path)
        if rule is not None and rule.exclude:
            tally.skip(path, SkipReason.EXCLUDED, f"rule {rule.pattern.pattern}")
            continue
        changefreq, priority = rule_values(rule)
        loc = page_url(base, path, config.url_style)
        if robots is not None and not robots.allows(root_path + loc[len(base) :]):
            tally.skip(path, SkipReason.ROBOTS_TXT, "disallowed for User-agent: *")
            continue
        if noindex is not None and path.lower().endswith(_HTML_SUFFIXES) and noindex(path):
            tally.skip(path, SkipReason.NOINDEX, "robots meta noindex")
            continue
        if len(loc) > MAX_URL_LENGTH:
            tally.skip(path, SkipReason.TOO_LONG, f"URL of {len(loc)} characters")
            continue
        if not seen.add(loc):
            tally.skip(path, SkipReason.DUPLICATE, f"{loc} is already listed (kept the first)")
            continue
        yield Entry(loc, page.lastmod, changefreq, priority)
