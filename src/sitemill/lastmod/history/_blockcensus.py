"""A block's edit counted over every page of its commit, wherever it stood (history.tokencensus)."""
# An edit on most pages of a commit is the template, wherever it stands on each page (issue 79,
# read97a's A2). A Publii theme's sidebar stands outside a post's region and is read as text on
# a list page that has none: a commit that rewrote the sidebar's "Get in touch" block on all the
# 54 pages it changed made that edit on each, but only the list pages' reductions hold it, so
# their edit was named apart from the posts' and no census found it on most pages.
#
# A block is a run of the reduction between two marks (a paragraph, a list's text, a link's
# words; the title aside, whose words the census of tokens counts a part at a time) that says a
# sentence's worth (excerpts.MIN_LETTERS). Where the census of a commit's tokens leaves a stop
# whose tokens most pages did not make are words (no other site's move), the blocks its
# region's edit took out and put in are looked for in the other pages' whole bodies (their
# reduction with no region, furniture and all): first WHOLE_PROBE of the commit's pages whose region
# did not make those words, then all of them where each of those took out or put in, in its
# body, blocks that hold the stop's (each of its words: the region may read part of a block, a
# heading above it or a line inside it left out). A stop whose every block most of the commit's
# pages took out or put in alike so, and whose edit without those blocks holds no word most
# pages did not make, made no edit of its own. A block only the stop changed is its own, though
# the commit changed the same words elsewhere on every page (a blog's author renamed in every
# page's footer and byline and in the about page's heading: the about page is dated by it).
# Bodies are read at no other commit.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

from sitemill.lastmod.fingerprint.excerpts import MIN_LETTERS, count_letters
from sitemill.lastmod.fingerprint.targetmarks import TITLE_END
from sitemill.lastmod.history._editparts import NO_KIND, census_tokens, edit_tokens
from sitemill.lastmod.history._stopedits import (
    Reduce,
    StopEdits,
    StopReader,
    name_stops,
    own_path,
    read_tokens,
)
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import names_of, reorders, sum_edit, token_sum
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.walk import Run

WHOLE_PROBE: Final = MIN_SECTION  # (pages read whole first, of a commit with such a stop)
_EDGE: Final = "\x01"  # (what stands between a reduction's marks and runs of text)
# A stop's versions reduced (newer, older), by stop.
Reduced = dict[tuple[str, int], tuple[str, str]]
# What reads stops' versions whole (whole=True: their bodies, body_reading) or as the walk
# does (their region), returning them and the blobs read (read_around, bound to the pages
# and a reader).
Names = Callable[[list[tuple[str, int]]], int]  # (name or read the stops given: blobs read)
ReadVersions = Callable[[list[tuple[str, int]], bool], tuple[Reduced, int]]
# read_around bound, the base URL, and each block census already made (by its stops left and
# the commit's stops: a later round of template edits asks the same again, and is answered).
Whole = tuple[
    ReadVersions,
    str,
    dict[tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]], set[tuple[str, int]]],
]


def body_reading(reduce: Reduce) -> Reduce | None:
    """``reduce`` reading the whole body of a page (no main region), or None where it reads
    the whole body already or is not a reduction that reads a region (a partial of
    fingerprint.digest.reduce_file)."""
    if isinstance(reduce, partial) and reduce.keywords.get("main", True):
        return partial(reduce, main=False)
    return None


def read_around(
    stops: list[tuple[str, int]], whole: bool, pages: Mapping[str, Run], reader: StopReader
) -> tuple[Reduced, int]:
    """The two versions around each stop of ``stops``, reduced ``whole`` (their bodies:
    body_reading; none where it reads nothing more) or as the walk reduces them (held ones not
    read again: stopedits.HeldReductions), and the blobs read."""
    batch, reduce, _, held, _, _ = reader
    body = body_reading(reduce) if whole else reduce
    if body is None:
        return {}, 0
    wanted: dict[bytes, set[str]] = {}
    reduced: dict[tuple[bytes, str], str] = {}
    for path, end in stops:
        for version in pages[path].chain[end - 1 : end + 1]:
            if version.blob is None:
                continue
            if not whole and (same := held.get(version.blob, path)) is not None:
                reduced[version.blob, path] = same  # (as the walk or name_stops reduced it)
            else:
                wanted.setdefault(version.blob, set()).add(path)
    read = 0
    for blob, data in read_blobs(batch, list(wanted)):
        read += 1
        if data is not None:
            for path in wanted[blob]:
                reduced[blob, path] = body(path, data)
    found: Reduced = {}
    for path, end in stops:
        chain = pages[path].chain
        newer = reduced.get((chain[end - 1].blob, path))  # type: ignore[arg-type]
        older = reduced.get((chain[end].blob, path))  # type: ignore[arg-type]
        if newer is not None and older is not None:
            found[path, end] = newer, older
    return found, read


