"""hreflang clusters: the pages' declared alternates joined into reciprocal sets of listed URLs.

Google reads alternates from a sitemap only when every version lists every other one, itself
included. Pages often disagree (a translation added later names the others, the older pages
do not name it), name pages that do not exist, or give one language twice. So the clusters
are built, not copied: declarations join the pages they connect (union-find over URL keys),
each cluster keeps the versions this sitemap lists (one page per hreflang: the one most
pages name), and every listed member carries the whole cluster. Whether a URL is listed is
known only at the end, so the entries wait in a spool (in memory, then on disk past
``SPOOL_IN_MEMORY``) and are given back, in order, once the clusters are known.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Final

from sitemill.alternates import X_DEFAULT, AlternateCounts
from sitemill.dedupe import SeenUrls
from sitemill.entries import Alternate, Entry

# Entries held in memory before the spool moves to a temporary file (about 300 bytes each).
SPOOL_IN_MEMORY: Final = 50_000
# Versions one entry carries at most (a cluster of more is a template naming every page).
MAX_CLUSTER: Final = 256
_CHUNK: Final = 4_096  # entries per pickled chunk on disk
_INDEX_NAMES: Final = ("index.html", "index.htm")
_PAGE_SUFFIXES: Final = (".html", ".htm")


class _Spool:
    """Entries in order: a list, then chunks pickled to a temporary file."""

    def __init__(self) -> None:
        self._memory: list[Entry] = []
        self._file: IO[bytes] | None = None

    def append(self, entry: Entry) -> None:
        self._memory.append(entry)
        if len(self._memory) >= SPOOL_IN_MEMORY:
            self._spill()

    def _spill(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="sitemill-spool-")  # noqa: SIM115
        for start in range(0, len(self._memory), _CHUNK):
            pickle.dump(self._memory[start : start + _CHUNK], self._file, pickle.HIGHEST_PROTOCOL)
        self._memory = []

    def drain(self) -> Iterator[Entry]:
        """Every entry once, in order; the spool is empty after."""
        file, self._file = self._file, None
        if file is not None:
            with file:
                file.seek(0)
                while True:
                    try:
                        chunk: list[Entry] = pickle.load(file)  # noqa: S301 (our own file)
                    except EOFError:
                        break
                    yield from chunk
        memory, self._memory = self._memory, []
        yield from memory


class ClusterResolver:
    """Gives entries back with their clusters: ``resolve`` takes entries whose
    ``alternates`` hold what each page declares, as Alternate(hreflang, URL key)."""

    def __init__(self, own_key: Callable[[str], str], counts: AlternateCounts) -> None:
        self._own_key = own_key
        self.counts = counts
        self._listed = SeenUrls()
        self._parent: dict[str, str] = {}
        # (hreflang, key) -> how many pages declare it; first declared first.
        self._votes: dict[tuple[str, str], int] = {}

    def resolve(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        spool = _Spool()
        for entry in entries:
            self._listed.add(entry.loc)
            if entry.alternates:
                self._declare(self._own_key(entry.loc), entry.alternates)
            spool.append(entry)
        clusters = self._clusters() if self._votes else {}
        own_key = self._own_key
        for entry in spool.drain():
            cluster = clusters.get(own_key(entry.loc), ()) if clusters else ()
            if cluster or entry.alternates:
                entry = entry._replace(alternates=cluster)
            yield entry

    def _declare(self, key: str, pairs: tuple[Alternate, ...]) -> None:
        votes = self._votes
        for hreflang, target in pairs:
            self._union(key, target)
            votes[hreflang, target] = votes.get((hreflang, target), 0) + 1

    def _find(self, key: str) -> str:
        parent = self._parent
        root = key
        while (up := parent.get(root, root)) != root:
            root = up
        while key != root:  # path compression
            parent[key], key = root, parent[key]
        return root

    def _union(self, a: str, b: str) -> None:
        root_a, root_b = self._find(a), self._find(b)
        if root_a != root_b:
            # The smaller key becomes the root: deterministic, whatever the order.
            low, high = sorted((root_a, root_b))
            self._parent[high] = low
            self._parent.setdefault(low, low)

    def _clusters(self) -> dict[str, tuple[Alternate, ...]]:
        """Each listed member's key -> its cluster (shared by all its members)."""
        grouped: dict[str, list[tuple[str, str, int]]] = {}
        for (hreflang, key), votes in self._votes.items():
            grouped.setdefault(self._find(key), []).append((hreflang, key, votes))
        self._votes.clear()
        self._parent.clear()
        clusters: dict[str, tuple[Alternate, ...]] = {}
        for pairs in grouped.values():
            chosen = self._choose(pairs)
            if len({loc for _, loc in chosen.values()}) < 2:
                continue  # one page alone is no cluster
            versions = sorted(chosen.items(), key=lambda item: (item[0] == X_DEFAULT, item[0]))
            if len(versions) > MAX_CLUSTER:
                self.counts.count("too_many", f"{len(versions)} versions of {versions[0][1][1]}")
                versions = versions[:MAX_CLUSTER]
            cluster = tuple(Alternate(hreflang, loc) for hreflang, (_, loc) in versions)
            for _, (key, _) in versions:
                clusters[key] = cluster
        return clusters

    def _choose(self, pairs: list[tuple[str, str, int]]) -> dict[str, tuple[str, str]]:
        """hreflang -> (key, listed URL): listed versions only, one per hreflang."""
        chosen: dict[str, tuple[str, str, int]] = {}
        for hreflang, key, votes in pairs:
            loc = self._listed_url(key)
            if loc is None:
                self.counts.count("unlisted", f"{key} (hreflang {hreflang})")
                continue
            best = chosen.get(hreflang)
            if best is None:
                chosen[hreflang] = (key, loc, votes)
            elif best[0] != key:
                self.counts.count("conflict", f"hreflang {hreflang} names {best[1]} and {loc}")
                if votes > best[2]:
                    chosen[hreflang] = (key, loc, votes)
        return {hreflang: (key, loc) for hreflang, (key, loc, _) in chosen.items()}

    def _listed_url(self, key: str) -> str | None:
        """The URL this sitemap lists for the page with ``key``, or None: sitemill writes a
        page's URL as its key, or with the ``index.html`` or ``.html`` its key leaves out."""
        listed = self._listed
        if key in listed:
            return key
        suffixes = _INDEX_NAMES if key.endswith("/") else _PAGE_SUFFIXES
        for suffix in suffixes:
            if key + suffix in listed:
                return key + suffix
        return None
