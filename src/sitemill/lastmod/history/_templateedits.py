"""Template edits in a git history: one edit made on most pages of a commit, and stamps."""
# An edit made identically on most pages of a section in one commit is the theme's or the
# generator's, not any page's (fingerprint version 5).
#
# A theme upgrade changes what most pages of a section carry in one commit, and no page's own
# words. After the walk has found, for each page, the newest version that differs from its current
# one (its stop), each stop's edit is named by what it took out and put in: the title's words, the
# link and image targets, the descriptions, and the text's words, each whose count fell or rose,
# whatever the number (``edit_of``). When more than half of a section's pages (its first folder; at
# least MIN_SECTION pages) stop at one commit with one edit, that edit is template: those pages'
# runs go on past it, compared with the version before it, and their next stops are judged the same
# way, round after round (MAX_ROUNDS).
#
# An edit on most pages of a commit is the template, whatever it touches (wave 6): words, names,
# titles, descriptions, link targets, meta tags, a block moved. Such an edit, made identically on
# at least MIN_SECTION pages and on more than half of the pages the commit changed, is
# template (probes.template_edits); a page whose own edit stands beside it has another name and
# takes the commit's date. When the edit moved targets, each page's exact moves are named too
# (``exact_of``): where most of those pages made the same exact moves (five list pages re-pointed
# alike), a page whose exact edit differs (its own repaired link beside the move) is its own.
# A mark kept but repeated more or fewer times (a description written twice, now once) is named by
# its kind; so are the dates an edit put in or took out, each read as its value (a date re-spelled
# is none), and the numbers it only put in or only took out (history.datevalues).
#
# An edit is counted over every page its commit changed, not only the pages whose walk stops
# there (issue 79): a page whose own later edit stopped its walk sooner made the commit's edit all
# the same. Where at least MIN_SECTION pages stop at a commit beside others it
# changed, and a stop there is not template by the stops alone (or is by a site-wide edit, taken
# from the stops alone), the commit's census (history.commitcensus) names PROBE of its other pages,
# spread over them, and all of them where those show what a stop made, or for a site-wide edit;
# they are counted beside the stops, never carried. The others are named as stops are (and
# remembered): a first run reads the versions around one commit for them once. A commit is
# judged by the pages it changed, not by the stops left at it in the round that reaches it
# (dating rules 12): where fewer than MIN_SECTION pages stop at a commit that changed at least
# MIN_SECTION, its stops are named, and its other pages counted so where one of those stops
# made a site-wide edit (history.commitcensus).
#
# A stop no census made template is counted again over every page of its section the commit
# changed (history.sectioncensus: an edit of words where WORDED_LEAST pages made it; a redirect
# stub is no page of its section, counted in no census). An edit judged template at a commit is
# the template's on every page that made it there (known_edits).
#
# What the commit knows of itself is a stamp (history.stamps): an edit that only took out the
# older commit's date, author or hash and put in the newer one's is no content (STAMP_EDIT),
# wherever it stands, on however many of the commit's pages it is named.
#
# What the whole site carries is judged across the whole commit: its addresses (a new base path or
# host, every ``.png`` made a ``.webp``) and its name in the titles and descriptions. A move
# rewrites the targets of exactly the pages that hold them, and a renamed site renames every page,
# however few of a section those are. An edit that only moved targets, each kind of them one way,
# and changed only the title's words and the description is site-wide (``is_site_wide``). It is
# template when at least MIN_SECTION pages stop at one commit with it, more than half of the pages
# there whose edit rewords no text: the page still says, links to and shows what it did.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history._blockcensus import Names, stop_readers
from sitemill.lastmod.history._commitcensus import commit_census
from sitemill.lastmod.history._editparts import part_names
from sitemill.lastmod.history._listings import Listings, OwnEdits
from sitemill.lastmod.history._probes import (
    PROBE_MORE,
    commit_of,
    contained_edits,
    exact_kept,
    probes,
    section_of,
    shared_parts,
    stops_worth_naming,
    template_edits,
    unclear,
)
from sitemill.lastmod.history._sectioncensus import Changes, census_of, census_templates
from sitemill.lastmod.history._stopedits import (
    STAMP_EDIT,
    Edits,
    HeldReductions,
    Reduce,
    Spread,
    StopEdits,
    recall_name,
)
from sitemill.lastmod.history._tokencensus import by_tokens
from sitemill.lastmod.history.edits import reorders, rewords
from sitemill.lastmod.history.lonestamps import LoneStamps
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.stamps import CommitStamps
from sitemill.lastmod.history.walk import Run, blob_key

