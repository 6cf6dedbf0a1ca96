"""Language folders: the versions of a page in the folders of the ``[alternates]`` table
(sitemill.config.alternates reads it), for sites whose pages carry no hreflang links."""

from __future__ import annotations


def folder_versions(folders: tuple[tuple[str, str], ...], path: str) -> list[tuple[str, str]]:
    """The (hreflang, site path) of each version of the page at ``path`` (itself included),
    or none when it lies in no language folder. Its folder is the longest prefix."""
    for _, prefix in folders:
        if path.startswith(prefix):
            rest = path[len(prefix) :]
            return [(hreflang, other + rest) for hreflang, other in folders]
    return []
