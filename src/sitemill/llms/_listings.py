"""Listing pages: the pages of a site that list its other pages, left out of llms.txt (issue 82)."""
# A blog's tag, category, archive, search and paginated list pages are lists of links llms.txt
# holds already: left out unless ``llms_listings`` is set. A page is a listing by the marks the
# generators give its URL, none of one theme: a taxonomy, archive or search folder or stem
# (LISTING_FOLDERS), pagination (``/page/2/``, ``page2``, ``page-2``), or the first page of a
# paginated list. The home page is never one; when every page would be one, none is left out.

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final
from urllib.parse import unquote

from sitemill.llms._paths import is_home, path_below
from sitemill.llms.page import LlmsPage

LISTING_FOLDERS: Final = frozenset(
    {"tags", "tag", "categories", "category", "series", "archives", "archive", "search"}
)
_NUMBER: Final = re.compile(r"[0-9]+")
_PAGED_FOLDER: Final = re.compile(r"page-?[0-9]+")
# "posts/page/2/" -> "posts/": the folder a paginated page pages.
_PAGINATED: Final = re.compile(r"^(.*?)page/[0-9]+/?(?:index\.html?)?$")
_INDEX: Final = re.compile(r"index\.html?")
_STEM: Final = re.compile(r"\.[A-Za-z0-9]+$")


def without_listings(pages: Sequence[LlmsPage], base_url: str) -> tuple[list[LlmsPage], int]:
    """``pages`` less the listing pages (see above), and how many were left out; all of them
    (and 0) when every page is one."""
    paths = [unquote(path_below(page.url, base_url)) for page in pages]
    paged = {found[1] for path in paths if (found := _PAGINATED.match(path))}
    kept = [
        page
        for page, path in zip(pages, paths, strict=True)
        if is_home(page.url, base_url) or not is_listing(path, paged)
    ]
    if not kept:
        return list(pages), 0
    return kept, len(pages) - len(kept)


def _folder_page(path: str) -> str:
    """The folder ``path`` is the page of ("posts/" for "posts/", "posts/index.html" and the
    clean URL "posts"; "posts/a.html/" for a page that is no folder's)."""
    if path.endswith("/"):
        return path
    head, _, last = path.rpartition("/")
    if _INDEX.fullmatch(last):
        return head + "/" if head else ""
    return path + "/"


def is_listing(path: str, paged: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether the page at ``path`` (below the site's root, unquoted, "" for the root) is a
    listing by its URL's marks (see above); ``paged``: the folders a listed page paginates."""
    if path and _folder_page(path) in paged:
        return True
    segments = [segment for segment in path.split("/") if segment]
    if segments and not path.endswith("/"):
        segments[-1] = _STEM.sub("", segments[-1])
    for index, segment in enumerate(segments):
        name = segment.lower()
        if name in LISTING_FOLDERS or _PAGED_FOLDER.fullmatch(name):
            return True
        after = segments[index + 1] if index + 1 < len(segments) else ""
        if name == "page" and _NUMBER.fullmatch(after):
            return True
    return False
