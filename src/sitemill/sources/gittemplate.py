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

An edit that adds, drops or rewords the text's words (beyond their letter case) is never
template, however many pages it is made on: what a reader reads changed (a theme's new
decoration of a post's closing words, a release number in the text). A page whose commit
also changed its own words keeps that date; a new post's teaser, added to the home page and a
few archive pages, is an edit of few pages. Only pages whose walk reaches a commit count for
it, so an edit is taken as template on less evidence than it has, never on more.
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
    removed = sorted(old - new)
    added = sorted(new - old)
    text = "\0".join((*removed, "\1", *added))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


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
    for _ in range(MAX_ROUNDS):
        stops = _stops(pages, sections)
        wanted = [stop for stop in stops if stop not in edits]
        read += _name_edits(_unknown(wanted, pages, remembered, edits), pages, batch, reduce, edits)
        for path, end in wanted:
            key = _edit_key_of(path, pages[path], end)
            if key is not None:
                remembered[1][key] = edits.get((path, end)) or NO_EDIT
        named = [(path, end) for path, end in stops if edits.get((path, end)) is not None]
        census = Counter(_place(path, end, pages, edits) for path, end in named)
        reference = {}
        for path, end in named:
            if 2 * census[_place(path, end, pages, edits)] <= sections[section_of(path)]:
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


def edit_key(path: str, newer: bytes, older: bytes) -> str:
    """An edit's key among remembered fingerprints (a state's blob table): "e", the two
    blobs' ids, "-" and the hash of ``path`` that gitwalk.blob_key writes."""
    return "e" + newer.decode("ascii") + blob_key(path, older)[1:]


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


def _stops(pages: Mapping[str, Run], sections: Counter[str]) -> list[tuple[str, int]]:
    """The pages whose run stops at an older version with content (not a deletion, not the
    end of the history), where more than half of their section's pages stop at one commit:
    the stops (path, the run's end) whose edits are worth naming."""
    found: list[tuple[str, int]] = []
    per_commit: Counter[tuple[str, int]] = Counter()
    for path, run in pages.items():
        if sections[section_of(path)] < MIN_SECTION:
            continue
        end = run.end
        if end < len(run.chain) and run.chain[end].blob is not None:
            found.append((path, end))
            per_commit[section_of(path), run.chain[end - 1].time] += 1
    return [
        (path, end)
        for path, end in found
        if 2 * per_commit[section_of(path), pages[path].chain[end - 1].time]
        > sections[section_of(path)]
    ]


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
