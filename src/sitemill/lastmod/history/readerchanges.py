"""The pages a commit changed for a reader: the whole that history.templateedits's census of a
commit's edits divides by."""
# An edit on most pages of a commit is template (history.probes.template_edits, shared_parts):
# most of the pages whose reading the commit changed, not of the files it wrote. A deploy that
# renamed a stylesheet rewrote every file; a list page whose only change is another page's teaser
# beyond its link and title (decision 2) changed its file and nothing the fingerprint reads. A
# version the walk went past (inside a page's run) reads like the one before it: the commit did
# not change that page for a reader, unless the walk was carried past it (``crossed``: its edit
# was template, which the commit made). A stop, a creation, a deletion and a version the walk has
# not reached are counted: an edit is taken as template on less evidence than it has, never on
# more. Where a commit's stops alone would make an edit template and the count of its pages does
# not, the versions the walk has not reached there are compared with the ones before them
# (``learn_alike``: their remembered fingerprints, else their reductions read) and those that
# read alike leave the count; what is found is remembered under the versions' edit_key, so no
# later run reads them again. A list page given a new entry reads differently: it stays counted.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import edit_key
from sitemill.lastmod.history.probes import MIN_SECTION, shared_parts, template_edits
from sitemill.lastmod.history.stopedits import Edits, Reduce, recalled
from sitemill.lastmod.history.walk import Run, blob_key

# A pair of versions (the page's path, the index of the older one in its chain: a stop's form).
Pair = tuple[str, int]
# What is remembered of a pair compared (under its edit_key of this kind): it reads alike, or not.
_KIND: Final = "alike"
_ALIKE, _UNLIKE = "a" * 32, "b" * 32  # (a state's blob table holds 32 hex digits)
_GROUP: Final = 64  # pairs whose versions are held read at once


@dataclass(slots=True)
class ReaderChanges:
    """What a walk knows of the pages each commit changed for a reader, round after round:
    the stops carried past (``crossed``), the versions not reached found to read alike, the
    commits whose versions not reached were compared (``learned``)."""

    crossed: set[Pair] = field(default_factory=set)
    alike: set[Pair] = field(default_factory=set)
    learned: set[int] = field(default_factory=set)

    def count(
        self,
        named: list[Pair],
        pages: Mapping[str, Run],
        edits: tuple[Edits, Edits],
        remembered: tuple[Mapping[str, str], dict[str, str]],
        reader: tuple[GitBatch, Reduce],
    ) -> tuple[Counter[int], int]:
        """The pages each commit changed for a reader (reader_changes), after comparing the
        versions not reached at the commits ``doubtful`` of this round's ``named`` stops
        (their edits and parts: ``edits``); and the number of blobs read."""
        changed = reader_changes(pages, self.crossed, self.alike)
        doubted = doubtful(named, pages, edits, changed) - self.learned
        if not doubted:
            return changed, 0
        self.learned |= doubted
        read = learn_alike(unreached(pages, doubted), pages, remembered, reader, self.alike)
        return reader_changes(pages, self.crossed, self.alike), read


def reader_changes(pages: Mapping[str, Run], crossed: Set[Pair], alike: Set[Pair]) -> Counter[int]:
    """The number of pages each commit (by its time) changed for a reader (see above): each
    version not inside its page's run unless ``crossed``, and not found to read ``alike``."""
    changed: Counter[int] = Counter()
    for path, run in pages.items():
        for index, version in enumerate(run.chain):
            pair = (path, index + 1)
            if (index + 1 >= run.end or pair in crossed) and pair not in alike:
                changed[version.time] += 1
    return changed


def doubtful(
    named: list[Pair], pages: Mapping[str, Run], edits: tuple[Edits, Edits], changed: Counter[int]
) -> set[int]:
    """The commits where an edit, or a part of one, is made by most of the ``named`` stops
    there (at least MIN_SECTION of them) but not by most of the pages ``changed`` there."""
    names, parts = edits
    by_stops = template_edits(named, pages, names, MIN_SECTION)
    by_pages = template_edits(named, pages, names, MIN_SECTION, changed)
    doubted = {when for when, _ in by_stops - by_pages}
    by_stops_parts = shared_parts(named, pages, parts, (MIN_SECTION, None))
    by_pages_parts = shared_parts(named, pages, parts, (MIN_SECTION, changed))
    return doubted | {when for when, _, _ in by_stops_parts - by_pages_parts}


def unreached(pages: Mapping[str, Run], commits: Set[int]) -> list[Pair]:
    """The versions at ``commits`` that the walk has not reached and that changed an older
    version (not a creation, not a deletion), as pairs."""
    found = []
    for path, run in pages.items():
        chain = run.chain
        for index in range(run.end, len(chain) - 1):
            if chain[index].time in commits and None not in (
                chain[index].blob,
                chain[index + 1].blob,
            ):
                found.append((path, index + 1))
    return found


def learn_alike(
    pairs: list[Pair],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    reader: tuple[GitBatch, Reduce],
    alike: set[Pair],
) -> int:
    """Add to ``alike`` the ``pairs`` whose two versions read alike (remembered, by their
    fingerprints, else by their reductions read: see above); return the number of blobs read."""
    batch, reduce = reader
    wanted: list[tuple[Pair, bytes, bytes, str]] = []
    for path, end in pairs:
        newer, older = pages[path].chain[end - 1].blob, pages[path].chain[end].blob
        if newer is None or older is None:
            continue  # (unreached gives none: a creation or a deletion is counted)
        key = edit_key(path, newer, older, kind=_KIND)
        found = recalled(remembered, key)
        prints = [recalled(remembered, blob_key(path, blob)) for blob in (newer, older)]
        if found is None and None not in prints:
            found = _ALIKE if prints[0] == prints[1] else _UNLIKE
        if found is None:
            wanted.append(((path, end), newer, older, key))
            continue
        remembered[1][key] = found
        if found == _ALIKE:
            alike.add((path, end))
    read = 0
    for start in range(0, len(wanted), _GROUP):
        group = wanted[start : start + _GROUP]
        needed = sorted({blob for _, newer, older, _ in group for blob in (newer, older)})
        data = dict(read_blobs(batch, needed))
        read += len(needed)
        for pair, newer, older, key in group:
            new, old = data.get(newer), data.get(older)
            if new is None or old is None:
                continue  # (git lacks a version: counted, as it was)
            same = reduce(pair[0], new) == reduce(pair[0], old)
            remembered[1][key] = _ALIKE if same else _UNLIKE
            if same:
                alike.add(pair)
    return read
