"""Which source file a built page was rendered from (docs/lastmod.md, rung 2)."""
# The generator's conventions first, else a content match, else none; none at all for a folder
# that is not the output of the generator config found above it
# (sitemill.lastmod.sourcefiles.outputfolder).

from __future__ import annotations

import logging
import os
import posixpath
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final, Protocol

from sitemill.errors import RefusedError
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES
from sitemill.lastmod.sourcefiles._contentmatch import TextIndex, page_words, source_words
from sitemill.lastmod.sourcefiles.conventions import CONVENTIONS
from sitemill.lastmod.sourcefiles.conventions.base import Pages, RepoView, Tree
from sitemill.lastmod.sourcefiles.conventions.paths import split_extension
from sitemill.lastmod.sourcefiles.outputfolder import builds_into
from sitemill.lastmod.sourcefiles.project import find_project
from sitemill.safefs import Root

logger = logging.getLogger(__name__)

# Source files the content match considers (templates and HTML are no page's own text).
TEXT_SOURCES: Final = frozenset(
    {".md", ".markdown", ".mdown", ".mkd", ".mdx", ".rst", ".txt", ".adoc", ".asciidoc"}
    | {".org", ".ipynb", ".qmd", ".rmd", ".textile", ".mdoc"}
)
# Pages no single source has: taxonomy and list pages, pagination, search, indexes, 404.
_NO_SOURCE: Final = re.compile(
    r"""(?:^|/)(?:tags?|categories|category|authors?|archives?|series|topics)(?:/|\.html?$)
    | (?:^|/)page/\d+(?:/|\.html?$)
    | (?:^|/)(?:search|genindex|py-modindex|404)(?:/index)?\.html?$""",
    re.X | re.I,
)


class SourceMap(Protocol):
    """A site's built pages -> the source files they were rendered from."""

    def sources(self, page: str) -> tuple[str, ...]:
        """Repo-relative POSIX paths of the source file(s) the built page at site-relative
        path `page` (e.g. "guide/install/index.html") was rendered from; () if unknown."""
        ...


class NoSources:
    """The source map of a site with none in the repository (the site is the repository's
    root, a committed gh-pages branch): every page ()."""

    def sources(self, page: str) -> tuple[str, ...]:
        return ()


class ConventionsThenText:
    """The generator's conventions first; then, for a page that is no list or index page,
    the one source whose text holds the page's (indexed on the first such page), unless
    that source is another built page's by the conventions: then this page copies or lists
    it (a blog's archive or home page shows the newest post in full) and lists others
    whose changes the source's history does not hold."""

    def __init__(self, pages: Pages, tree: Tree, folder: str, site_root: Path) -> None:
        self._pages = pages
        self._tree = tree
        self._folder = folder
        self._root = Root(site_root)
        self._index: TextIndex | None = None
        self._lock = threading.Lock()
        self._claimed: dict[str, list[str]] = {}  # a source -> the pages mapped to it
        for mapped, sources in pages.items():
            for source in sources:
                self._claimed.setdefault(source, []).append(mapped)

    def sources(self, page: str) -> tuple[str, ...]:
        page = page.lstrip("/")
        found = self._pages.get(page)
        if found is not None:
            return found
        if not page.lower().endswith((".html", ".htm")) or _NO_SOURCE.search(page):
            return ()
        try:
            data = self._root.read(page, MAX_FINGERPRINT_BYTES)
        except (OSError, RefusedError) as exc:
            logger.debug("cannot read %s for its source: %s", page, exc)
            return ()
        if not data:
            return ()
        best = self.index().best(page_words(data))
        if best is None or self._has_own_page(best):
            return ()
        return (best,)

    def _has_own_page(self, source: str) -> bool:
        """Whether a page the conventions map ``source`` to is in the built site."""
        for page in self._claimed.get(source, ()):
            try:
                if os.path.isfile(self._root.resolve(page)):
                    return True
            except (OSError, RefusedError):
                continue
        return False

    def index(self) -> TextIndex:
        """The candidate sources' text index, built once."""
        with self._lock:  # pages may be asked from several threads: one index
            if self._index is None:
                self._index = TextIndex(self._candidates())
            return self._index

    def _candidates(self) -> Iterator[tuple[str, list[str]]]:
        """Each candidate source and its words, one at a time (the index keeps shingles)."""
        for path, relative in self._tree.under(self._folder):
            if split_extension(relative)[1] in TEXT_SOURCES:
                text = self._tree.text_once(path)
                if text:
                    yield path, source_words(text)


def source_map(repo: RepoView, site_dir: str, site_root: Path) -> SourceMap:
    """The source map of the site built into ``site_dir`` (relative to the repository's
    root) and found on disk at ``site_root``."""
    site_dir = posixpath.normpath(site_dir.strip("/") or ".")
    if site_dir == "." or site_dir.startswith("../"):  # the repository itself, or outside it
        return NoSources()
    tree = Tree(repo, site_dir)
    project = find_project(tree, site_dir, site_root)
    if project is not None and not builds_into(project, tree):
        # A copy, or another build: the config's sources are not this folder's (no convention,
        # and no content match against them either: docs/lastmod.md, "Evidence must be proof").
        logger.debug(
            "site %s is not the output of %s (%s): its pages are not dated by sources",
            site_dir, project.config, project.family,
        )  # fmt: skip
        return NoSources()
    pages = CONVENTIONS[project.family](project, tree) if project is not None else Pages()
    folder = project.folder if project is not None else ""
    return ConventionsThenText(pages, tree, folder, site_root)
