"""A commit's edit counted over every page of a section it changed, not only its stops there."""
# history.templateedits counts an edit among the pages whose walk stops at its commit. A page whose
# own later edit stopped its walk sooner made that commit's edit all the same: one commit renamed a
# tag on the posts of a section ("42seoul" made "42Seoul"), another put a tag page's label beside
# its name on one line ("cache Tag" made "cacheTag") on most tag pages, and the few pages no later
# edit had stopped were dated by it, their census too small. Here a stop that no census made
# template, at a commit that changed more than half of its section's pages (at least MIN_SECTION),
# whose edit rewords no text (history.edits.rewords: a letter case, a respacing, targets, a title,
# a description) or is a stamp, is counted with the edits that commit made on the section's other
# pages: their versions before and after it, named as stops are (and remembered). The edit is
# template when more than half of the section's pages made it there, as a census of stops decides;
# the section's pages are those of today's that stood at that commit (a tag page made since is
# none of that commit's).
# A redirect stub (a page whose head sends the reader on: Hugo's ``tags/x/page/1/`` beside every
# paginated list) shows nothing and is listed nowhere: no page of its section, counted in no
# census, neither among a section's pages nor among those a commit changed (issue 79: Congo's 42
# tag pages beside their 42 stubs, each page recased by a theme upgrade, made no majority of 85);
# its own stops are judged by the others' counts (census_of).
# A stop whose edit rewords the text is counted so too (dating rules 9, issue 79), and is template
# where at least WORDED_LEAST pages of the section made it, more than half of it: a theme's new
# line on a talk's header ("Mode: In-Person" on 57 of a section's 88 talks, in a deploy that
# re-rendered 181 pages, 94 of them with nothing a reader sees changed) or a link dropped from an
# author sidebar on 30 of 31 posts is the template's, as an edit of most of a commit's pages is;
# four guides of a section of four given one identical note (Python-Markdown's) are as likely an
# author's copy: a few pages are each their own evidence. A rewording stop is counted so only
# where two of the first PROBE stops at its place made its edit, and never in a smaller section:
# a page's own words are most stops, and naming every commit's
# other pages for them would cost a first run most of its time again. The stops at one commit are
# named a few at a time (the first PROBE tell: a commit where hundreds of pages were edited each
# in its own words costs four of them, not all); and the section's other pages are named only
# where PROBE of them (those named already first, then the first) show the edit (a deploy that
# re-rendered a section of a thousand pages costs four of them for a page's own new link).

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from sitemill.lastmod.history._probes import PROBE, exact_shared, name_steps, named_first
from sitemill.lastmod.history._stopedits import STAMP_EDIT, Edits
from sitemill.lastmod.history.edits import reorders, rewords
from sitemill.lastmod.history.sections import WORDED_LEAST
from sitemill.lastmod.history.walk import Run

# The pages of a section a commit changed, as stops (path, the end a run stopping there has),
# by (section, the commit's time).
Changes = dict[tuple[str, int], list[tuple[str, int]]]
# The paths of each section, section_changes, section_of, MIN_SECTION (census_templates).
Census = tuple[Mapping[str, list[str]], Changes, Callable[[str], str], int]


def section_changes(pages: Mapping[str, Run], section_of: Callable[[str], str]) -> Changes:
    """Every page's versions that changed an earlier version (not a creation, not a deletion),
    as stops, by section and commit."""
    changes: Changes = {}
    for path, run in pages.items():
        chain = run.chain
        for index in range(len(chain) - 1):
            if chain[index].blob is not None and chain[index + 1].blob is not None:
                key = (section_of(path), chain[index].time)
                changes.setdefault(key, []).append((path, index + 1))
    return changes


def census_of(
    pages: Mapping[str, Run], stubs: frozenset[str], section_of: Callable[[str], str], least: int
) -> tuple[Counter[str], tuple[Counter[int], Counter[int]], Census]:
    """The pages of each section; the pages each commit changed (by its time: a version that
    changed an earlier one, not a deletion nor a creation, as section_changes), and of those
    the pages it may have edited (less those whose change reduces to nothing: see below); and
    the census census_templates takes (least: MIN_SECTION), of ``pages`` less the redirect
    ``stubs``."""
    counted = {path: run for path, run in pages.items() if path not in stubs}
    members: dict[str, list[str]] = {}
    for path in counted:
        members.setdefault(section_of(path), []).append(path)
    sections = Counter({section: len(paths) for section, paths in members.items()})
    changes = section_changes(counted, section_of)
    # (the pages a commit edited: not those it deleted or added, which made no edit)
    changed = Counter(when for (_, when), stops in changes.items() for _ in stops)
    # A change that reduces to nothing is no edit either, as a creation is none: the pages
    # whose walk went past the commit (both versions have the current fingerprint) made none
    # there, and an edit of WORDED_LEAST pages or more is counted against the pages that may
    # have made one (probes.template_edits; issue 79: a Pelican regenerate re-spelled the date
    # on 72 of the 111 pages whose reading it changed and changed 45 more in ids and spans
    # alone, which no reader sees; a few pages are each their own evidence).
    edited = Counter(
        when
        for (_, when), stops in changes.items()
        for path, end in stops
        if end >= pages[path].end
    )
    return sections, (changed, edited), (members, changes, section_of, least)


