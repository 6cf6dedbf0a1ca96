"""Template edits in a git history: one edit made on most pages of a commit, and stamps."""
# An edit made identically on most pages of a section in one commit is the theme's or the
# generator's, not any page's (fingerprint version 5).
#
# A theme upgrade that turns every teaser's "Read More" into "Read more", gives every archive page
# the site's name as its description, points every post's links elsewhere, or bumps the release
# number in every title changes what most pages of a section carry in one commit, and no page's own
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
# its kind. Only pages whose walk reaches a commit count for it, so an edit is taken as template
# on less evidence than it has, never on more.
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
from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import edit_key, edit_of, exact_of, rewords
from sitemill.lastmod.history.probes import PROBE_MORE, commit_of, probes, template_edits, unclear
from sitemill.lastmod.history.stamps import CommitStamps, is_stamp_edit
from sitemill.lastmod.history.walk import Run, blob_key

# A reduction of a page's bytes (fingerprint.reduction), by the page's site path.
Reduce = Callable[[str, bytes], str]
# A section of fewer pages has no "most": each page is its own evidence.
MIN_SECTION: Final = 4
# Rounds of template edits followed back: a page's history past this many theme upgrades keeps
# the date of the last one judged (a later date, never an earlier one).
MAX_ROUNDS: Final = 16
_GROUP: Final = 64  # stops whose two versions are held reduced at once
NO_EDIT: Final = "0" * 32  # (remembered for a stop whose versions git lacks)
# The name of an edit that only changed the commits' stamps (history.stamps): no content.
STAMP_EDIT: Final = "4" + "0" * 31
# Edits and their exact names (edits.exact_of) by stop (path, its run's end at the stop).
Edits = dict[tuple[str, int], str | None]


def section_of(path: str) -> str:
    """A page's section: the first folder of its site path ("" for the site's top)."""
    head, slash, _ = path.partition("/")
    return head if slash else ""


def follow_template_edits(
    runs: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    batch: GitBatch,
    reduce: Reduce,
    extend: Callable[[dict[str, Run], dict[str, str]], None],
    stamps: CommitStamps | None = None,
) -> int:
    """Carry the runs of ``runs`` (the files dated by content) on past template edits (see
    above); return the number of blobs read. ``remembered``: what an earlier run remembered
    and what this one did (blob fingerprints by walk.blob_key, the versions before the stops
    among them; edits by edits.edit_key: named once, never read again);
    ``extend(runs, reference)`` walks those runs on while their older versions have the
    ``reference`` fingerprint (as the walk does with the current one). ``stamps``: the
    commits' stamps (history.stamps), an edit of nothing else being no content."""
    pages = {path: run for path, run in runs.items() if path.lower().endswith(HTML_SUFFIXES)}
    sections = Counter(section_of(path) for path in pages)
    changed = Counter(version.time for run in pages.values() for version in run.chain)
    edits: Edits = {}  # (path, its run's end at the stop): edit
    exact: Edits = {}
    read = 0
    unmoved: set[int] = set()  # commits whose probe found no site-wide edit
    for _ in range(MAX_ROUNDS):
        stops, commit_only = _stops(pages, sections)
        stops = [
            stop
            for stop in stops
            if commit_of(stop, pages) not in unmoved or stop not in commit_only
        ]
        wanted = [stop for stop in stops if stop not in edits]
        name = partial(
            _name,
            pages=pages,
            remembered=remembered,
            reader=(batch, reduce, stamps),
            edits=(edits, exact),
        )
        read += _probed(wanted, commit_only, pages, edits, name, unmoved)
        named = [(path, end) for path, end in stops if edits.get((path, end)) is not None]
        reference = {}
        for path, end in _templates(named, pages, (sections, changed), (edits, exact)):
            older = pages[path].chain[end].blob  # (a stop's: never a deletion)
            found = None if older is None else _recalled(remembered, blob_key(path, older))
            if found is not None:
                pages[path].end = end + 1
                reference[path] = found
        if not reference:
            break
        extend({path: pages[path] for path in reference}, reference)
    return read


def _templates(
    named: list[tuple[str, int]],
    pages: Mapping[str, Run],
    counts: tuple[Counter[str], Counter[int]],
    edits: tuple[Edits, Edits],
) -> list[tuple[str, int]]:
    """The stops of ``named`` whose edit is template (see above) or a stamp edit, less those
    whose exact edit is not the one most pages with their edit made (a page whose own edit
    stands beside the site-wide one, named by the same moves). ``counts``: the pages of each
    section, the pages each commit changed."""
    names, exact = edits
    sections, changed = counts
    census = Counter(_place(path, end, pages, names) for path, end in named)
    template = template_edits(named, pages, names, MIN_SECTION, changed)
    chosen = []
    for path, end in named:
        place = _place(path, end, pages, names)
        size = sections[section_of(path)]
        in_section = size >= MIN_SECTION and 2 * census[place] > size
        edit = names[path, end]
        if edit == STAMP_EDIT or (in_section and not rewords(edit or "")) or place[1:] in template:
            chosen.append((path, end))
    groups: dict[tuple[int, str | None], Counter[str | None]] = {}
    for stop in chosen:
        groups.setdefault(_place(*stop, pages, names)[1:], Counter())[exact.get(stop)] += 1
    kept = []
    for stop in chosen:
        shared = groups[_place(*stop, pages, names)[1:]]
        most, count = shared.most_common(1)[0]
        if 2 * count <= sum(shared.values()) or exact.get(stop) == most:
            kept.append(stop)
    return kept


