"""Template edits in a git history: an edit made identically on most pages of a section in one
commit is the theme's or the generator's, not any page's (fingerprint version 5).

A theme upgrade that turns every teaser's "Read More" into "Read more", gives every archive
page the site's name as its description, points every post's links elsewhere, or bumps the
release number in every title changes what most pages of a section carry in one commit, and no
page's own words. After the walk has found, for each page, the newest version that differs
from its current one (its stop), each stop's edit is named by what it took out and put in: the
title's words, the link and image targets, the descriptions, and the text's words, each whose
count fell or rose, whatever the number (``edit_of``). When more than half of a section's pages
(its first folder; at least MIN_SECTION pages) stop at one commit with one edit, that edit is
template: those pages' runs go on past it, compared with the version before it, and their next
stops are judged the same way, round after round (MAX_ROUNDS).

What the whole site carries is judged across the whole commit: its addresses (a new base path
or host, every ``.png`` made a ``.webp``) and its name in the titles and descriptions. A move
rewrites the targets of exactly the pages that hold them, and a renamed site renames every page,
however few of a section those are. An edit that only moved targets, each kind of them one way,
and changed only the title's words and the description is site-wide (``is_site_wide``). It is
template when at least MIN_SECTION pages stop at one commit with it, more than half of the pages
there whose edit rewords no text: the page still says, links to and shows what it did.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.html.fingerprint import HTML_SUFFIXES
from sitemill.html.marks import MARK, TITLE_END
from sitemill.sources.gitblobs import read_blobs
from sitemill.sources.gitwalk import Run, blob_key

# A reduction of a page's bytes (html.reduction), by the page's site path.
Reduce = Callable[[str, bytes], str]
# A section of fewer pages has no "most": each page is its own evidence.
MIN_SECTION: Final = 4
# Rounds of template edits followed back: a page's history past this many theme upgrades keeps
# the date of the last one judged (a later date, never an earlier one).
MAX_ROUNDS: Final = 16
# The mark kinds that hold a target: a link's, an image's source, a srcset's first candidate.
_TARGET_KINDS: Final = ("H", "I", "S")
# An edit's name says its kind in its first hex digit: a site-wide one's is 8 to f.
_KIND_DIGITS: Final = {False: "01234567", True: "89abcdef"}
# How edits are named (edit_of): a state's names given another way are not recalled.
_NAMING: Final = b"moves"
# Pages of a commit named to learn whether it made a site-wide edit (_probes).
_PROBE: Final = MIN_SECTION
# Times more pages of a commit are named while its probes' pages all changed their words.
_PROBE_MORE: Final = 3
_GROUP: Final = 64  # stops whose two versions are held reduced at once
NO_EDIT: Final = "0" * 32  # (remembered for a stop whose edit is no template's: edit_of None)


def section_of(path: str) -> str:
    """A page's section: the first folder of its site path ("" for the site's top)."""
    head, slash, _ = path.partition("/")
    return head if slash else ""


def edit_of(newer: str, older: str) -> str | None:
    """The name of the edit that made reduction ``older`` into ``newer`` (what it took out and
    put in: each title word, target and description, and each word of the text whose count
    fell or rose, not by how much), hashed; None when the edit changed the text's words
    beyond their letter case: no such edit is taken as template (see above)."""
    new, old = _tokens(newer), _tokens(older)
    if _words(new) != _words(old):
        return None
    removed, added = _rewrites(sorted(old - new), sorted(new - old))
    text = "\0".join((*removed, "\1", *added))
    name = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    tokens = (*removed, *added)
    site_wide = bool(tokens) and all(token[:1] in "RtD" for token in tokens)
    return _KIND_DIGITS[site_wide][int(name[0], 16) & 7] + name[1:]


def is_site_wide(edit: str) -> bool:
    """Whether an edit (named by edit_of) changed only what a site carries on every page: its
    addresses (targets that moved the same way: _rewrites), the words of its titles and its
    descriptions (the site's name, "Welcome to <name>"); its first hex digit is 8 to f (0 to 7
    for any other edit). Only the same edit on many pages of one commit is template."""
    return edit[:1] in _KIND_DIGITS[True]


def _rewrites(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` tokens (sorted) with each kind of target that the edit moved
    one to one named by its move instead: the site moved its addresses (a new base path or
    host, ``.png`` made ``.webp``), and each page's targets moved the same way.

    For a kind of target (link, image, srcset) with as many removed as added, the i-th removed
    and the i-th added (in sorted order, which a common rewrite of a start or an end keeps) are
    a pair, named by _rewrite. When every pair has one name, that name, once, stands for them;
    any other token, and every target of a kind whose pairs are not all one move, stays as it
    is, so a page whose own links changed keeps an edit of its own."""
    out_removed, out_added = list(removed), list(added)
    for kind in _TARGET_KINDS:
        gone = [token for token in removed if token[:1] == kind]
        come = [token for token in added if token[:1] == kind]
        if not gone or len(gone) != len(come):
            continue
        names = {_rewrite(old[1:], new[1:]) for old, new in zip(gone, come, strict=True)}
        if len(names) != 1 or None in names:
            continue
        out_removed = [token for token in out_removed if token[:1] != kind]
        out_added = [token for token in out_added if token[:1] != kind]
        out_removed.append("R" + kind + str(names.pop()))
    return sorted(out_removed), sorted(out_added)