def census_templates(
    found: Iterable[tuple[str, int]],
    pages: Mapping[str, Run],
    census: Census,
    name: Callable[[list[tuple[str, int]]], int],
    edits: tuple[Edits, Edits],
) -> tuple[list[tuple[str, int]], int]:
    """The stops of ``found`` (not judged template) whose edit is template by the census of
    the pages of their section their commit changed (see above), and the blobs read.
    ``census``: the paths of each section, section_changes, section_of, MIN_SECTION; ``name``
    names stops' edits into ``edits`` (names, exact names), each step's stops of every place
    at once (a pool's workers name several places' together: stopnames.spread_names)."""
    members, changes, section_of, least = census
    names, exact = edits
    wanted: dict[tuple[str, int], list[tuple[str, int]]] = {}
    stood: dict[tuple[str, int], int] = {}
    for path, end in found:
        place = (section_of(path), pages[path].chain[end - 1].time)
        if place not in stood:  # (counted up to what could make the place wanted)
            bound = 2 * len(changes.get(place, ()))
            stood[place] = _stood(pages, members.get(place[0], ()), place[1], bound)
        if stood[place] >= least and 2 * len(changes.get(place, ())) > stood[place]:
            wanted.setdefault(place, []).append((path, end))
    places = sorted(wanted)
    for place in places:
        wanted[place].sort()
    read = name_steps(name, [wanted[place][:PROBE] for place in places])
    worded = {p: _worded(wanted[p][:PROBE], names) for p in places if stood[p] >= WORDED_LEAST}
    # (its first stops are pages' own words: so are the rest, or few)
    places = [
        p
        for p in places
        if any(_countable(names.get(s), worded.get(p, set())) for s in wanted[p][:PROBE])
    ]
    read += name_steps(name, [wanted[place][PROBE:] for place in places])
    counted = {
        p: [s for s in wanted[p] if _countable(names.get(s), worded.get(p, set()))] for p in places
    }
    others = {p: [s for s in changes[p] if s not in wanted[p]] for p in places if counted[p]}
    probed = {p: named_first(others[p], names) for p in others}
    read += name_steps(name, list(probed.values()))
    shown = [p for p in others if _shown(counted[p], probed[p], names)]
    read += name_steps(name, [changes[place] for place in shown])
    chosen: list[tuple[str, int]] = []
    for place in places:
        chosen += [stop for stop in counted[place] if names.get(stop) == STAMP_EDIT]
        if place not in shown:
            continue
        made = Counter(names.get(stop) for stop in changes[place])
        for stop in counted[place]:
            edit = names[stop]
            least = WORDED_LEAST if rewords(edit or "") else 0
            if edit != STAMP_EDIT and 2 * made[edit] > stood[place] and made[edit] >= least:
                alike = [page for page in changes[place] if names.get(page) == edit]
                chosen += [stop] if _most_exact(stop, alike, exact) else []
    return chosen, read


def _worded(first: list[tuple[str, int]], names: Edits) -> set[str | None]:
    """The edits of the text's words that two or more of a place's ``first`` stops made (those
    its census counts: an edit of words one stop made alone is that page's own, and costs the
    census no other page's versions)."""
    made = Counter(names.get(stop) for stop in first)
    return {edit for edit, count in made.items() if count >= 2 and rewords(edit or "")}


def _countable(edit: str | None, worded: set[str | None]) -> bool:
    """Whether a stop's edit is counted over its section (see above): one that rewords the
    text only when it is one of the ``worded`` (_worded, in a section where WORDED_LEAST of its
    pages stood), never one that only reordered what the page holds, which no name tells from
    a page the commit changed in nothing a reader sees (history.edits.reorders)."""
    if edit is None or reorders(edit):
        return False
    return edit == STAMP_EDIT or edit in worded or not rewords(edit)


def _shown(counted: list[tuple[str, int]], probed: list[tuple[str, int]], names: Edits) -> bool:
    """Whether at least half of the ``probed`` pages (PROBE of the others the commit
    changed in the section) made the edit of one of the ``counted`` stops: an edit of most of a
    section shows on a few of its pages, and one that shows on none of them costs PROBE pages'
    versions, not the section's."""
    made = Counter(names.get(stop) for stop in probed)
    return any(2 * made[names.get(stop)] >= len(probed) for stop in counted)


def _most_exact(stop: tuple[str, int], alike: list[tuple[str, int]], exact: Edits) -> bool:
    """Whether ``stop``'s exact edit is no edit of its own among those of the pages ``alike``
    (its edit's: probes.exact_shared): a page whose own edit stands beside the section's is
    dated by it."""
    return exact_shared(exact.get(stop), Counter(exact.get(page) for page in alike))


def _stood(pages: Mapping[str, Run], section: Iterable[str], when: int, bound: int) -> int:
    """How many of the pages of a ``section`` stood at the commit of time ``when`` (their
    version then was no deletion), counted up to ``bound``: a commit that changed a few pages
    of a section of thousands is no census's, and costs a few of its pages, not all."""
    count = 0
    for path in section:
        if count >= bound:
            break
        then = next((version for version in pages[path].chain if version.time <= when), None)
        count += then is not None and then.blob is not None
    return count
