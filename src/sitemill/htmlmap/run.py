"""sitemap.html in a run, behind the output port: links collected, page rendered, published."""
# Its links are collected as the entries stream to the sitemaps (links), the page rendered once
# they all have (page), before anything is published, and published after the index; a sharded
# bucket's run is a full rebuild (sitemill.outputs). "sitemap.html" is also a name people give pages
# of their own: sitemill replaces or deletes one only when its head says sitemill made it (the
# generator meta tag); with html_sitemap on, someone else's stops the run before anything is
# written.

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from sitemill.config.model import Config, OutputFormat
from sitemill.entries import Entry
from sitemill.errors import ConfigError, RefusedError, SinkError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, HTML_SITEMAP
from sitemill.outputs import RecordedAsWritten
from sitemill.render.renderer import Renderer
from sitemill.report import Report, WriteResult
from sitemill.sinks import Sink
from sitemill.writing.publish import Publisher

if TYPE_CHECKING:  # (html_sitemap is off by default: its links are collected when it is on)
    from pathlib import Path

    from sitemill.check.problems import CheckReport
    from sitemill.check.published import Published
    from sitemill.htmlmap._links import LinkCollector
    from sitemill.outputs import OutputRun
    from sitemill.state.model import State
    from sitemill.validate.violation import Violation
    from sitemill.web.livesite import LiveSite

log = logging.getLogger(__name__)


class HtmlSitemapFeature(RecordedAsWritten):
    """sitemap.html, as a front end lists it (sitemill.outputs.OutputFeature)."""

    def start(self, run: OutputRun) -> HtmlSitemap:
        return HtmlSitemap(run.config, run.sink, run.live)

    def shard_config(self, config: Config) -> Config:
        """A full pass renders it (every page at once); a shard apart never runs with it on
        (whole_site)."""
        return config

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        """Nothing from the shards' states: a full rebuild's pass made the page."""

    def whole_site(self, config: Config) -> str | None:
        return "sitemap.html lists the whole site" if config.html_sitemap else None

    def check_live_copies(
        self, site: LiveSite, published: Published, report: CheckReport, urls: list[str]
    ) -> None:
        """Nothing live of its own: the check asks the pages it links."""

    def validate(self, path: Path) -> list[Violation] | None:
        return None  # (its page is HTML of sitemill's template: no format to hold it to)

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        return None  # (its own copy is told by its head: HtmlSitemap.publish)


SITEMAP_HTML = HtmlSitemapFeature()


class HtmlSitemap:
    """What a run does with sitemap.html (see the module docstring)."""

    def __init__(self, config: Config, sink: Sink, live: Sink | None = None) -> None:
        """``live``: where the sitemap.html live now is read (None: ``sink``; else ``sink``
        stages, and what is live is only there: sitemill.outputs.OutputRun)."""
        self.config, self.live = config, sink if live is None else live
        self.staging = live is not None
        self.collector: LinkCollector | None = None
        if config.html_sitemap:
            from sitemill.htmlmap._links import LinkCollector
            from sitemill.writing.groupkind import kind_of

            kinds = kind_of(config) if config.groups else None
            self.collector = LinkCollector(config.base_url, kind_of=kinds)
        self.page: bytes | None = None

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """The entries, each one collected on its way to the sitemaps (when on)."""
        return entries if self.collector is None else self.collector.watch(entries)

    def finish(self, result: WriteResult) -> None:
        """Nothing after the sitemaps: the page went up with them (publish)."""

    def render(self, renderer: Renderer, result: WriteResult) -> None:
        """Render the page, once every entry has gone by (a bucket's listing is complete),
        before anything is published: a sitemap.html that is not sitemill's, or a template
        that fails, stops the run with nothing written."""
        collector = self.collector
        if collector is None:
            return
        _refuse_foreign(self.live)
        entry_file = ENTRY_TXT if self.config.format is OutputFormat.TXT else ENTRY_XML
        from sitemill.htmlmap._page import (  # (the page's head and Jinja: when there is one)
            page_variables,
            render_html_page,
        )

        variables = page_variables(
            collector.links(),
            base_url=self.config.base_url,
            total=collector.total,
            entry_file=entry_file,
            groups=[group.name for group in self.config.groups],
        )
        self.page = render_html_page(renderer.environment(), variables)
        result.files.append(HTML_SITEMAP)
        if collector.omitted:
            from sitemill.htmlmap._links import MAX_HTML_LINKS

            message = (
                f"{HTML_SITEMAP} links {collector.total - collector.omitted:,} of the "
                f"{collector.total:,} listed pages (at most {MAX_HTML_LINKS:,}, the least deep "
                f"first); the {entry_file} sitemaps list them all"
            )
            log.warning("%s", message)
            result.warnings.append(message)

    def publish(self, publisher: Publisher, result: WriteResult) -> None:
        """After the index: write the page when its bytes changed; with html_sitemap off,
        delete sitemill's own copy from an earlier run (a failure is a warning)."""
        if self.page is not None:
            publisher.put(HTML_SITEMAP, self.page)
            return
        if self.collector is not None:
            return
        live = set(self.live.names()) if self.staging else publisher.live.names
        if HTML_SITEMAP not in live:
            return
        try:
            if not _made_by_sitemill(_read(self.live) or b""):
                return  # someone's own page: not sitemill's to delete
            publisher.sink.delete(HTML_SITEMAP)  # (a staging sink: after its commit)
        except SinkError as exc:
            message = (
                f"could not delete sitemill's old {HTML_SITEMAP} ({exc}); the next run tries again"
            )
            log.warning("%s", message)
            result.warnings.append(message)
            return
        result.deleted.append(HTML_SITEMAP)


def _made_by_sitemill(data: bytes) -> bool:
    # (the HTML reader loads only when a sitemap.html is there to look at)
    from sitemill.html.meta import made_by_sitemill

    return made_by_sitemill(data)


def _read(sink: Sink) -> bytes | None:
    """sitemap.html's bytes; None when there is none, or it is no regular file (a link)."""
    try:
        return sink.read(HTML_SITEMAP)
    except SinkError as exc:
        if isinstance(exc.__cause__, RefusedError):
            return None
        raise


def _refuse_foreign(sink: Sink) -> None:
    """A ConfigError when a sitemap.html that sitemill did not write sits where it would go."""
    data = sink.read(HTML_SITEMAP)  # a link or a FIFO there: a SinkError says so
    if data is not None and not _made_by_sitemill(data):
        from sitemill.htmlmap._page import MARKER

        raise ConfigError(
            "html_sitemap",
            f"{HTML_SITEMAP} is there already and sitemill did not write it (its head has no "
            f"{MARKER}); rename it, or delete it to let sitemill write one",
        )
