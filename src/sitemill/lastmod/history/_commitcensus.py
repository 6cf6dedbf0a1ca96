"""A commit's edit counted over every page it changed, not only the pages whose walk stops there."""
# history.templateedits judges a commit's edits among its stops. A page whose own later edit
# stopped its walk sooner made the commit's edit all the same (a release bumped on 532 pages, 118
# of them stopping there), and a move counted among the stops alone may be on few of the commit's
# pages (18 chapters' own figures re-encoded, in a deploy that re-rendered 58). So the commit's
# other pages are named (as stops are, and remembered: a first run reads the versions around one
# commit for them once) and counted beside its stops, never carried: PROBE of them, spread over
# them (pages named already for other reasons would tell of those reasons: yarp's API pages
# named as stops elsewhere hid a deploy's anchor move on 16 of 17), and all of them where those show
# what a stop made, or for a site-wide edit taken from the stops alone. A commit is judged by the
# pages it changed, not by the stops left at it in the round that reaches it (dating rules 12):
# one where fewer than MIN_SECTION pages stop is counted so where it changed at least
# MIN_SECTION and one of its stops made a site-wide edit (edits.is_site_wide: what the whole site
# carries, its addresses and its name in the titles and descriptions, is judged across the whole
# commit; _worth_a_census). Not for other edits: a page's own words and links are most such
# stops, each would cost PROBE pages, and an author who mends one typo in a sentence copied onto
# five posts (rust-osdev's "structires", issue 79) made five pages' own edit, which no count of a
# few pages tells from a theme's.

from __future__ import annotations

from collections.abc import Callable, Mapping

from sitemill.lastmod.history._editparts import contains, part_names
from sitemill.lastmod.history._probes import PROBE, commit_of, name_steps, telling
from sitemill.lastmod.history._stopedits import Edits, StopEdits
from sitemill.lastmod.history._tokencensus import tokens_of
from sitemill.lastmod.history.edits import is_site_wide
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.walk import Run


def commit_census(
    named: list[tuple[str, int]],
    chosen: list[tuple[str, int]],
    pages: Mapping[str, Run],
    commits: dict[int, list[tuple[str, int]]],
    name: Callable[[list[tuple[str, int]]], int],
    tables: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """The other pages of the commits of ``named`` that need them (see above), named, to be
    counted beside the stops; and the blobs read. A commit needs them where it changed at
    least MIN_SECTION pages, other pages beside the stops of ``named`` there (fewer than
    MIN_SECTION of them only where _worth_a_census), and one of those stops is not template
    by the stops alone (not in ``chosen``) or is by a site-wide edit made on no more of its
    pages than the stops (a move counted among pages that all made it). PROBE of its other
    pages are named (_spread_out); all of them where those show what a stop there made
    (_shows), or where a site-wide edit was taken from the stops alone."""
    edits = tables[0]
    taken = set(chosen)
    at: dict[int, list[tuple[str, int]]] = {}
    for stop in named:
        at.setdefault(commit_of(stop, pages), []).append(stop)
    wanted: dict[int, tuple[list[tuple[str, int]], list[tuple[str, int]], bool]] = {}
    for when, stops in sorted(at.items()):
        here = set(stops)
        rest = [stop for stop in commits.get(when, ()) if stop not in here]
        if len(stops) + len(rest) < MIN_SECTION or not rest:
            continue
        if len(stops) < MIN_SECTION and not _worth_a_census(stops, taken, edits):
            continue
        loose = any(stop in taken and is_site_wide(edits[stop] or "") for stop in stops)
        if loose or not here <= taken:
            wanted[when] = (stops, rest, loose)
    probed = {when: _spread_out(rest) for when, (_, rest, _) in wanted.items()}
    read = name_steps(name, list(probed.values()))
    full = [
        when
        for when, (stops, _, loose) in wanted.items()
        if loose or _shows(stops, probed[when], tables)
    ]
    read += name_steps(name, [wanted[when][1] for when in full])
    return [stop for when in full for stop in wanted[when][1]], read


def _worth_a_census(
    stops: list[tuple[str, int]], taken: set[tuple[str, int]], edits: Edits
) -> bool:
    """Whether a commit where fewer than MIN_SECTION pages stop needs its other pages counted:
    one of its ``stops`` not ``taken`` made a site-wide edit (see above)."""
    made = {edits.get(stop) for stop in stops if stop not in taken}
    return any(telling(edit) and is_site_wide(edit or "") for edit in made)


def _spread_out(stops: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """PROBE of ``stops`` (sorted by path) spread evenly over them: the pages a commit changed
    in one folder are often alike (a folder of guides whose reading it did not change beside
    posts it did), and the first few of them would tell of that folder alone."""
    if len(stops) <= PROBE:
        return stops
    return [stops[at * len(stops) // PROBE] for at in range(PROBE)]


def _shows(stops: list[tuple[str, int]], probed: list[tuple[str, int]], tables: StopEdits) -> bool:
    """Whether at least half of the ``probed`` pages made what one of ``stops`` made: its
    edit, one of its parts (editparts.part_names), an edit one of theirs holds or that holds
    one of theirs (editparts.contains), or every token one of theirs moved (tokencensus), of
    those whose edit tells (probes.telling: a page whose reading the commit did not change,
    or changed only in its stamps, tells nothing)."""
    edits, _, parts, sketches, tokens = tables
    made = {edit for stop in stops if telling(edit := edits.get(stop))}
    shared = {part for stop in stops if edits.get(stop) in made for part in _parts(stop, parts)}
    inner = {sketches.get(stop) or "" for stop in stops if edits.get(stop) in made}
    small = {
        found for stop in stops if edits.get(stop) in made and (found := tokens_of(stop, tokens))
    }

    def alike(probe: tuple[str, int]) -> bool:
        edit, sketch = edits.get(probe), sketches.get(probe) or ""
        if (
            edit in made
            or any(part in shared for part in _parts(probe, parts))
            or any(contains(sketch, held) or contains(held, sketch) for held in inner)
        ):
            return True
        mine = tokens_of(probe, tokens) if small else frozenset()  # (parsed once a probe)
        return any(held <= mine for held in small)

    told = [probe for probe in probed if telling(edits.get(probe))]
    return 2 * sum(alike(probe) for probe in told) >= len(told) > 0


def _parts(stop: tuple[str, int], parts: Edits) -> list[tuple[int, str]]:
    return part_names(parts.get(stop) or "")