def block_left(unmade: frozenset[str]) -> bool:
    """Whether the tokens of a stop's edit that most of its commit's pages did not make
    (``unmade``) may be a block's words read elsewhere outside the region: the page's words
    or its own site's marks alone, none of another site's targets."""
    return bool(unmade) and all(token[:4] == NO_KIND for token in unmade)


def read_blocks(
    left: Mapping[tuple[str, int], frozenset[str]],
    commit: list[tuple[str, int]],
    region: Mapping[tuple[str, int], frozenset[str]],
    reads: tuple[ReadVersions, str],
    alike: bool = False,
) -> tuple[set[tuple[str, int]], int]:
    """The stops of ``left`` (each with the tokens most pages of its commit did not make in
    their region) that made no edit of their own once the blocks most of the commit's pages
    (``commit``: every page it changed) took out or put in alike in their bodies are left out
    (see above), and the blobs read. ``region``: the pages' tokens; ``reads``: read_around
    bound, and the base URL (stopedits.own_path). ``alike``: most of the commit's pages read
    alike in their region, their change no edit: the others are asked too whether their whole
    body made only what most pages made in theirs (_same_bodies)."""
    wanted = {stop: unmade for stop, unmade in left.items() if block_left(unmade)}
    found, read = _read_blocks(wanted, commit, region, reads) if wanted else (set(), 0)
    if not alike:
        return found, read
    bodily, more = _same_bodies([stop for stop in left if stop not in found], commit, reads[0])
    return found | bodily, read + more


