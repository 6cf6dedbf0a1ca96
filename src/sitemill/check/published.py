"""What a build published, as a check compares the live site with it; and which URLs it asks."""
# The sitemap files by name with their MD5, the llms files apart, and each listed page's URL, file
# path and content fingerprint, from the state the build kept. A check asks every sitemap file, the
# URLs the publishing run added or changed (and those IndexNow holds pending), and a deterministic
# sample of the rest (the smallest hashes: the same every run, mostly kept as a site grows). A
# tree's pages are read from its site folder (SiteFolder), whose real paths are resolved once, a
# folder's from its parent's and one lstat of its own (os.path.realpath asks about every component
# of a path): each answer os.path.realpath's own.

from __future__ import annotations

import hashlib
import heapq
import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from sitemill.config.llms import writes_llms
from sitemill.config.model import Config, ContentScope
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, is_llms_name
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    HTML_SUFFIXES,
)
from sitemill.state.model import State
from sitemill.state.pending import REMOVED
from sitemill.state.removedurls import RemovedUrl
from sitemill.urls import encode_uri_part, page_url
from sitemill.urlstyle import rendering_style

UNCHANGED_SAMPLE: Final = 100  # URLs sampled from those the publishing run did not change


@dataclass(frozen=True, slots=True)
class Fingerprinting:
    """How the published fingerprints were made, so that a live page's compares."""

    version: int
    main: bool
    ignore: tuple[re.Pattern[str], ...]
    base: str  # the base URL the run resolved links from
    # False: the state's fingerprints are of a version this sitemill cannot compute (an older
    # one, a newer sitemill's): an HTML page is compared by its bytes, or with the published
    # bytes fingerprinted as the live ones (this version), never by the state's fingerprint.
    remembered: bool = True


@dataclass(frozen=True, slots=True)
class PublishedPage:
    url: str
    path: str  # the file's path in the site
    fingerprint: str | None = None
    version: str | None = None  # the ETag of a bucket's page, as the state keeps it

    @property
    def html(self) -> bool:
        return self.path.lower().endswith(HTML_SUFFIXES) or self.path.endswith("/")


@dataclass
class Published:
    """What the last build published at ``base_url``."""

    base_url: str
    entry: str  # sitemap.xml, or sitemap.txt
    sitemaps: dict[str, str]  # name -> MD5 of its bytes, as published
    pages: dict[str, PublishedPage] = field(default_factory=dict)  # by URL
    changed: dict[str, str] = field(default_factory=dict)  # URL -> added or changed
    removed: frozenset[str] = frozenset()  # URLs pending IndexNow as removed
    fingerprinting: Fingerprinting | None = None  # None: not compared (a test's Published)
    robots_txt: bool = False  # sitemill keeps robots.txt's Sitemap: lines
    files: Path | None = None  # the folder of the published pages (a tree's site folder)
    built_for: str | None = None  # the base URL the build published for (None: not kept)
    named: list[str] = field(default_factory=list)  # the user's sitemaps named (usersitemaps)
    # The URLs the last build removed, with what it found of each (check.removedurls).
    removals: dict[str, RemovedUrl] = field(default_factory=dict)
    llms: dict[str, str] = field(default_factory=dict)  # llms file name -> MD5 (llms.livecheck)
    twins: bool = False  # llms_pages: the Markdown twins of the pages asked are asked too


def published_pages(config: Config, state: State) -> dict[str, PublishedPage]:
    """Each page ``state`` lists, by its URL in the style the run used."""
    style = rendering_style(config.url_style, state.url_style)
    base = config.base_url
    return {
        (url := page_url(base, path, style)): PublishedPage(
            url, path, record.fingerprint, record.version
        )
        for path, record in state.pages.items()
    }


def fingerprinting_of(config: Config, state: State) -> Fingerprinting:
    """How ``state``'s fingerprints were made, if this sitemill can make them so; else how
    this one makes them, with ``remembered`` False (a state of a version it cannot compute
    is a first run for each page: never a pass by its fingerprints)."""
    version = state.fingerprint_version
    if version != FINGERPRINT_VERSION and version not in EARLIER_VERSIONS:
        main = config.content_scope is ContentScope.MAIN
        base = config.base_url
        return Fingerprinting(FINGERPRINT_VERSION, main, config.fingerprint_ignore, base, False)
    return Fingerprinting(
        version,
        state.fingerprint_main,
        config.fingerprint_ignore,
        state.base_url or config.base_url,
    )


