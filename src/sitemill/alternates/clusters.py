"""hreflang clusters: the pages' declared alternates joined into reciprocal sets of listed URLs."""
# Google reads alternates from a sitemap only when every version lists every other one, itself
# included. Pages often disagree, name pages that do not exist, or give one language twice, so the
# clusters are built, not copied: declarations join the pages the targets confirm (join_confirmed,
# below), each cluster keeps the listed versions (one page per hreflang: the one most pages name),
# and every listed member carries the whole cluster. Whether a URL is listed is known only at the
# end, so the entries wait in a spool (sitemill.bounded.spool) and come back in order.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Final

from sitemill.alternates.declared import AlternateCounts
from sitemill.bounded.dedupe import SeenUrls
from sitemill.bounded.spool import SPOOL_IN_MEMORY, Spool
from sitemill.entries import Alternate, Entry
from sitemill.html.hreflang import X_DEFAULT

# A page of another shard: its listed URL and declarations (sitemill.shards.plan.OtherShards).
Borrow = Callable[[str], "tuple[str, tuple[Alternate, ...]] | None"]
# Versions one entry carries at most (a cluster of more is a template naming every page).
MAX_CLUSTER: Final = 256
_INDEX_NAMES: Final = ("index.html", "index.htm")
_PAGE_SUFFIXES: Final = (".html", ".htm")


class ClusterResolver:
    """Gives entries back with their clusters: ``resolve`` takes entries whose
    ``alternates`` hold what each page declares, as Alternate(hreflang, URL key)."""

    def __init__(
        self,
        own_key: Callable[[str], str],
        counts: AlternateCounts,
        names: Callable[[str], str] | None = None,
        borrowed: Borrow | None = None,
    ) -> None:
        """``names``: the key of the page a declared key names once every page was seen
        (sitemill.listing._aliases: ``/x`` names the folder page ``/x/``); ``borrowed``: the
        listed URL and the declarations of a page that is not in this run (another shard's,
        as the last build left it), or None."""
        self._own_key = own_key
        self._names = names
        self._borrow = borrowed
        self._borrowed: dict[str, str] = {}  # URL key -> the URL another shard lists
        self.counts = counts
        self._listed = SeenUrls()
        # URL key -> what the page declares, in the order the pages came.
        self._declared: dict[str, tuple[Alternate, ...]] = {}

    def resolve(
        self, entries: Iterable[Entry], look: Callable[[Iterator[Entry]], None] | None = None
    ) -> Iterator[Entry]:
        """``entries`` in order, each with its cluster. ``look`` is shown them all, with their
        clusters, before the first is given back (site chrome is counted per language)."""
        spool = Spool(SPOOL_IN_MEMORY)
        for entry in entries:
            self._listed.add(entry.loc)
            if entry.alternates:
                key = self._own_key(entry.loc)
                self._declared[key] = self._declared.get(key, ()) + entry.alternates
            spool.append(entry)
        clusters = self._clusters() if self._declared else {}
        if look is not None:
            look(self._with_clusters(spool.replay(), clusters))
        yield from self._with_clusters(spool.drain(), clusters)

    def _with_clusters(
        self, entries: Iterator[Entry], clusters: dict[str, tuple[Alternate, ...]]
    ) -> Iterator[Entry]:
        own_key = self._own_key
        for entry in entries:
            cluster = clusters.get(own_key(entry.loc), ()) if clusters else ()
            if cluster or entry.alternates:
                entry = entry._replace(alternates=cluster)
            yield entry

    def _clusters(self) -> dict[str, tuple[Alternate, ...]]:
        """Each listed member's key -> its cluster (shared by all its members)."""
        names = self._names
        if names is not None:
            self._declared = {
                key: tuple(dict.fromkeys(Alternate(h, names(target)) for h, target in pairs))
                for key, pairs in self._declared.items()
            }
        if self._borrow is not None:
            self._borrow_targets(self._borrow)
        sets = join_confirmed(self._declared, self.counts)
        # (hreflang, key) -> how many pages of its cluster declare it; first declared first.
        votes: dict[tuple[str, str], int] = {}
        for key, pairs in self._declared.items():
            group = sets.find(key)
            for hreflang, target in pairs:
                if sets.find(target) == group:  # a declaration that was not joined: no say
                    votes[hreflang, target] = votes.get((hreflang, target), 0) + 1
        self._declared.clear()
        grouped: dict[str, list[tuple[str, str, int]]] = {}
        for (hreflang, key), count in votes.items():
            grouped.setdefault(sets.find(key), []).append((hreflang, key, count))
        clusters: dict[str, tuple[Alternate, ...]] = {}
        for versions_named in grouped.values():
            chosen = self._choose(versions_named)
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

    def _borrow_targets(self, borrow: Borrow) -> None:
        """The pages this run's pages name that are not in it: their URLs and declarations
        as another shard has them (so that a cluster spanning shards is confirmed)."""
        for pairs in list(self._declared.values()):
            for _, target in pairs:
                if target in self._declared or target in self._borrowed:
                    continue
                if self._listed_url(target) is not None:
                    continue
                found = borrow(target)
                if found is not None:
                    self._borrowed[target] = found[0]
                    if found[1]:
                        self._declared[target] = found[1]

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
        return self._borrowed.get(key)


# Which declared alternates join pages into one hreflang cluster: those the targets confirm.
# Google uses an hreflang annotation only when the page it names links back. sitemill builds
# clusters rather than copying them, but a page must not be able to merge two clusters that stand on
# return links, nor to add itself to the alternates of pages that do not name it. So:
#
# 1. Two pages that name each other are one cluster (and each page is in its own).
# 2. A page that declares nothing (its template forgot the links) joins the cluster whose pages name
#    it; named by two clusters, the one with more pages naming it, and none on a tie.
# 3. Any other declaration, of a page that declares alternates but not this one, joins nothing:
#    counted (``unconfirmed``), with an example, for one warning.
class UnionFind:
    """Disjoint sets of URL keys; the smallest key of a set is its root (deterministic)."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        parent = self._parent
        root = key
        while (up := parent.get(root, root)) != root:
            root = up
        while key != root:  # path compression
            parent[key], key = root, parent[key]
        return root

    def union(self, a: str, b: str) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            low, high = sorted((root_a, root_b))
            self._parent[high] = low
            self._parent.setdefault(low, low)


def join_confirmed(
    declared: Mapping[str, tuple[Alternate, ...]], counts: AlternateCounts
) -> UnionFind:
    """The pages' clusters from what each page (by URL key) declares (hreflang, URL key)."""
    named = {key: {target for _, target in pairs} for key, pairs in declared.items()}
    sets = UnionFind()
    for key in sorted(named):
        for target in sorted(named[key]):
            if target == key or key in named.get(target, ()):
                sets.union(key, target)
            elif target in named:
                counts.count("unconfirmed", f"{key} names {target}, which does not name it")
    _join_silent(named, sets, counts)
    return sets


def _join_silent(named: Mapping[str, set[str]], sets: UnionFind, counts: AlternateCounts) -> None:
    """Each page that declares nothing joins the cluster that names it most."""
    claims: dict[str, Counter[str]] = {}
    for key in sorted(named):
        group = sets.find(key)
        for target in named[key]:
            if target not in named:
                claims.setdefault(target, Counter())[group] += 1
    for target, groups in sorted(claims.items()):
        ranked = sorted(groups.items(), key=lambda item: (-item[1], item[0]))[:2]
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            sets.union(target, ranked[0][0])
        else:
            counts.count("unconfirmed", f"{target} is named alike by two clusters")
