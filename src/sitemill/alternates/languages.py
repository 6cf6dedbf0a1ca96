"""Language folders: a page's versions across the ``[alternates]`` folders, and its language."""
# The folders of the ``[alternates]`` table (sitemill.config.alternates reads it) serve sites whose
# pages carry no hreflang links. A page's language is what its cluster or its folder tells (site
# chrome is counted per language: sitemill.images.chrome).

from __future__ import annotations

from sitemill.entries import Entry
from sitemill.html.hreflang import X_DEFAULT


def folder_versions(folders: tuple[tuple[str, str], ...], path: str) -> list[tuple[str, str]]:
    """The (hreflang, site path) of each version of the page at ``path`` (itself included),
    or none when it lies in no language folder. Its folder is the longest prefix."""
    for _, prefix in folders:
        if path.startswith(prefix):
            rest = path[len(prefix) :]
            return [(hreflang, other + rest) for hreflang, other in folders]
    return []


def folder_language(folders: tuple[tuple[str, str], ...], path: str) -> str:
    """The hreflang of the language folder the page at ``path`` lies in, "" for none."""
    for hreflang, prefix in folders:
        if hreflang != X_DEFAULT and path.startswith(prefix):
            return hreflang
    return ""


def cluster_language(entry: Entry) -> str:
    """The language the entry's hreflang cluster (once resolved) lists its page under, ""
    when it is in no cluster (or only as x-default)."""
    for hreflang, href in entry.alternates:
        if href == entry.loc and hreflang != X_DEFAULT:
            return hreflang
    return ""