def chosen_urls(published: Published, *, every: bool, sample: int = UNCHANGED_SAMPLE) -> list[str]:
    """The URLs a check asks, in a stable order: every one (``every``), or those added or
    changed and ``sample`` of the rest."""
    if every:
        return sorted(published.pages)
    changed = sorted(url for url in published.changed if url in published.pages)
    rest = (url for url in published.pages if url not in published.changed)
    return changed + sorted(smallest_hashes(rest, sample))


def smallest_hashes(urls: Iterable[str], count: int) -> list[str]:
    """The ``count`` URLs whose hash is smallest: a sample that depends on the URLs alone,
    taken in one pass with ``count`` of them held."""
    keyed = ((hashlib.blake2b(url.encode(), digest_size=8).digest(), url) for url in urls)
    return [url for _, url in heapq.nsmallest(count, keyed)]


def pending_split(pending: Mapping[str, str]) -> tuple[dict[str, str], frozenset[str]]:
    """IndexNow's pending URLs: those to announce as added or changed, and the removed."""
    listed = {url: kind for url, kind in pending.items() if kind != REMOVED}
    return listed, frozenset(url for url, kind in pending.items() if kind == REMOVED)


def published_from(
    config: Config, state: State, sitemaps: dict[str, str], pending: Mapping[str, str]
) -> Published:
    """What the build that kept ``state`` published: its ``sitemaps`` (name -> MD5) and
    pages; as changed, the pages its run added or changed and those IndexNow holds pending."""
    pages = published_pages(config, state)
    llms = llms_digests(state.llms) if writes_llms(config) else {}  # (what the build recorded)
    by_path = {page.path: url for url, page in pages.items()}
    announced, removed = pending_split(pending)
    changed = {by_path[path]: kind for path, kind in state.changes.items() if path in by_path}
    changed |= {url: kind for url, kind in announced.items() if url in pages}
    entry = ENTRY_TXT if ENTRY_XML not in sitemaps and ENTRY_TXT in sitemaps else ENTRY_XML
    return Published(
        config.base_url,
        entry,
        sitemaps,
        pages,
        changed,
        removed,
        fingerprinting_of(config, state),
        config.robots_txt,
        built_for=state.base_url,
        named=user_sitemap_urls(config, state),
        # (a URL the build lists is served: one a run that kept the list added back is not
        # asked, as a distributed rebuild keeps the list of the run before it)
        removals={url: item for url, item in state.removed.items() if url not in pages},
        llms=llms,
        # (asked only where the build recorded files: an older state has none to go by)
        twins=config.llms_pages and bool(state.llms),
    )


def llms_digests(digests: Mapping[str, str]) -> dict[str, str]:
    """The llms files' of the files a build's state records (name -> MD5; state.llmsfiles):
    the Markdown twins left out (their bytes are asked by sampling)."""
    return {name: digest for name, digest in digests.items() if is_llms_name(name)}


def user_sitemap_urls(config: Config, state: State) -> list[str]:
    """The user's sitemaps a build named, sorted: ``sitemaps`` and those found in a replaced
    index (the state's names, spelt as the index spells them)."""
    found = (config.base_url + encode_uri_part(name) for name in state.found_sitemaps)
    return sorted({*config.sitemaps, *found})


class SiteFolder:
    """The folder ``root``: its real path, and the real path of a file in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real = os.path.realpath(root)
        self._real_folders: dict[str, str] = {"": self.real}

    def real_path(self, path: str) -> str:
        """``os.path.realpath(root / path)``."""
        if path.startswith("/") or "\0" in path or not _plain(path):
            return os.path.realpath(self.root / path)
        folder, _, name = path.rpartition("/")
        return _resolved(self._real_folder(folder), name)

    def _real_folder(self, folder: str) -> str:
        real = self._real_folders.get(folder)
        if real is None:
            parent, _, name = folder.rpartition("/")
            real = self._real_folders[folder] = _resolved(self._real_folder(parent), name)
        return real


def _plain(path: str) -> bool:
    return all(part not in ("", ".", "..") for part in path.split("/"))


def _resolved(real_folder: str, name: str) -> str:
    """The real path of ``name`` in the folder whose real path is ``real_folder``."""
    path = os.path.join(real_folder, name)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:  # (missing, or below a loop: os.path.realpath keeps the name as is)
        link = False
    return os.path.realpath(path) if link else path