def _rewrite(old: str, new: str) -> str | None:
    """How a target moved: its host's change, then what differs between its paths once their
    common start and end are cut off (an insertion or a deletion as far left as it can stand:
    "/" made "/base" and "/posts" made "/base/posts" are one move); None when the query or the
    fragment changed. A site's own paths are compared without a trailing "/", "index.html" or
    ".html", which the reduction leaves off its own links (html.targets) but not another
    host's."""
    old_host, old_path, old_rest = _split(old)
    new_host, new_path, new_rest = _split(new)
    if old_rest != new_rest:
        return None
    start, limit = 0, min(len(old_path), len(new_path))
    while start < limit and old_path[start] == new_path[start]:
        start += 1
    end = 0
    while end < limit - start and old_path[-1 - end] == new_path[-1 - end]:
        end += 1
    cut, put = old_path[start : len(old_path) - end], new_path[start : len(new_path) - end]
    while (cut == "") != (put == "") and start:  # (slide a pure insertion or deletion left)
        moved = cut or put
        if old_path[start - 1] != moved[-1]:
            break
        start -= 1
        moved = moved[-1] + moved[:-1]
        cut, put = (moved, "") if cut else ("", moved)
    return f"{old_host}\2{new_host}\2{cut}\2{put}"


def _split(target: str) -> tuple[str, str, str]:
    """A target's scheme and host (empty for the site's own), its path without a trailing
    "/", "index.html" or ".html", and its query and fragment."""
    host, sep, rest = target.partition("://")
    if sep:
        authority, slash, path = rest.partition("/")
        host, path = host.lower() + sep + authority.lower(), slash + path
    else:
        host, path = "", target
    cut = min((i for i in (path.find("?"), path.find("#")) if i >= 0), default=len(path))
    path, tail = path[:cut], path[cut:]
    for ending in ("index.html", ".html", "/"):
        path = path.removesuffix(ending)
    return host, path, tail


def _tokens(reduction: str) -> Counter[str]:
    """A reduction's title words ("t"), marks (their kind letter and value) and text words
    ("w"), counted."""
    title, marked, rest = reduction.partition(TITLE_END)
    if not marked:
        title, rest = "", reduction
    tokens: Counter[str] = Counter("t" + word for word in title.split())
    for index, part in enumerate(rest.split(MARK)):
        if index % 2:
            tokens[part] += 1
        else:
            tokens.update("w" + word for word in part.split())
    return tokens


def _words(tokens: Counter[str]) -> Counter[str]:
    """The text's words of ``tokens`` (_tokens), in lower case: what a template edit keeps."""
    words: Counter[str] = Counter()
    for token, count in tokens.items():
        if token[:1] == "w":
            words[token.casefold()] += count
    return words


