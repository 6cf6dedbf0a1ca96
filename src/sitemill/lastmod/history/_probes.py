"""Which stops of a git history are worth naming, and which commits made a site-wide edit, read
from a few of their pages first."""
# Site-wide: history.edits.is_site_wide; for lastmod.history._templateedits. Most commits made none,
# and reading every page they changed would cost a first run most of its time again. A stop is
# worth naming where most of its section, or MIN_SECTION pages of the site, stop at its commit.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from sitemill.lastmod.history._editparts import (
    contains,
    part_names,
)
from sitemill.lastmod.history._stopedits import STAMP_EDIT, Edits
from sitemill.lastmod.history.edits import is_site_wide, names_a_kind, reorders, rewords
from sitemill.lastmod.history.sections import MIN_SECTION, WORDED_LEAST
from sitemill.lastmod.history.walk import Run

# Pages of a commit named to learn whether it made a site-wide edit (probes): as many as
# make the smallest section (MIN_SECTION).
PROBE: Final = 4
# Times more pages of a commit are named while its probes' pages all changed their words.
PROBE_MORE: Final = 3


def commit_of(stop: tuple[str, int], pages: Mapping[str, Run]) -> int:
    """The time of the commit a stop (path, the run's end) stops at: the commit's name here."""
    return pages[stop[0]].chain[stop[1] - 1].time


def unclear(
    probed: list[tuple[str, int]],
    rest: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
) -> set[int]:
    """The commits of ``rest`` whose ``probed`` stops hold fewer than PROBE edits that reword
    no text: what they show of a site-wide edit is not yet enough."""
    named = Counter(
        commit_of(stop, pages)
        for stop in probed
        if (edit := edits.get(stop)) is not None and not rewords(edit)
    )
    return {commit_of(stop, pages) for stop in rest} - {
        when for when, n in named.items() if n >= PROBE
    }


