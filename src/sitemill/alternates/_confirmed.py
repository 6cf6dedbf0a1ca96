"""Which declared alternates join pages into one hreflang cluster: those the targets confirm."""
# Google uses an hreflang annotation only when the page it names links back. sitemill builds
# clusters rather than copying them, but a page must not be able to merge two clusters that stand on
# return links, nor to add itself to the alternates of pages that do not name it. So:
#
# 1. Two pages that name each other are one cluster (and each page is in its own).
# 2. A page that declares nothing (its template forgot the links) joins the cluster whose pages name
#    it; named by two clusters, the one with more pages naming it, and none on a tie.
# 3. Any other declaration, of a page that declares alternates but not this one, joins nothing:
#    counted (``unconfirmed``), with an example, for one warning.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from sitemill.alternates.declared import AlternateCounts
from sitemill.entries import Alternate


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