def follow_template_edits(
    runs: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    batch: GitBatch,
    reduce: Reduce,
    extend: Callable[[dict[str, Run], dict[str, str]], None],
) -> int:
    """Carry the runs of ``runs`` (the files dated by content) on past template edits (see
    above); return the number of blobs read. ``remembered``: what an earlier run remembered
    and what this one did (blob fingerprints by gitwalk.blob_key, the versions before the stops
    among them; edits by edit_key: named once, never read again);
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
            stop for stop in stops if _when(stop, pages) not in unmoved or stop not in commit_only
        ]
        wanted = [stop for stop in stops if stop not in edits]
        first, later = _probes(wanted, commit_only, pages)
        read += _name(first, pages, remembered, batch, reduce, edits)
        for _ in range(_PROBE_MORE):  # (probes whose pages changed their words tell nothing)
            more, later = _probes(later, commit_only, pages, _unclear(first, later, pages, edits))
            if not more:
                break
            read += _name(more, pages, remembered, batch, reduce, edits)
            first += more
        moved = _site_wide_commits(first, pages, edits)
        unmoved |= {_when(stop, pages) for stop in later} - moved
        read += _name(
            [s for s in later if _when(s, pages) in moved], pages, remembered, batch, reduce, edits
        )
        named = [(path, end) for path, end in stops if edits.get((path, end)) is not None]
        census = Counter(_place(path, end, pages, edits) for path, end in named)
        moves = Counter(place[1:] for place in census.elements() if is_site_wide(place[2] or ""))
        at_commit = Counter(place[1] for place in census.elements())
        reference = {}
        for path, end in named:
            place = _place(path, end, pages, edits)
            size = sections[section_of(path)]
            if (size < MIN_SECTION or 2 * census[place] <= size) and not (
                moves[place[1:]] >= MIN_SECTION and 2 * moves[place[1:]] > at_commit[place[1]]
            ):
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


def _when(stop: tuple[str, int], pages: Mapping[str, Run]) -> int:
    """The time of the commit a stop (path, the run's end) stops at: the commit's name here."""
    return pages[stop[0]].chain[stop[1] - 1].time


def _unclear(
    probed: list[tuple[str, int]],
    rest: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
) -> set[int]:
    """The commits of ``rest`` whose ``probed`` stops hold fewer than _PROBE edits that reword
    no text: what they show of a site-wide edit is not yet enough."""
    named = Counter(_when(stop, pages) for stop in probed if edits.get(stop) is not None)
    return {_when(stop, pages) for stop in rest} - {
        when for when, n in named.items() if n >= _PROBE
    }


def _probes(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    commits: set[int] | None = None,
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The stops of ``wanted`` to name first (each one a section's census wants, and the first
    _PROBE of each commit's ``commit_only`` stops, by path; of ``commits`` only, when given: the
    next _PROBE of those whose first told nothing), and the rest: named only where
    the first found a site-wide edit (a commit that made one shows it on any of its pages; one
    without, most commits, costs _PROBE pages, not all of its pages)."""
    first, later = [], []
    probed: Counter[int] = Counter()
    for stop in sorted(wanted):
        if stop in commit_only:
            when = _when(stop, pages)
            if commits is not None and when not in commits:
                later.append(stop)
                continue
            probed[when] += 1
            if probed[when] > _PROBE:
                later.append(stop)
                continue
        first.append(stop)
    return first, later


def _site_wide_commits(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
) -> set[int]:
    """The commits where one site-wide edit is the edit of more than half of the named
    ``stops`` there whose edit rewords no text: as it must be of all of the commit's, to be
    template."""
    named: Counter[int] = Counter()
    moves: Counter[tuple[int, str]] = Counter()
    for stop in stops:
        edit = edits.get(stop)
        if edit is not None:
            named[_when(stop, pages)] += 1
            if is_site_wide(edit):
                moves[_when(stop, pages), edit] += 1
    return {when for (when, _), count in moves.items() if 2 * count > named[when]}


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


def edit_key(path: str, newer: bytes, older: bytes) -> str:
    """An edit's key among remembered fingerprints (a state's blob table): "e", the two
    blobs' ids, "-" and 8 hex digits of a hash of ``path`` and how edits are named
    (_NAMING: a name given another way is not recalled)."""
    where = hashlib.blake2b(
        path.encode("utf-8", "surrogatepass"), digest_size=4, person=_NAMING
    ).hexdigest()
    return f"e{newer.decode('ascii')}{older.decode('ascii')}-{where}"


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
    for path, run in pages.items():
        end = run.end
        if end < len(run.chain) and run.chain[end].blob is not None:
            found.append((path, end))
            per_commit[section_of(path), run.chain[end - 1].time] += 1
    site_wide: Counter[int] = Counter()
    for (_, time), count in per_commit.items():
        site_wide[time] += count
    stops, commit_only = [], set()
    for path, end in found:
        when, size = pages[path].chain[end - 1].time, sections[section_of(path)]
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