# Probes of a commit that must share a part (history.editparts.edit_parts) for it to be named whole.
PROBE_LEAST: Final = 2
# Rounds of template edits followed back: a page's history past this many theme upgrades keeps
# the date of the last one judged (a later date, never an earlier one). A round that carried
# pages past stamps alone is none of them: a book whose every deploy prints its date is followed
# to its last words (each such round carries a page past the run of stamps before its stop,
# at once: lonestamps.LoneStamps.followed_on). Nor is a round that carried pages only past
# edits their commits made on most of the pages they changed (at least MIN_SECTION: the
# commit's own count, probes.template_edits over its stops and census pages of every round):
# such a commit is judged whole, and a page is carried past it as the walk carries a page past
# a version with its fingerprint, one older version reduced (dating rules 17: EnTT's 17
# releases since a page's last edit, each bumping every page; a Hexo blog whose 30 deploys
# each put a new post in every page's sidebar). The bound holds for the rounds judged by fewer
# pages (a section's, the parts or tokens most pages made).
MAX_ROUNDS: Final = 16
# The edits judged template at each commit (by its time), each as its name and exact name.
Known = dict[int, set[tuple[str | None, str | None]]]
# The pages each commit changed, and of those the pages it may have edited (by its time:
# sectioncensus.census_of).
CommitCounts = tuple[Counter[int], Counter[int]]
# The base URL, the redirect stubs, the pages no sitemap lists and the pages each commit made
# (follow_template_edits).
Site = tuple[str, frozenset[str], frozenset[str], Listings | None]


