"""``url_style = "auto"`` settled before the first URL is made: as an earlier run decided
it (the state keeps the decision), or by the pages' own canonicals (sitemill.listing.autostyle),
every page's facts in (a tree's reads, a bucket's heads and remembered facts)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from sitemill.config.model import Config
from sitemill.html.facts import PageFacts
from sitemill.listing.autostyle import settle_style
from sitemill.reads import reads_head
from sitemill.report import Report
from sitemill.robots.rules import RobotsRules
from sitemill.sources.page import Page
from sitemill.styledecision import StyleDecision
from sitemill.urls import UrlStyle


def settled(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    read_facts: Callable[[str], PageFacts | None] | None,
    kept: StyleDecision | None,
    report: Report,
) -> tuple[Config, Iterator[Page]]:
    """``config`` and its ``pages`` as they are (a URL style it sets), or with ``url_style =
    "auto"`` settled (sitemill.listing.autostyle) on the facts of the pages the pipeline
    reads, or as an earlier run ``kept`` it; the decision is told to ``report``."""

    def facts(page: Page) -> PageFacts | None:
        if page.verdict is not None or not reads_head(config, robots, page.path):
            return None
        return page.facts or (None if read_facts is None else read_facts(page.path))

    if config.url_style is not UrlStyle.AUTO:
        return config, pages
    report.url_style, pages = settle_style(config.base_url, pages, facts, kept)
    return replace(config, url_style=report.url_style.style), pages
