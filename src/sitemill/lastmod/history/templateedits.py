"""Template edits in a git history: one edit made on most pages of a section in one commit."""
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
# An edit that adds, drops or rewords the text's words (beyond their letter case) is never template,
# however many pages it is made on: what a reader reads changed (a theme's new decoration of a
# post's closing words, a release number in the text). A page whose commit also changed its own
# words keeps that date; a new post's teaser, added to the home page and a few archive pages, is an
# edit of few pages. Only pages whose walk reaches a commit count for it, so an edit is taken as
# template on less evidence than it has, never on more.
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
from sitemill.lastmod.history.edits import edit_key, edit_of
from sitemill.lastmod.history.probes import PROBE_MORE, commit_of, probes, site_wide_edits, unclear
from sitemill.lastmod.history.walk import Run, blob_key

# A reduction of a page's bytes (fingerprint.reduction), by the page's site path.
Reduce = Callable[[str, bytes], str]
# A section of fewer pages has no "most": each page is its own evidence.
MIN_SECTION: Final = 4
# Rounds of template edits followed back: a page's history past this many theme upgrades keeps
# the date of the last one judged (a later date, never an earlier one).
MAX_ROUNDS: Final = 16
_GROUP: Final = 64  # stops whose two versions are held reduced at once
NO_EDIT: Final = "0" * 32  # (remembered for a stop whose edit is no template's: edit_of None)


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
) -> int:
    """Carry the runs of ``runs`` (the files dated by content) on past template edits (see
    above); return the number of blobs read. ``remembered``: what an earlier run remembered
    and what this one did (blob fingerprints by walk.blob_key, the versions before the stops
    among them; edits by edits.edit_key: named once, never read again);
    ``extend(runs, reference)`` walks those runs on while their older versions have the
    ``reference`` fingerprint (as the walk does with the current one)."""
    pages = {path: run for path, run in runs.items() if path.lower().endswith(HTML_SUFFIXES)}
    sections = Counter(section_of(path) for path in pages)
    edits: dict[tuple[str, int], str | None] = {}  # (path, its run's end at the stop): edit
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
            _name, pages=pages, remembered=remembered, batch=batch, reduce=reduce, edits=edits
        )
        read += _probed(wanted, commit_only, pages, edits, name, unmoved)
        named = [(path, end) for path, end in stops if edits.get((path, end)) is not None]
        census = Counter(_place(path, end, pages, edits) for path, end in named)
        site_wide = site_wide_edits(named, pages, edits, least=MIN_SECTION)
        reference = {}
        for path, end in named:
            place = _place(path, end, pages, edits)
            size = sections[section_of(path)]
            if (size < MIN_SECTION or 2 * census[place] <= size) and place[1:] not in site_wide:
                continue
            older = pages[path].chain[end].blob  # (a stop's: never a deletion)
            found = None if older is None else _recalled(remembered, blob_key(path, older))
            if found is not None:
                pages[path].end = end + 1
                reference[path] = found
        if not reference:
            break
        extend({path: pages[path] for path in reference}, reference)
    return read


def _probed(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: dict[tuple[str, int], str | None],
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
    moved = {when for when, _ in site_wide_edits(first, pages, edits)}
    unmoved |= {commit_of(stop, pages) for stop in later} - moved
    return read + name([stop for stop in later if commit_of(stop, pages) in moved])


def _name(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    batch: GitBatch,
    reduce: Reduce,
    edits: dict[tuple[str, int], str | None],
) -> int:
    """Name the edit of each stop of ``stops`` (remembered, or read: _name_edits) and remember
    it; return the number of blobs read."""
    read = _name_edits(_unknown(stops, pages, remembered, edits), pages, batch, reduce, edits)
    for path, end in stops:
        key = _edit_key_of(path, pages[path], end)
        if key is not None:
            remembered[1][key] = edits.get((path, end)) or NO_EDIT
    return read


def _unknown(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    edits: dict[tuple[str, int], str | None],
) -> list[tuple[str, int]]:
    """The stops of ``wanted`` whose edit no run named before (the others are named in
    ``edits`` from what is remembered)."""
    unknown = []
    for path, end in wanted:
        key = _edit_key_of(path, pages[path], end)
        named = None if key is None else _recalled(remembered, key)
        if named is None:
            unknown.append((path, end))
        else:
            edits[path, end] = None if named == NO_EDIT else named
    return unknown


def _edit_key_of(path: str, run: Run, end: int) -> str | None:
    """The edit_key of the stop at ``end`` of the run of ``path`` (None: a version deleted)."""
    newer, older = run.chain[end - 1].blob, run.chain[end].blob
    return None if newer is None or older is None else edit_key(path, newer, older)


def _recalled(remembered: tuple[Mapping[str, str], dict[str, str]], key: str) -> str | None:
    """What this run (``remembered[1]``) or an earlier one (``[0]``) remembers under ``key``."""
    return remembered[1].get(key) or remembered[0].get(key)


def _place(
    path: str, end: int, pages: Mapping[str, Run], edits: Mapping[tuple[str, int], str | None]
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
    batch: GitBatch,
    reduce: Reduce,
    edits: dict[tuple[str, int], str | None],
) -> int:
    """Name the edit at each stop of ``wanted`` from the two versions around it, read
    _GROUP stops at a time; a stop whose versions git lacks gets none (it is no template)."""
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
                edits[path, end] = edit_of(newer, older)
    return read