def probes(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    commits: set[int] | None = None,
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The stops of ``wanted`` to name first (each one a section's census wants, and the first
    PROBE of each commit's ``commit_only`` stops, by path; of ``commits`` only, when given: the
    next PROBE of those whose first told nothing), and the rest: named only where
    the first found a site-wide edit (a commit that made one shows it on any of its pages; one
    without, most commits, costs PROBE pages, not all of its pages)."""
    first, later = [], []
    probed: Counter[int] = Counter()
    for stop in sorted(wanted):
        if stop in commit_only:
            when = commit_of(stop, pages)
            if commits is not None and when not in commits:
                later.append(stop)
                continue
            probed[when] += 1
            if probed[when] > PROBE:
                later.append(stop)
                continue
        first.append(stop)
    return first, later


def name_steps(
    name: Callable[[list[tuple[str, int]]], int], steps: list[list[tuple[str, int]]]
) -> int:
    """The blobs ``name`` read naming the stops of ``steps`` (disjoint), all in one call; none
    for none (the section and commit censuses name their probes and the rest so)."""
    stops = [stop for step in steps for stop in step]
    return name(stops) if stops else 0


def named_first(
    stops: list[tuple[str, int]], named: Mapping[tuple[str, int], object]
) -> list[tuple[str, int]]:
    """PROBE of ``stops`` to name for a census: those ``named`` already first (another
    census named them: they tell without a read), then the first of the rest."""
    done = [stop for stop in stops if stop in named][:PROBE]
    rest = [stop for stop in stops if stop not in named]
    return done + rest[: PROBE - len(done)]


def template_edits(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
    least: int = 1,
    changed: Mapping[int, int] | tuple[Mapping[int, int], Mapping[int, int]] | None = None,
) -> set[tuple[int, str]]:
    """The (commit, edit) pairs where one edit is the edit of at least ``least`` of ``stops``
    there and of more than half of them, and of the pages the commit changed (``changed``, by
    commit, when given; given with the pages it may have edited too, those less the pages whose
    change reduces to nothing, of the latter where WORDED_LEAST pages made the edit: see
    below), unless it only reordered what the page holds (history.edits.reorders);
    a site-wide one (history.edits.is_site_wide) of more than half of
    those whose edit rewords no text; among probes, a commit worth naming whole; among all of
    a commit's stops, a template edit."""
    # A page whose change at a commit reduces to nothing made no edit there, as a page the
    # commit created made none (sectioncensus.census_of). A few pages are each their own
    # evidence, though: a deploy that re-rendered every file of a docs tree and changed one
    # page's words, copied under six folders, made six pages' edit among thirty files, not a
    # template edit (test_commit_census); an edit of WORDED_LEAST pages or more is weighed
    # against the pages the commit may have edited (a Pelican regenerate that re-spelled the
    # dates of 72 of the 111 pages whose reading it changed, and 45 more in ids alone).
    files, edited = changed if isinstance(changed, tuple) else (changed or {}, changed or {})
    named: Counter[int] = Counter()
    plain: Counter[int] = Counter()
    counts: Counter[tuple[int, str]] = Counter()
    for stop in stops:
        edit = edits.get(stop)
        if edit is not None:
            when = commit_of(stop, pages)
            named[when] += 1
            plain[when] += not rewords(edit)
            counts[when, edit] += 1
    return {
        (when, edit)
        for (when, edit), count in counts.items()
        if count >= least
        and (
            (
                2 * count > max(named[when], _most((count, edit), when, files, edited))
                and not reorders(edit)
            )
            or (is_site_wide(edit) and 2 * count > plain[when])
        )
    }


def _most(
    made: tuple[int, str], when: int, files: Mapping[int, int], edited: Mapping[int, int]
) -> int:
    """The pages an edit (``made``: on how many pages, its name) at commit ``when`` is weighed
    against: those the commit changed (``files``), or, from WORDED_LEAST pages on, for an edit
    named by its kind (edits.names_a_kind: a date re-spelled), those it may have edited. An
    edit of words on fewer than half the pages the commit changed stays each page's own,
    however many of the others changed in nothing a reader sees (a deploy that re-rendered 60
    pages and edited 20 alike: tests/jobs/test_tree_workers.py)."""
    count, edit = made
    return (edited if count >= WORDED_LEAST and names_a_kind(edit) else files).get(when, 0)


def shared_parts(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    parts: Edits,
    counts: tuple[int, Mapping[int, int] | None],
) -> set[tuple[int, int, str]]:
    """The parts (the commit, the part's place, its name: editparts.edit_parts) of at least
    ``counts[0]`` of ``stops`` at their commit and of more than half of the pages it changed
    (``counts[1]``, by commit; None: of the stops named there)."""
    least, changed = counts
    found: Counter[tuple[int, int, str]] = Counter()
    named: Counter[int] = Counter()
    for stop in stops:
        name = parts.get(stop)
        if name is not None and name != STAMP_EDIT:
            when = commit_of(stop, pages)
            named[when] += 1
            found.update((when, *part) for part in part_names(name))
    return {
        part
        for part, count in found.items()
        if count >= least and 2 * count > (named if changed is None else changed)[part[0]]
    }


def contained_edits(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    sketches: Edits,
    counts: tuple[int, Mapping[int, int] | None],
) -> set[tuple[str, int]]:
    """The stops of ``stops`` whose whole edit (its sketch: editparts.edit_sketch) the edits of
    at least ``counts[0]`` of ``stops`` at its commit hold, its own among them, whatever else
    they edited (editparts.contains), and of more than half of the pages the commit changed
    (``counts[1]``, by commit; None: of the stops named there): a release bumped on every
    page, the whole edit of a few and beside their own edit on the others, is template."""
    least, changed = counts
    by_commit: dict[int, Counter[str]] = {}
    for stop in stops:
        sketch = sketches.get(stop)
        if sketch is not None and sketch != STAMP_EDIT:
            by_commit.setdefault(commit_of(stop, pages), Counter())[sketch] += 1
    held: set[tuple[int, str]] = set()
    for when, found in by_commit.items():
        most = sum(found.values()) if changed is None else changed.get(when, 0)
        for inner in found:
            count = sum(n for outer, n in found.items() if contains(outer, inner))
            if count >= least and 2 * count > most:
                held.add((when, inner))
    return {stop for stop in stops if (commit_of(stop, pages), sketches.get(stop)) in held}


def exact_kept(
    chosen: list[tuple[str, int]],
    among: Iterable[tuple[str, int]],
    place: Callable[[tuple[str, int]], tuple[int, str | None]],
    exact: Edits,
) -> list[tuple[str, int]]:
    """The stops of ``chosen`` but those whose exact edit (edits.exact_of) is not the one most
    of the stops of ``among`` at their ``place`` (the commit, the edit) made, where most made
    one, and no other of them made either (exact_shared): a page whose own repair stands
    beside the site-wide move."""
    groups: dict[tuple[int, str | None], Counter[str | None]] = {}
    for stop in among:
        groups.setdefault(place(stop), Counter())[exact.get(stop)] += 1
    return [stop for stop in chosen if exact_shared(exact.get(stop), groups[place(stop)])]


def exact_shared(edit: str | None, made: Counter[str | None]) -> bool:
    """Whether a page's exact edit ``edit`` is no edit of its own among the exact edits
    ``made`` (counted) by the pages that made its edit at its commit, itself among them: it is
    the one most of them made, or none is most's, or another of them made it too. Only a move
    no other page of the commit made is a page's own (issue 79, read97a F2: Racket's links
    re-pointed, five pages moving one function's, two another's, two both; the two that moved
    the second alone made nothing the others did not, and were dated by it)."""
    most, count = made.most_common(1)[0]
    return 2 * count <= sum(made.values()) or edit == most or (edit is not None and made[edit] > 1)


def telling(edit: str | None) -> bool:
    """Whether a stop's edit tells what a commit made on its pages (not a stamp, a reorder)."""
    return edit is not None and edit != STAMP_EDIT and not reorders(edit)


def section_of(path: str) -> str:
    """A page's section: the first folder of its site path ("" for the site's top)."""
    head, slash, _ = path.partition("/")
    return head if slash else ""


def stops_worth_naming(
    pages: Mapping[str, Run],
    sections: Counter[str],
    counts: tuple[Mapping[int, int], frozenset[str]],
) -> tuple[list[tuple[str, int]], set[tuple[str, int]], list[tuple[str, int]]]:
    """The pages whose run stops at an older version with content (not a deletion, not the
    end of the history), where more than half of their section's pages, or at least
    MIN_SECTION pages of the site, stop at one commit, or it changed at least MIN_SECTION
    pages (``counts``' first, by commit: a commit is judged by its pages, not by the stops left
    at it), but for the pages no sitemap lists (``counts``' second: their dates are written
    nowhere, and each such stop would cost a census of its commit's pages, deploy after
    deploy: nostrum's search page and redirect stub, 15 release bumps): the stops (path, the
    run's end) whose edits are worth naming; those of them only the second or third counts (a
    move may be there); and every stop (history.sectioncensus counts the others)."""
    changed, unlisted = counts
    found: list[tuple[str, int]] = []
    per_commit: Counter[tuple[str, int]] = Counter()
    site_wide: Counter[int] = Counter()
    for path, run in pages.items():
        end = run.end
        if end < len(run.chain) and run.chain[end].blob is not None:
            found.append((path, end))
            per_commit[section_of(path), commit_of((path, end), pages)] += 1
            site_wide[commit_of((path, end), pages)] += 1
    stops, commit_only = [], set()
    for path, end in found:
        when, size = commit_of((path, end), pages), sections[section_of(path)]
        if size >= MIN_SECTION and 2 * per_commit[section_of(path), when] > size:
            stops.append((path, end))
        elif max(site_wide[when], 0 if path in unlisted else changed.get(when, 0)) >= MIN_SECTION:
            stops.append((path, end))
            commit_only.add((path, end))
    return stops, commit_only, found