def follow_template_edits(
    runs: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    batch: GitBatch,
    reduce: Reduce,
    extend: Callable[[dict[str, Run], dict[str, str]], None],
    stamps: CommitStamps | None = None,
    naming: tuple[HeldReductions, Spread | None] | None = None,
    site: Site = ("", frozenset(), frozenset(), None),
) -> int:
    """Carry the runs of ``runs`` (the files dated by content) on past template edits (see above);
    return the number of blobs read. ``remembered``: what an earlier run remembered and what this
    one did (blob fingerprints by walk.blob_key, the versions before the stops among them; edits
    by edits.edit_key: named once, never read again); ``extend(runs, reference)`` walks those runs
    on while their older versions have the ``reference`` fingerprint (as the walk does with the
    current one). ``stamps``: the commits' stamps (history.stamps), an edit of nothing else being
    no content. ``naming``: the Reader's held reductions and Spread (stopedits), ``extend``'s
    reductions held. ``site``: the base URL ``reduce`` resolves links from (a link to the page
    itself is told by it: stopedits.own_path), the redirect stubs, no page of any section
    (sectioncensus.census_of), the pages no sitemap lists (probes.stops_worth_naming) and the
    pages each commit made (history.listings)."""
    pages = {path: run for path, run in runs.items() if path.lower().endswith(HTML_SUFFIXES)}
    sections, counts, census = census_of(pages, site[1], section_of, MIN_SECTION)  # (CommitCounts)
    tables: StopEdits = ({}, {}, {}, {}, {})  # (path, its run's end): edit
    edits, exact, parts, sketches, _ = tables
    read = rounds = 0  # (rounds: those that carried a page past a template edit, MAX_ROUNDS)
    unmoved: set[int] = set()  # commits whose probe found no site-wide edit
    commits = _commit_changes(census[1])
    known: Known = {}  # (the edits judged template at each commit so far: known_edits)
    reader = (batch, reduce, stamps, *(naming or (HeldReductions(), None)), site[0])
    name, tokens, whole = stop_readers(pages, remembered, reader, tables)
    own = OwnEdits(site[3], (pages, tables, tokens), counts[0], (batch, reduce))
    lone = LoneStamps(reader, tables, name, (pages, remembered))  # (stamps on few pages)
    while True:
        stops, commit_only, every = stops_worth_naming(pages, sections, (counts[0], site[2]))
        stops = [s for s in stops if s not in commit_only or commit_of(s, pages) not in unmoved]
        wanted = [stop for stop in stops if stop not in edits]
        read += _probed(wanted, commit_only, pages, (edits, parts, sketches), name, unmoved)
        named = [(path, end) for path, end in stops if edits.get((path, end)) is not None]
        chosen = _templates(named, pages, (sections, counts), tables)
        chosen, more = _by_commits(named, chosen, pages, (commits, sections, counts), name, tables)
        chosen, blocked, most = by_tokens(
            named, chosen, pages, (commits, counts[0]), tokens, tables, whole
        )
        read += more + most
        judged = set(chosen)  # (and the others by the census of their section: sectioncensus)
        counted, more = census_templates(
            [stop for stop in every if stop not in judged], pages, census, name, (edits, exact)
        )
        counted = counted + lone.stamped(every)  # (stamps on however few pages)
        late, most = _known_left(every, (chosen, counted, blocked), pages, (known, name), tables)
        read, counted = read + more + most, counted + late
        template = own.kept(chosen + counted)  # (listings)
        carried, rounds = _this_round(template, pages, (tables, counts), rounds)
        carried = lone.followed_on(carried)  # (past the stamps after each at once)
        reference = _carried(carried, pages, remembered)
        if not reference:
            break
        extend({path: pages[path] for path in reference}, reference)
    return read + own.read + lone.read


