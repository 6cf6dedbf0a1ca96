"""The sitemap extensions of a run: hreflang alternates and images."""
# What each page declares (hreflang alternates) and shows (images), and what only the whole site
# tells (the clusters, the site chrome among images).

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from sitemill.alternates.clusters import ClusterResolver
from sitemill.alternates.declared import (
    AlternateCounts,
    SiteKeys,
    declared_alternate_keys,
    folder_language,
)
from sitemill.bounded.spool import spool_all
from sitemill.config.model import Config, OutputFormat
from sitemill.entries import Alternate, Entry, Image
from sitemill.html.facts import PageFacts, language_tag
from sitemill.listing.checks import PageChecks
from sitemill.shards.plan import OtherShards
from sitemill.urls import page_url

if TYPE_CHECKING:  # (images are off by default: their modules load when a run lists them)
    from sitemill.images.chrome import SiteChrome
    from sitemill.images.pages import HasFile, PageImages


class Extensions:
    """The sitemap extensions of a run: what each page declares (alternates, by URL key, for
    sitemill.alternates.clusters to resolve) and shows (sitemill.images)."""

    def __init__(self, config: Config, checks: PageChecks, has_file: HasFile | None) -> None:
        xml = config.format is OutputFormat.XML
        self.config = config
        self.checks = checks
        self.alternates = xml and config.alternates.enabled
        self.images = xml and config.images
        self.counts = AlternateCounts()
        self.site_keys = SiteKeys(  # (the run's: made once, not per page)
            config.base_url,
            checks.site_key,
            own_key=checks.own_key,
            page_url=lambda version: page_url(config.base_url, version, config.url_style),
        )
        self.page_images: PageImages | None = None
        self.chrome: SiteChrome | None = None
        if self.images:
            from sitemill.images.chrome import SiteChrome
            from sitemill.images.pages import PageImages

            self.page_images = PageImages(config, has_file)
            if not config.keep_image_chrome:
                self.chrome = SiteChrome(config.image_chrome_share, self.page_images.pages_read)

    def messages(self) -> list[str]:
        """The images' summary lines: what was left out, and why."""
        found = [] if self.page_images is None else self.page_images.messages()
        return found + ([] if self.chrome is None else self.chrome.messages())

    def of(self, entry: Entry, path: str, facts: PageFacts | None) -> Entry:
        """``entry`` (of the page at ``path``) with what its page declares and shows, and,
        where site chrome is counted, its language as the page alone tells it."""
        alternates = self._declared(path, entry.loc, facts)
        images: tuple[Image, ...] = ()
        if self.page_images is not None:
            images = self.page_images.of(path, entry.loc, facts)
        language = ""
        if self.chrome is not None:  # (its cluster, once resolved, comes first)
            language = folder_language(self.config.alternates.folders, path)
            language = language or language_tag("" if facts is None else facts.lang)
        if alternates or images or language:
            entry = entry._replace(alternates=alternates, images=images, language=language)
        return entry

    def _declared(self, path: str, loc: str, facts: PageFacts | None) -> tuple[Alternate, ...]:
        config = self.config
        if not self.alternates or not (
            (facts is not None and facts.alternates) or config.alternates.folders
        ):
            return ()
        pairs = declared_alternate_keys(
            facts, path, loc, config.alternates, self.site_keys, self.counts
        )
        return tuple(Alternate(hreflang, key) for hreflang, key in pairs)


def across_the_site(
    entries: Iterator[Entry],
    extensions: Extensions,
    checks: PageChecks,
    others: OtherShards | None,
) -> Iterator[Entry]:
    """The entries with what only the whole site tells: hreflang clusters, and images
    without the site chrome. Both hold the entries until the last one was seen; the chrome
    is counted with the clusters resolved (a page's language is its cluster's)."""
    chrome = extensions.chrome
    if extensions.alternates:
        borrowed = None if others is None else others.page
        resolver = ClusterResolver(checks.own_key, extensions.counts, checks.names, borrowed)
        look = None if chrome is None else chrome.look
        entries = resolver.resolve(entries, look)  # (spools every entry until the last)
    elif chrome is not None:
        entries = spool_all(chrome.count(entries))
    return entries if chrome is None else chrome.drop(entries)
