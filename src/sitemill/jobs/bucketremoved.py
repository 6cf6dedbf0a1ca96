"""What a bucket's rebuild removed, and where each removed URL leads, asked of the bucket."""
# A removed URL leads where an object that still answers for it sends the reader: an empty
# object (the usual website redirect) is asked for its x-amz-website-redirect-location (one
# HEAD); one the start state listed that the listing still holds redirects as the rebuild read
# its head (a meta refresh, a website redirect: no request more). A URL whose objects are all
# gone costs no request, and a kept page is never asked (only removed URLs are).

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.entries import Page
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, url_key
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report
from sitemill.sources.s3pages import WebsiteRedirects, key_paths
from sitemill.state.model import State
from sitemill.state.start import Start

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


class ListedBefore:
    """The objects of the listing that the start state lists (keys relative to the prefix),
    and the facts of those that redirect (a meta refresh, a website redirect) as the rebuild
    read or remembered them: of those the build no longer lists, an object still answers."""

    def __init__(self, start: Start, empty: Container[str]) -> None:
        self.start, self.empty = start, empty  # (the listing's empty objects: Inventory.empty)
        self.keys: set[str] = set()
        self.redirects: dict[str, PageFacts] = {}

    def note(self, page: Page) -> None:
        """Told each page with its facts (pass_listing's ``on_dated``)."""
        if page.path in self.start.state.pages:
            self.keys.add(page.path)
            if page.facts is not None and page.facts.refresh is not None:
                self.redirects[page.path] = page.facts

    def classify(
        self, config: Config, client: S3Client, site: BucketSite, after: State, report: Report
    ) -> None:
        """Set ``report.diff`` (the state ``after`` the rebuild writes against the one it
        started from) and the URLs it removed in ``after``; a first run tells nothing."""
        if self.start.first_run:
            return
        from sitemill.jobs.removedpages import record_removed  # (a rebuild's)

        style = report.url_style.style if report.url_style is not None else config.url_style
        redirects = BucketRedirects(client, site, config.base_url, self)
        report.diff = record_removed(config, self.start.state, after, style, redirects)


class BucketRedirects:
    """Where the bucket sends a removed URL (diff.compare.RedirectOf), asked lazily; and
    whether an object still answers for it."""

    def __init__(
        self,
        client: S3Client,
        site: BucketSite,
        base_url: str,
        listed: ListedBefore,
    ) -> None:
        self.site, self.listed, self.empty = site, listed, listed.empty
        self.website = WebsiteRedirects(client, site.bucket, site.root, self.empty, base_url)

    def keys_of(self, url: str) -> list[str]:
        """The keys that answer for ``url`` (relative to the prefix), as the listing saw them."""
        key = url_key(url)
        if not key.startswith(self.website.site_key):
            return []
        paths = key_paths(key[len(self.website.site_key) :])
        return [path for path in paths if path in self.empty or path in self.listed.keys]

    def served(self, url: str) -> bool:
        return bool(self.keys_of(url))

    def __call__(self, url: str) -> tuple[str, str] | None:
        found = self.keys_of(url)
        if not found:
            return None
        path, where = found[0], f"s3://{self.site.bucket}/{self.site.root}{found[0]}"
        if path in self.empty:
            asked = self.website(url_key(url))
            target = None if asked is None else resolve_url(asked[1], asked[0])
            return None if target is None else (target, f"a website redirect ({where})")
        facts = self.listed.redirects.get(path)
        if facts is None or facts.refresh is None:
            return None  # (a page still served, left out: noindex, excluded, ...)
        target = resolve_url(facts.refresh, url, facts.base)
        how = "a website redirect" if facts.website_redirect else "a redirect stub"
        return None if target is None else (target, f"{how} ({where})")