def _known_left(
    every: list[tuple[str, int]],
    judged: tuple[list[tuple[str, int]], list[tuple[str, int]], Collection[tuple[str, int]]],
    pages: Mapping[str, Run],
    known_name: tuple[Known, Names],
    tables: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """known_edits over the stops judged template (``judged``: chosen by the stops, counted by
    the census, and those the block census judged by their blocks, which are neither), the
    blocked stops never among its answers."""
    chosen, counted, blocked = judged
    edits = [stop for stop in chosen if stop not in blocked] + counted
    late, most = known_edits(every, edits, pages, known_name, tables)
    return [stop for stop in late if stop not in blocked], most


def _commit_changes(changes: Changes) -> dict[int, list[tuple[str, int]]]:
    """The pages each commit changed (sectioncensus.section_changes, by the commit's time
    alone), as stops, by path."""
    commits: dict[int, list[tuple[str, int]]] = {}
    for (_, when), stops in sorted(changes.items()):
        commits.setdefault(when, []).extend(stops)
    for stops in commits.values():
        stops.sort()
    return commits


def _by_commits(
    named: list[tuple[str, int]],
    chosen: list[tuple[str, int]],
    pages: Mapping[str, Run],
    counts: tuple[dict[int, list[tuple[str, int]]], Counter[str], CommitCounts],
    name: Callable[[list[tuple[str, int]]], int],
    tables: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """The stops of ``named`` whose edit is template (``chosen``: by the stops alone) once
    counted with the other pages their commit changed (history.commitcensus), and the blobs read.
    ``counts``: _commit_changes, the pages of each section, the pages each commit changed
    (CommitCounts)."""
    commits, sections, changed = counts
    others, read = commit_census(named, chosen, pages, commits, name, tables)
    # (a page whose versions git did not give the census gets no name: it is not counted)
    others = [stop for stop in others if stop in tables[0]]
    if not others:
        return chosen, read
    stopped = set(named)  # (the others are counted beside the stops, never carried)
    counted = _templates(named + others, pages, (sections, changed), tables)
    return [stop for stop in counted if stop in stopped], read


def _this_round(
    template: list[tuple[str, int]],
    pages: Mapping[str, Run],
    judged: tuple[StopEdits, CommitCounts],
    rounds: int,
) -> tuple[list[tuple[str, int]], int]:
    """The stops of ``template`` carried past this round, and the rounds so far that carried
    one past an edit its commit did not make on most of the pages it changed: past MAX_ROUNDS
    of them, only stamps and such edits. ``judged``: the edits named so far (the stops and
    census pages of every round), the pages each commit changed."""
    edited = [stop for stop in template if judged[0][0].get(stop) != STAMP_EDIT]
    unjudged = set(edited) - set(_commits_edits(edited, pages, judged))
    rounds += bool(unjudged)
    return [stop for stop in template if rounds <= MAX_ROUNDS or stop not in unjudged], rounds


def _commits_edits(
    edited: list[tuple[str, int]],
    pages: Mapping[str, Run],
    judged: tuple[StopEdits, CommitCounts],
) -> list[tuple[str, int]]:
    """The stops of ``edited`` whose edit their commit made on most of the pages it changed
    (probes.template_edits over every page named at it in any round: its stops and its census
    pages; at least MIN_SECTION of them)."""
    (edits, *_), changed = judged
    at = {commit_of(stop, pages) for stop in edited}
    named = [stop for stop in edits if stop[0] in pages and commit_of(stop, pages) in at]
    whole = template_edits(named, pages, edits, MIN_SECTION, changed)
    return [stop for stop in edited if (commit_of(stop, pages), edits.get(stop)) in whole]


def _carried(
    template: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
) -> dict[str, str]:
    """Carry each page of ``template`` (its stop's edit is template) past its stop: its run
    ends one version further, and the fingerprint it walks on with is the older version's."""
    reference = {}
    for path, end in template:
        older = pages[path].chain[end].blob  # (a stop's: never a deletion)
        found = None if older is None else recall_name(remembered, blob_key(path, older))
        if found is not None:
            pages[path].end = end + 1
            reference[path] = found
    return reference


def _templates(
    named: list[tuple[str, int]],
    pages: Mapping[str, Run],
    counts: tuple[Counter[str], CommitCounts],
    edits: StopEdits,
) -> list[tuple[str, int]]:
    """The stops of ``named`` whose edit is template (see above), a stamp edit, made of
    parts each of which most pages the commit changed made (shared_parts), or held whole in
    the edits of most of them (contained_edits), less those whose
    exact edit is not the one most pages with their edit made (a page whose own edit stands
    beside the site-wide one, named by the same moves). ``counts``: the pages of each
    section, the pages each commit changed."""
    names, exact, parts, sketches, _ = edits
    sections, changed = counts
    census = Counter(_place(path, end, pages, names) for path, end in named)
    template = template_edits(named, pages, names, MIN_SECTION, changed)
    common = shared_parts(named, pages, parts, (MIN_SECTION, changed[0]))
    held = contained_edits(named, pages, sketches, (MIN_SECTION, changed[0]))
    chosen = []
    for path, end in named:
        place = _place(path, end, pages, names)
        size = sections[section_of(path)]
        in_section = size >= MIN_SECTION and 2 * census[place] > size
        edit = names[path, end]
        own = part_names(parts.get((path, end)) or "")
        if (
            edit == STAMP_EDIT
            or (in_section and not rewords(edit or "") and not reorders(edit or ""))
            or place[1:] in template
            or (own and all((place[1], *part) in common for part in own))
            or (path, end) in held
        ):
            chosen.append((path, end))
    return exact_kept(chosen, chosen, lambda stop: _place(*stop, pages, names)[1:], exact)


def _probed(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    named: tuple[Edits, Edits, Edits],
    name: Callable[[list[tuple[str, int]]], int],
    unmoved: set[int],
) -> int:
    """Name the edits of ``wanted`` with ``name``: each one a section's census wants, and of
    the stops only a commit's counts (``commit_only``) its probes first (history.probes),
    the rest where those found a site-wide edit or a part most of them made; add the commits
    they showed neither at to ``unmoved``. ``named``: the edits, their parts and sketches (an
    edit the others' hold: contained_edits). Return the number of blobs read."""
    edits, parts, sketches = named
    first, later = probes(wanted, commit_only, pages)
    read = name(first)
    for _ in range(PROBE_MORE):  # (probes whose pages changed their words tell nothing)
        more, later = probes(later, commit_only, pages, unclear(first, later, pages, edits))
        if not more:
            break
        read += name(more)
        first += more
    moved = {when for when, _ in template_edits(first, pages, edits)}
    moved |= {when for when, _, _ in shared_parts(first, pages, parts, (PROBE_LEAST, None))}
    moved |= {
        commit_of(stop, pages)
        for stop in contained_edits(first, pages, sketches, (PROBE_LEAST, None))
    }
    moved |= {commit_of(stop, pages) for stop in first if edits.get(stop) == STAMP_EDIT}
    unmoved |= {commit_of(stop, pages) for stop in later} - moved
    return read + name([stop for stop in later if commit_of(stop, pages) in moved])


def _place(
    path: str, end: int, pages: Mapping[str, Run], edits: Edits
) -> tuple[str, int, str | None]:
    """Where a stop's edit is counted: the page's section, the commit's time, the edit."""
    return section_of(path), pages[path].chain[end - 1].time, edits[path, end]


# An edit judged template at a commit is the template's on every page that made it there. The
# rounds above judge a commit's edits round after round, each time among the stops of
# that round: by the stops of a section, by the commit's census, by the section's census. A page
# whose walk reaches the commit a round after the others (its own later edit, template too,
# carried first: three talks of aea's deploy that gave 86 talks a language line), or the one page
# of a section of its own (``categories/``, whose author sidebar lost the link 30 posts lost),
# made the same edit there: what is known of the commit holds for it (dating rules 9, issue 79;
# read92's fault (a) 2). Its exact edit must be one judged too (a page whose own link moved
# beside the site's move keeps the commit's date).
def known_edits(
    every: list[tuple[str, int]],
    template: list[tuple[str, int]],
    pages: Mapping[str, Run],
    known: tuple[Known, Callable[[list[tuple[str, int]]], int]],
    tables: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """The stops of ``every`` not in ``template`` (this round's template stops, added to
    ``known[0]``) whose edit, exact edit too, is one judged template at their commit in this
    round or an earlier one, by whatever count (dating rules 9): a commit's template edit is
    the template's on every page that made it, a page that reaches the commit a round after
    the others (its later edit carried first: three talks of a deploy that gave 86 talks a
    language line) or in a section of its own (the author sidebar's link dropped from 30
    posts and from the one page of ``categories/``); and the blobs read naming them
    (``known[1]``: only stops at such commits are named)."""
    judged, name = known
    edits, exact = tables[0], tables[1]
    for stop in template:
        if (edit := edits.get(stop)) is not None and edit != STAMP_EDIT:
            judged.setdefault(commit_of(stop, pages), set()).add((edit, exact.get(stop)))
    taken = set(template)
    late = [stop for stop in every if stop not in taken and commit_of(stop, pages) in judged]
    unnamed = [stop for stop in late if stop not in edits]
    read = name(unnamed) if unnamed else 0
    found = [
        stop
        for stop in late
        if edits.get(stop) is not None
        and (edits[stop], exact.get(stop)) in judged[commit_of(stop, pages)]
    ]
    return found, read
