"""The links of the HTML sitemap, taken from the entries as they stream to the sitemaps."""
# Entries come in the source's order, one at a time; the page shows them grouped by language and
# folder, sorted. A page of a million links helps no reader and no browser, so it shows at most
# MAX_HTML_LINKS: the least deep ones (the top of the site, the sections a reader starts from), then
# in path order. Memory stays bounded whatever the number of entries: the links kept are cut back to
# the limit each time half as many again have come in (a sort of what is held: O(n log k) in all),
# and only the fields the page shows are kept.

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Final, NamedTuple
from urllib.parse import unquote, urlsplit

from sitemill.entries import Entry, own_hreflang

# As many links as one XML sitemap may hold (sitemaps.org): more are no help to a reader.
MAX_HTML_LINKS: Final = 50_000
_NO_LANGUAGE: Final = (1, "", "")  # pages of no language sort after every language
_ORDER: Final = itemgetter(0, 1, 2, 3, 4)  # loc is unique: nothing after it is compared


class Link(NamedTuple):
    """One listed page, as the HTML sitemap shows it. Tuples sort in the order pages are
    kept when there are too many: least deep first, then by language and path."""

    depth: int  # slashes in its folder's path below the site root's
    language: tuple[int, str, str]  # (0, folded, hreflang), or _NO_LANGUAGE
    folder: str  # the URL path up to its last "/" (``/docs/`` heads the folder ``/docs/``)
    path: str  # the URL path and query, decoded for reading (bad bytes as U+FFFD)
    loc: str  # the absolute, percent-encoded URL (unique in a run)
    title: str | None
    lastmod: str | None
    kind: int = 0  # its named group's number (sitemill.writing.groupkind), 0 for none

    @property
    def hreflang(self) -> str | None:
        return self.language[2] or None


@dataclass
class LinkCollector:
    """Collects the links of the HTML sitemap from a stream of entries, within ``limit``."""

    base_url: str
    limit: int = MAX_HTML_LINKS
    kind_of: Callable[[Entry], int] | None = None  # with named groups: each entry's
    total: int = 0  # entries seen
    _links: list[Link] = field(default_factory=list)
    _root_depth: int = -1

    def __post_init__(self) -> None:
        self._root_depth = urlsplit(self.base_url).path.count("/")

    def watch(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """The entries, unchanged, each one collected as it goes by."""
        for entry in entries:
            self.add(entry)
            yield entry

    def add(self, entry: Entry) -> None:
        self.total += 1
        parts = urlsplit(entry.loc)
        path = unquote(parts.path, errors="replace") or "/"
        folder = path[: path.rfind("/") + 1]
        if parts.query:  # a URL list's
            path += "?" + unquote(parts.query, errors="replace")
        depth = folder.count("/") - self._root_depth
        kind = 0 if self.kind_of is None else self.kind_of(entry)
        link = Link(
            depth, _language(entry), folder, path, entry.loc, entry.title, entry.lastmod, kind
        )
        self._links.append(link)
        if len(self._links) >= self.limit + self.limit // 2 + 1:
            self._cut()

    def _cut(self) -> None:
        self._links.sort(key=_ORDER)
        del self._links[self.limit :]

    def links(self) -> list[Link]:
        """The links kept (at most ``limit``), in the order they are kept by."""
        self._cut()
        return list(self._links)

    @property
    def omitted(self) -> int:
        """How many entries the page leaves out (over the limit)."""
        return max(0, self.total - self.limit)


def _language(entry: Entry) -> tuple[int, str, str]:
    """The page's own language, as its hreflang cluster names it (not x-default)."""
    hreflang = own_hreflang(entry)
    return (0, hreflang.casefold(), hreflang) if hreflang else _NO_LANGUAGE