def _probed(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Edits,
    name: Callable[[list[tuple[str, int]]], int],
    unmoved: set[int],
) -> int:
    """Name the edits of ``wanted`` with ``name``: each one a section's census wants, and of
    the stops only a commit's counts (``commit_only``) its probes first (history.probes),
    the rest where those found a site-wide edit; add the commits they showed none at to
    ``unmoved``. Return the number of blobs read."""
    first, later = probes(wanted, commit_only, pages)
    read = name(first)
    for _ in range(PROBE_MORE):  # (probes whose pages changed their words tell nothing)
        more, later = probes(later, commit_only, pages, unclear(first, later, pages, edits))
        if not more:
            break
        read += name(more)
        first += more
    moved = {when for when, _ in template_edits(first, pages, edits)}
    moved |= {commit_of(stop, pages) for stop in first if edits.get(stop) == STAMP_EDIT}
    unmoved |= {commit_of(stop, pages) for stop in later} - moved
    return read + name([stop for stop in later if commit_of(stop, pages) in moved])


def _name(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    reader: tuple[GitBatch, Reduce, CommitStamps | None],
    edits: tuple[Edits, Edits],
) -> int:
    """Name the edit of each stop of ``stops`` and its exact edit (remembered, or read:
    _name_edits) and remember them; return the number of blobs read."""
    read = _name_edits(_unknown(stops, pages, remembered, edits), pages, reader, edits)
    for path, end in stops:
        for part, found in zip((False, True), edits, strict=True):
            key = _edit_key_of(path, pages[path], end, exact=part)
            if key is not None:
                remembered[1][key] = found.get((path, end)) or NO_EDIT
    return read


def _unknown(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    edits: tuple[Edits, Edits],
) -> list[tuple[str, int]]:
    """The stops of ``wanted`` whose edit no run named before (the others are named in
    ``edits`` from what is remembered)."""
    unknown = []
    for path, end in wanted:
        keys = [_edit_key_of(path, pages[path], end, exact=part) for part in (False, True)]
        named = [None if key is None else _recalled(remembered, key) for key in keys]
        if None in named:
            unknown.append((path, end))
            continue
        for found, name in zip(edits, named, strict=True):
            found[path, end] = None if name == NO_EDIT else name
    return unknown


def _edit_key_of(path: str, run: Run, end: int, *, exact: bool = False) -> str | None:
    """The edit_key of the stop at ``end`` of the run of ``path`` (None: a version deleted)."""
    newer, older = run.chain[end - 1].blob, run.chain[end].blob
    if newer is None or older is None:
        return None
    return edit_key(path, newer, older, exact=exact)


def _recalled(remembered: tuple[Mapping[str, str], dict[str, str]], key: str) -> str | None:
    """What this run (``remembered[1]``) or an earlier one (``[0]``) remembers under ``key``."""
    return remembered[1].get(key) or remembered[0].get(key)


def _place(
    path: str, end: int, pages: Mapping[str, Run], edits: Edits
) -> tuple[str, int, str | None]:
    """Where a stop's edit is counted: the page's section, the commit's time, the edit."""
    return section_of(path), pages[path].chain[end - 1].time, edits[path, end]


def _stops(
    pages: Mapping[str, Run], sections: Counter[str]
) -> tuple[list[tuple[str, int]], set[tuple[str, int]]]:
    """The pages whose run stops at an older version with content (not a deletion, not the
    end of the history), where more than half of their section's pages, or at least
    MIN_SECTION pages of the site, stop at one commit: the stops (path, the run's end) whose
    edits are worth naming; and those of them only the second counts (a move may be there)."""
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
        elif site_wide[when] >= MIN_SECTION:
            stops.append((path, end))
            commit_only.add((path, end))
    return stops, commit_only


def _name_edits(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    reader: tuple[GitBatch, Reduce, CommitStamps | None],
    edits: tuple[Edits, Edits],
) -> int:
    """Name the edit at each stop of ``wanted`` from the two versions around it, read
    _GROUP stops at a time: STAMP_EDIT when it changed only the commits' stamps, else edit_of
    and exact_of; a stop whose versions git lacks gets none (it is no template)."""
    batch, reduce, stamps = reader
    read = 0
    for start in range(0, len(wanted), _GROUP):
        group = wanted[start : start + _GROUP]
        needed: dict[bytes, set[str]] = {}
        for path, end in group:
            for version in pages[path].chain[end - 1 : end + 1]:
                if version.blob is not None:
                    needed.setdefault(version.blob, set()).add(path)
        reductions: dict[tuple[bytes, str], str] = {}
        for blob, data in read_blobs(batch, list(needed)):
            read += 1
            if data is not None:
                for path in needed[blob]:
                    reductions[blob, path] = reduce(path, data)
        for path, end in group:
            chain = pages[path].chain
            newer = reductions.get((chain[end - 1].blob, path))  # type: ignore[arg-type]
            older = reductions.get((chain[end].blob, path))  # type: ignore[arg-type]
            if newer is not None and older is not None:
                stamped = stamps is not None and _stamp_edit(
                    newer, older, stamps, (chain[end - 1].time, chain[end].time)
                )
                edits[0][path, end] = STAMP_EDIT if stamped else edit_of(newer, older, path)
                edits[1][path, end] = STAMP_EDIT if stamped else exact_of(newer, older)
    return read


def _stamp_edit(newer: str, older: str, stamps: CommitStamps, times: tuple[int, int]) -> bool:
    """Whether ``older`` became ``newer`` by their commits' stamps only (history.stamps)."""
    older_stamps = stamps.pattern(times[1])
    if older_stamps is None:
        return False
    return is_stamp_edit(newer, older, stamps.pattern(times[0]), older_stamps)
