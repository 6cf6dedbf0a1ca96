"""The sitemaps a replaced index names: the generator's own, which go with it, and the user's."""
# A named sitemap is the generator's own only by the name the generator gives its own
# (sitemill.writing._generators: Hugo's ``en/sitemap.xml``, Astro's ``sitemap-0.xml``), on the base
# URL's scheme, host and port, below its folder. Any other sitemap the index names is the user's
# (Astro's customSitemaps, a hand-written index's children, those of an index whose writer cannot
# be told, anything elsewhere) and stays byte for byte; sitemill.writing.takeover names it.

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import Enum
from typing import Final
from urllib.parse import SplitResult, urlsplit

from sitemill.messages import printable
from sitemill.writing._generators import Generator
from sitemill.writing.sitemapfile import HEAD_BYTES, index_locs

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


class KeptBecause(Enum):
    """Why a sitemap the replaced index names stays (said after its name)."""

    NOT_ITS_OWN = "not {owner} own"  # a name the generator does not give its own sitemaps
    UNKNOWN_WRITER = "not known to be the index writer's"  # whose index it was cannot be told
    ELSEWHERE = "on another host or outside the folder"  # not in this site's folder at all


@dataclass(frozen=True, slots=True)
class KeptSitemap:
    """A sitemap the replaced index names that is the user's, so it stays (a later writer may
    name it in sitemill's index)."""

    loc: str  # as the index names it
    name: str | None  # folder-relative; None when it is elsewhere (ELSEWHERE)
    why: KeptBecause

    @property
    def shown(self) -> str:
        """Its name, or its URL when it is elsewhere, escaped for a message."""
        return printable(self.loc if self.name is None else self.name)


@dataclass(frozen=True, slots=True)
class NamedSitemaps:
    """What the sitemaps an index names are: the generator's own and the user's."""

    own: list[str] = field(default_factory=list)  # folder-relative, to go with the index
    users: list[KeptSitemap] = field(default_factory=list)  # to stay


def sort_named(
    index: bytes,
    generator: Generator | None,
    read: Callable[[str, int], bytes | None],
    base_url: str,
    *,
    passed: Collection[str] = (),
) -> NamedSitemaps:
    """The sitemaps ``index`` names, each read once (its head, through ``read``) when it is in
    the base URL's folder; none elsewhere. A name in ``passed`` (this run's outputs, a twin
    already going) and a file that is no sitemap (a page, a feed, none) are neither."""
    base = urlsplit(base_url)
    sorted_ = NamedSitemaps()
    seen = set(passed)
    for loc in index_locs(index):
        place = urlsplit(loc)
        above = not place.path.startswith(base.path) or "/../" in f"/{place.path}/"
        if above or not _same_origin(place, base):
            sorted_.users.append(KeptSitemap(loc, None, KeptBecause.ELSEWHERE))
            continue
        name = relative_name(place.path, base.path)
        if name is None or name in seen:
            continue
        seen.add(name)
        from sitemill.writing.ownbytes import may_delete  # (a page's event deletes nothing)

        if not may_delete(name, read(name, HEAD_BYTES), replaced=True):
            continue  # (no sitemap: neither the generator's to delete, writing.ownbytes, nor yours)
        if generator is not None and generator.writes_child(name):
            sorted_.own.append(name)
        else:
            why = KeptBecause.UNKNOWN_WRITER if generator is None else KeptBecause.NOT_ITS_OWN
            sorted_.users.append(KeptSitemap(loc, name, why))
    return sorted_


def names_its_own(generator: Generator, index: bytes) -> bool:
    """Whether the index names a sitemap by a name the generator gives its own beside its
    index (@astrojs/sitemap always writes one: ``sitemap-0.xml``)."""
    return any(
        generator.writes_child(urlsplit(loc).path.rpartition("/")[2]) for loc in index_locs(index)
    )


def index_children(index: bytes, base_url: str) -> list[str]:
    """The folder-relative names of the files the index names below the base URL's path, on
    any host (sitemill.writing.replaced reads their dates)."""
    base = urlsplit(base_url).path
    found = []
    for loc in index_locs(index):
        name = relative_name(urlsplit(loc).path, base)
        if name is not None:
            found.append(name)
    return found


def relative_name(path: str, base: str) -> str | None:
    """``path``'s name below the folder ``base`` (both URL paths); None when it is not a file
    there (above it, a folder, a ``..``)."""
    if not path.startswith(base):
        return None
    name = path[len(base) :]
    parts = name.split("/")
    if not name or name.endswith("/") or any(part in ("", ".", "..") for part in parts):
        return None
    return name


def _same_origin(place: SplitResult, base: SplitResult) -> bool:
    """Whether a loc is on the base URL's scheme, host and port (one with no host is: Hugo's
    ``/en/sitemap.xml``)."""
    if not place.netloc:
        return not place.scheme
    try:
        return _origin(place) == _origin(base)
    except ValueError:  # a port that is no number
        return False


def _origin(url: SplitResult) -> tuple[str, str | None, int | None]:
    scheme = url.scheme.lower()
    return scheme, url.hostname, url.port or _DEFAULT_PORTS.get(scheme)
