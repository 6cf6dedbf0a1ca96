"""A block's edit counted over every page of its commit, wherever it stood (history.tokencensus)."""
# An edit on most pages of a commit is the template, wherever it stands on each page (issue 79,
# read97a's A2). A Publii theme's sidebar stands outside a post's region and is read as text on
# a list page that has none: a commit that rewrote the sidebar's "Get in touch" block on all the
# 54 pages it changed made that edit on each, but only the list pages' reductions hold it, so
# their edit was named apart from the posts' and no census found it on most pages. Where the
# census of a commit's tokens leaves a stop whose tokens most pages did not make are the page's
# words (no other site's move), the commit's pages are read whole (the body, no region), first
# PROBE of those whose region did not make those words, all of them only where each of those
# made them in its body: the tokens each page made, in its region or in its body, are counted
# then, and a stop whose every token most pages made has no edit of its own. Bodies are read at
# no other commit (a page's own words stand in no other page's body: the probe ends there).

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

from sitemill.lastmod.history._editparts import NO_KIND, census_tokens, edit_tokens
from sitemill.lastmod.history._stopedits import Reduce, StopReader, own_path
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import names_of
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.walk import Run

PROBE: Final = MIN_SECTION  # (pages read whole first, of a commit with such a stop)
# Each stop's tokens (editparts.census_tokens: none for an edit too large to count), by stop.
Tokens = dict[tuple[str, int], frozenset[str]]
# What reads the stops' whole bodies' tokens (whole_tokens, bound to the pages and a reader),
# returning them and the blobs read.
ReadWhole = Callable[[list[tuple[str, int]]], tuple[Tokens, int]]


def body_reading(reduce: Reduce) -> Reduce | None:
    """``reduce`` reading the whole body of a page (no main region), or None where it reads
    the whole body already or is not a reduction that reads a region (a partial of
    fingerprint.digest.reduce_file)."""
    if isinstance(reduce, partial) and reduce.keywords.get("main", True):
        return partial(reduce, main=False)
    return None


def whole_tokens(
    stops: list[tuple[str, int]], pages: Mapping[str, Run], reader: StopReader
) -> tuple[Tokens, int]:
    """The tokens (editparts.edit_tokens, as census_tokens gives them) of the edit at each
    stop of ``stops`` with both versions read whole (body_reading), and the blobs read."""
    batch, reduce, _, _, _, base = reader
    body = body_reading(reduce)
    if body is None:
        return {}, 0
    wanted: dict[bytes, set[str]] = {}
    for path, end in stops:
        for version in pages[path].chain[end - 1 : end + 1]:
            if version.blob is not None:
                wanted.setdefault(version.blob, set()).add(path)
    reduced: dict[tuple[bytes, str], str] = {}
    read = 0
    for blob, data in read_blobs(batch, list(wanted)):
        read += 1
        if data is not None:
            for path in wanted[blob]:
                reduced[blob, path] = body(path, data)
    found: Tokens = {}
    for path, end in stops:
        chain = pages[path].chain
        newer = reduced.get((chain[end - 1].blob, path))  # type: ignore[arg-type]
        older = reduced.get((chain[end].blob, path))  # type: ignore[arg-type]
        if newer is not None and older is not None:
            _, _, moves, links = names_of(newer, older, own_path(base, path))
            many, tokens = census_tokens(edit_tokens(moves, links))
            found[path, end] = frozenset() if many else frozenset(tokens)
    return found, read


def block_left(unmade: frozenset[str]) -> bool:
    """Whether the tokens of a stop's edit that most of its commit's pages did not make
    (``unmade``) may be a block read elsewhere outside the region: the page's words or its
    own site's marks alone, none of another site's targets."""
    return bool(unmade) and all(token[:4] == NO_KIND for token in unmade)


def read_blocks(
    left: Mapping[tuple[str, int], frozenset[str]],
    commit: list[tuple[str, int]],
    region: Tokens,
    whole: ReadWhole,
) -> tuple[Tokens, int]:
    """The tokens each page of ``commit`` (every page one commit changed) made in its body
    (whole), where the stops ``left`` (each with the tokens most pages did not make in their
    region) may be a block's edit: PROBE of the pages whose region (``region``: their tokens)
    did not make a stop's tokens read first, spread over them, and every page only where each
    of those made the tokens of one such stop in its body; none else. And the blobs read."""
    wanted = [unmade for unmade in left.values() if block_left(unmade)]
    if not wanted:
        return {}, 0
    first = wanted[0]
    others = [stop for stop in commit if not first <= region.get(stop, frozenset())]
    step = max(1, len(others) // PROBE)
    probed = others[::step][:PROBE]
    if len(probed) < min(PROBE, len(others)) or not probed:
        return {}, 0
    found, read = whole(probed)
    empty: frozenset[str] = frozenset()
    shown = [found.get(stop, empty) | region.get(stop, empty) for stop in probed]
    if not any(all(unmade <= tokens for tokens in shown) for unmade in wanted):
        return {}, read
    more, also = whole([stop for stop in commit if stop not in found])
    return {**found, **more}, read + also
