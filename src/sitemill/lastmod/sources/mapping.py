"""Which source files a built page was rendered from: the interface, and a map that knows none.

A placeholder for the page-to-source mapping (generator conventions, a content match), which
is built apart and replaces this module whole: it keeps ``SourceMap`` and ``source_map``
exactly as they are here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from sitemill.lastmod.sources.repoview import RepoView


class SourceMap(Protocol):
    def sources(self, page: str) -> tuple[str, ...]:
        """Repo-relative POSIX paths of the source file(s) the built page at site-relative
        path `page` (e.g. "guide/install/index.html") was rendered from; () if unknown."""
        ...


class _NoSources:
    """A map that knows no page's source."""

    def sources(self, page: str) -> tuple[str, ...]:
        return ()


def source_map(repo: RepoView, site_dir: str, site_root: Path) -> SourceMap:
    """The source map of the site built in ``site_root`` (``site_dir`` from the repository's
    top, "" when the site is the repository itself); this placeholder knows no source."""
    return _NoSources()