def _same_bodies(
    left: list[tuple[str, int]], commit: list[tuple[str, int]], read_of: ReadVersions
) -> tuple[set[tuple[str, int]], int]:
    """The stops of ``left`` whose whole body (furniture and all) made the edit most of the
    commit's pages (``commit``) made in theirs and no other (what it took out and put in,
    counted: edits.sum_edit), and the blobs read: what the commit changed on the page is the
    template's, whatever its region came to read (issue 79: a Pelican theme's skip link and
    the <main> it leads to put in every page of a commit, whose region most pages read alike;
    the list pages, read whole before, lost the sidebar's links from their region, and 4 of
    them were dated by it). Asked where most of the commit's pages read alike in their region
    (read_blocks's ``alike``); a stop whose body did not change is left to the other
    censuses."""
    if not left:
        return set(), 0
    mine, read = read_of(left, True)
    wanted = {stop: edit for stop, versions in mine.items() if (edit := _counted_edit(*versions))}
    others = [stop for stop in commit if stop not in mine]
    probed = others[:: max(1, len(others) // WHOLE_PROBE)][:WHOLE_PROBE]
    if not wanted or len(probed) < WHOLE_PROBE:
        return set(), read
    bodies, more = read_of(probed, True)
    read += more
    shown = Counter(_counted_edit(*bodies[stop]) for stop in probed if stop in bodies)
    if not any(2 * shown[edit] > shown.total() for edit in wanted.values()):
        return set(), read
    rest, more = read_of([stop for stop in others if stop not in bodies], True)
    every = Counter(_counted_edit(*versions) for versions in {**mine, **bodies, **rest}.values())
    most = max(len(commit), MIN_SECTION)
    return {stop for stop, edit in wanted.items() if 2 * every[edit] > most}, read + more


def _counted_edit(newer: str, older: str) -> int:
    """What an edit between two reductions took out and put in, counted (edits.sum_edit; 0:
    nothing)."""
    return sum_edit(token_sum(newer), token_sum(older))


def _read_blocks(
    wanted: Mapping[tuple[str, int], frozenset[str]],
    commit: list[tuple[str, int]],
    region: Mapping[tuple[str, int], frozenset[str]],
    reads: tuple[ReadVersions, str],
) -> tuple[set[tuple[str, int]], int]:
    """read_blocks's census of blocks, over the stops ``wanted`` whose tokens may be a
    block's words (block_left)."""
    read_of, base = reads
    stops, read = read_of(list(wanted), False)
    blocks = {stop: _blocks(*versions) for stop, versions in stops.items()}
    wanted = {stop: unmade for stop, unmade in wanted.items() if blocks.get(stop)}
    if not wanted:
        return set(), read
    first = next(iter(wanted.values()))
    others = [
        stop for stop in commit if stop not in wanted and not first <= region.get(stop, first)
    ]
    probed = others[:: max(1, len(others) // WHOLE_PROBE)][:WHOLE_PROBE]
    if len(probed) < WHOLE_PROBE:
        return set(), read
    bodies, more = read_of(probed, True)
    read += more
    shown = [_changed(*bodies[stop]) for stop in probed if stop in bodies]
    if not any(
        not _own_left(
            stops[stop], (path_own(stop, base), blocks[stop]), shown, 2 * len(shown) - 1, unmade
        )
        for stop, unmade in wanted.items()
    ):
        return set(), read
    rest, more = read_of([stop for stop in commit if stop not in bodies], True)
    read += more
    every = [_changed(*versions) for versions in {**bodies, **rest}.values()]
    most = max(len(commit), MIN_SECTION)
    return {
        stop
        for stop, unmade in wanted.items()
        if not _own_left(stops[stop], (path_own(stop, base), blocks[stop]), every, most, unmade)
    }, read


def path_own(stop: tuple[str, int], base: str) -> str:
    """The path a stop's page spells a link to itself with (stopedits.own_path)."""
    return own_path(base, stop[0])


def _own_left(
    versions: tuple[str, str],
    block: tuple[str, frozenset[str]],
    bodies: list[frozenset[str]],
    most: int,
    unmade: frozenset[str],
) -> frozenset[str]:
    """The tokens of ``unmade`` that the stop's edit (its ``versions``, newer and older) still
    makes without the blocks it took out and put in (``block``: its own path and those blocks)
    that more than half of ``most`` of the ``bodies`` (each page's blocks taken out and put in,
    whole) took out or put in alike, a block of the stop standing whole or in part in theirs."""
    own, blocks = block
    made = {
        mine
        for mine in blocks
        if 2 * sum(any(_holds(theirs, mine) for theirs in body) for body in bodies) > most
    }
    if made != blocks:  # (a block of its own: its edit is its own)
        return unmade
    newer, older = versions
    kept_newer = _without(newer, {mine[1:] for mine in made if mine[0] == "+"})
    kept_older = _without(older, {mine[1:] for mine in made if mine[0] == "-"})
    name, _, moves, links = names_of(kept_newer, kept_older, own)
    if kept_newer != kept_older and reorders(name):  # (what it kept, reordered: its own)
        return unmade
    many, tokens = census_tokens(edit_tokens(moves, links))
    return unmade if many else unmade & frozenset(tokens)


def _holds(theirs: str, mine: str) -> bool:
    """Whether a page's block ``theirs`` taken out or put in holds the stop's ``mine``,
    taken out or put in alike: each of its words (the region may read part of a block, a
    heading above it or a line inside it left out as repeated furniture)."""
    return theirs[0] == mine[0] and set(mine[1:].split()) <= set(theirs[1:].split())


def _without(reduction: str, runs: set[str]) -> str:
    """``reduction`` without the runs between its marks in ``runs``. Runs of text and marks
    alternate (text first), and the reduction is read so (edits.names_of): a run of text left
    out leaves an empty one in its place, and a mark (a description) leaves with its edge, the
    text on either side of it joined. (Issue 79: dropped alone, each run after it read as the
    other kind, a category list's own count, "Blog (11)" made "(14)" beside a description every
    page gained, was read as the links' words and judged no edit of its own.)"""
    parts = reduction.split(_EDGE)
    kept = [parts[0]]
    joined = False
    for at in range(1, len(parts)):
        part = parts[at]
        if at % 2 and part in runs:
            joined = True  # (a mark left out: the next run of text joins the last)
        elif joined:
            kept[-1] = f"{kept[-1]} {'' if part in runs else part}"
            joined = False
        else:
            kept.append("" if part in runs else part)
    return _EDGE.join(kept)


def _changed(newer: str, older: str) -> frozenset[str]:
    """The runs between the marks of two versions' reductions that the newer took out ("-")
    and put in ("+")."""
    old, new = Counter(older.split(_EDGE)), Counter(newer.split(_EDGE))
    return frozenset({"-" + run for run in old - new} | {"+" + run for run in new - old})


def _blocks(newer: str, older: str) -> frozenset[str]:
    """The runs of _changed that are blocks (a sentence's worth of letters: see above), the
    title's aside (its words are counted by the census of tokens, a part at a time)."""
    newer, older = newer.partition(TITLE_END)[2], older.partition(TITLE_END)[2]
    return frozenset(run for run in _changed(newer, older) if count_letters(run) >= MIN_LETTERS)


def stop_readers(
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    reader: StopReader,
    tables: StopEdits,
) -> tuple[Names, Names, Whole]:
    """How stops are named (stopedits.name_stops), their tokens read (read_tokens) and the
    commit's pages read whole (read_around) with the base URL."""
    name = partial(name_stops, pages=pages, remembered=remembered, reader=reader, edits=tables)
    tokens = partial(read_tokens, pages=pages, reader=reader, edits=tables)
    return name, tokens, (partial(read_around, pages=pages, reader=reader), reader[-1], {})
