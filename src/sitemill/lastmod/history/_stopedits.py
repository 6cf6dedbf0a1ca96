"""The edit at each stop of a page's walk named: remembered from an earlier run, or read."""
# history.templateedits counts the edits; here each one is named from the two versions around its
# stop (edits.edit_of and exact_of), or STAMP_EDIT when it changed only the commits' stamps
# (history.stamps), only moved another site's scheme and host or only re-pointed links within
# the documents they lead to (no content either), and
# remembered under its edit_key so that no run reads those versions again.

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final
from urllib.parse import urlsplit

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import file_url
from sitemill.lastmod.fingerprint.targets import target
from sitemill.lastmod.history._editparts import edit_sketch, edit_tokens, parts_named
from sitemill.lastmod.history._targetmoves import hosts_moved_alone
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import REPOINTED, edit_key, names_of
from sitemill.lastmod.history.stamps import CommitStamps
from sitemill.lastmod.history.walk import HELD_CHARS, Run

# A reduction of a page's bytes (fingerprint.reduction), by the page's site path.
Reduce = Callable[[str, bytes], str]
_GROUP: Final = 64  # stops whose two versions are held reduced at once
NO_EDIT: Final = "0" * 32  # (remembered for a stop whose versions git lacks)
# The name of an edit that only changed the commits' stamps (history.stamps): no content.
STAMP_EDIT: Final = "4" + "0" * 31
# Edits, their exact names (edits.exact_of), their parts (editparts.edit_parts), their sketches
# (editparts.edit_sketch) or their tokens (editparts.edit_tokens) by stop (path, its run's end).
Edits = dict[tuple[str, int], str | None]
# The names of a stop's edit a state remembers, in the order name_stops takes them: its key's
# (exact, kind). Its tokens are this run's alone (TOKENS: no state holds a name that long).
_NAMES: Final = ((False, ""), (True, ""), (False, "parts"), (False, "sketch"))
TOKENS: Final = (False, "tokens")
# A stop's edit, exact edit, parts, sketch and tokens, each by stop (name_stops fills them).
StopEdits = tuple[Edits, Edits, Edits, Edits, Edits]
# Where a StopEdits holds the parts, and the tokens: after the names a state remembers.
PARTS_AT: Final = _NAMES.index((False, "parts"))
TOKENS_AT: Final = len(_NAMES)


class HeldReductions:
    """The reductions of the versions name_stops read, by (blob, page path), the newest kept
    while they hold at most ``limit`` characters: a page carried past its stop stops next
    where its newer version is often the older one of the last (history.templateedits' rounds:
    a stamp on every deploy), which is then neither read from git nor reduced again."""

    def __init__(self, limit: int = HELD_CHARS) -> None:
        self._held: dict[tuple[bytes, str], str] = {}
        self._size, self._limit = 0, limit

    def get(self, blob: bytes, path: str) -> str | None:
        return self._held.get((blob, path))

    def add(self, blob: bytes, path: str, reduction: str) -> None:
        if (blob, path) in self._held or len(reduction) > self._limit:
            return
        self._held[blob, path] = reduction
        self._size += len(reduction)
        while self._size > self._limit:  # (the oldest first)
            self._size -= len(self._held.pop(next(iter(self._held))))


# A stop to name elsewhere: its page, the blobs of its newer and older versions, their commits'
# times, their reductions held (None: to be read); and what names them there
# (history.stopnames.spread_names: the walk's worker processes): each one's names (None: git
# lacks a version), and the reductions it made.
StopVersions = tuple[str, tuple[bytes, bytes], tuple[int, int], tuple[str | None, str | None]]
Spread = Callable[[list[StopVersions]], "SpreadNames"]
SpreadNames = tuple[list[tuple[str, ...] | None], dict[tuple[bytes, str], str]]
# What names a stop's edit: the git to read blobs with, a reduction, the commits' stamps (None:
# none), the reductions held from the stops named before, where stops whose versions none holds
# are named instead of here (None: here), and the base URL the reduction resolves links from.
StopReader = tuple[GitBatch, Reduce, CommitStamps | None, HeldReductions, Spread | None, str]


def name_stops(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    reader: StopReader,
    edits: StopEdits,
) -> int:
    """Name the edit of each stop of ``stops``, its exact edit, its parts and its sketch
    (remembered, or read: _name_edits) and remember them; return the number of blobs read."""
    read = _name_edits(_unknown(stops, pages, remembered, edits), pages, reader, edits)
    for path, end in stops:
        for (exact, kind), found in zip(_NAMES, edits[: len(_NAMES)], strict=True):
            key = _edit_key_of(path, pages[path], end, exact=exact, kind=kind)
            if key is not None:
                remembered[1][key] = found.get((path, end)) or NO_EDIT
    return read


def _unknown(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    edits: StopEdits,
) -> list[tuple[str, int]]:
    """The stops of ``wanted`` whose edit no run named before (the others are named in
    ``edits`` from what is remembered)."""
    unknown = []
    for path, end in wanted:
        keys = [_edit_key_of(path, pages[path], end, exact=e, kind=k) for e, k in _NAMES]
        named = [None if key is None else recall_name(remembered, key) for key in keys]
        if None in named:
            unknown.append((path, end))
            continue
        for found, name in zip(edits, named, strict=False):
            found[path, end] = None if name == NO_EDIT else name
        tokens = _edit_key_of(path, pages[path], end, exact=TOKENS[0], kind=TOKENS[1])
        if tokens is not None and (held := remembered[0].get(tokens)) is not None:
            edits[TOKENS_AT][path, end] = held  # (the walk's workers named it: history.stopnames)
    return unknown


def read_tokens(
    stops: list[tuple[str, int]], pages: Mapping[str, Run], reader: StopReader, edits: StopEdits
) -> int:
    """Name the tokens (editparts.edit_tokens) of the stops of ``stops`` whose names were
    recalled without them (an earlier run's state holds none: a name that long is this run's),
    reading their versions again (not of a stop git gave no versions of: it has no name);
    return the number of blobs read."""
    named, tokens = edits[0], edits[TOKENS_AT]
    wanted = [stop for stop in stops if stop not in tokens and named.get(stop) is not None]
    if not wanted:
        return 0
    fresh: StopEdits = ({}, {}, {}, {}, {})
    read = _name_edits(wanted, pages, reader, fresh)
    edits[TOKENS_AT].update(fresh[TOKENS_AT])
    return read


def _edit_key_of(path: str, run: Run, end: int, *, exact: bool, kind: str) -> str | None:
    """The edit_key of the stop at ``end`` of the run of ``path`` (None: a version deleted)."""
    newer, older = run.chain[end - 1].blob, run.chain[end].blob
    if newer is None or older is None:
        return None
    return edit_key(path, newer, older, exact=exact, kind=kind)


def recall_name(remembered: tuple[Mapping[str, str], dict[str, str]], key: str) -> str | None:
    """What this run (``remembered[1]``) or an earlier one (``[0]``) remembers under ``key``."""
    return remembered[1].get(key) or remembered[0].get(key)


def _name_edits(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    reader: StopReader,
    edits: StopEdits,
) -> int:
    """Name the edit at each stop of ``wanted`` from the two versions around it, read
    _GROUP stops at a time (or held: HeldReductions): STAMP_EDIT when it changed only the
    commits' stamps, else edit_of, exact_of and edit_parts (edits.names_of: each version's
    tokens made once); a stop whose versions git lacks gets none (it is no template). Stops
    whose versions none holds are named by the StopReader's Spread, if any, several at once.
    Of the versions read here, the older ones at the stops are held (the next stop's newer
    ones): a newer one held would push out the versions the walk reduced (walk.HELD_CHARS)
    before a commit's census names the edits there (issue 79: doxygen's release on 532 pages
    reduced 449 of them twice)."""
    batch, reduce, stamps, held, spread, base = reader
    read = 0
    if spread is not None:
        wanted, read = _spread(wanted, pages, (spread, held), edits)
    for start in range(0, len(wanted), _GROUP):
        group = wanted[start : start + _GROUP]
        needed: dict[bytes, set[str]] = {}
        reductions: dict[tuple[bytes, str], str] = {}
        older_ones: set[tuple[bytes, str]] = set()  # (the next stop's newer versions: held)
        for path, end in group:
            for version in pages[path].chain[end - 1 : end + 1]:
                if version.blob is None:
                    continue
                if (reduced := held.get(version.blob, path)) is not None:
                    reductions[version.blob, path] = reduced
                else:
                    needed.setdefault(version.blob, set()).add(path)
            if (before := pages[path].chain[end].blob) is not None:
                older_ones.add((before, path))
        for blob, data in read_blobs(batch, list(needed)):
            read += 1
            if data is not None:
                for path in needed[blob]:
                    reductions[blob, path] = reduce(path, data)
                    if (blob, path) in older_ones:
                        held.add(blob, path, reductions[blob, path])
        for path, end in group:
            chain = pages[path].chain
            newer = reductions.get((chain[end - 1].blob, path))  # type: ignore[arg-type]
            older = reductions.get((chain[end].blob, path))  # type: ignore[arg-type]
            if newer is not None and older is not None:
                times = (chain[end - 1].time, chain[end].time)
                named = stop_names((newer, older), own_path(base, path), stamps, times)
                for found, name in zip(edits, named, strict=True):
                    found[path, end] = name
    return read


def _spread(
    wanted: list[tuple[str, int]],
    pages: Mapping[str, Run],
    spread: tuple[Spread, HeldReductions],
    edits: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """Name the stops of ``wanted`` with ``spread[0]`` (when two or more have both versions),
    with the reductions held of them, holding those it made; return the others, and the blobs
    read."""
    name, held = spread
    fresh, rest = [], []
    for path, end in wanted:
        newer, older = pages[path].chain[end - 1], pages[path].chain[end]
        if newer.blob is None or older.blob is None:
            rest.append((path, end))
            continue
        reduced = (held.get(newer.blob, path), held.get(older.blob, path))
        versions = (path, (newer.blob, older.blob), (newer.time, older.time), reduced)
        fresh.append(((path, end), versions))
    if len(fresh) < 2:
        return wanted, 0
    names, reductions = name([versions for _, versions in fresh])
    for (stop, _), named in zip(fresh, names, strict=True):
        for found, name_of in zip(edits, named or (), strict=False):
            found[stop] = name_of
    for (blob, path), reduction in reductions.items():
        held.add(blob, path, reduction)
    unread = {
        blob
        for _, (_, blobs, _, reduced) in fresh
        for blob, kept in zip(blobs, reduced, strict=True)
        if kept is None
    }
    return rest, len(unread)


def own_path(base: str, path: str) -> str:
    """The path of the page at site path ``path`` as its reduction spells a link to it
    (fingerprint.targets, from the ``base`` URL: "/blog/posts/a" for "posts/a/index.html" at
    https://example.org/blog/), what a link that leads to the page itself is told by; "" with
    no base URL (the reduction then knows no page to be: edits.edit_of's ``own``)."""
    url = file_url(base, path)
    if not url:
        return ""
    page = urlsplit(url).path or "/"
    return target(page, "", page)


def stop_names(
    reductions: tuple[str, str], own: str, stamps: CommitStamps | None, times: tuple[int, int]
) -> tuple[str, str, str, str, str]:
    """The names of the edit from ``reductions[1]`` (the older version's, of the commit at
    ``times[1]``) to ``reductions[0]`` (the newer's, at ``times[0]``) of the page whose path
    the reduction spells ``own`` (own_path): its edit, exact edit, parts and sketch
    (edits.names_of, editparts.parts_named and edit_sketch) and tokens (edit_tokens), or
    STAMP_EDIT five times when it changed only the commits' stamps (``stamps``), only moved
    another site's scheme and host (targetmoves.hosts_moved_alone) or only re-pointed links
    within the documents they lead to (edits.REPOINTED): no content."""
    newer, older = reductions
    if stamps is not None and stamps.is_stamp_edit(newer, older, times):
        return STAMP_EDIT, STAMP_EDIT, STAMP_EDIT, STAMP_EDIT, STAMP_EDIT
    edit, exact, moves, links = names_of(newer, older, own)
    if hosts_moved_alone(moves) or edit == REPOINTED:  # (no content either: see above)
        return STAMP_EDIT, STAMP_EDIT, STAMP_EDIT, STAMP_EDIT, STAMP_EDIT
    return edit, exact, parts_named(moves), edit_sketch(moves), edit_tokens(moves, links)


def stop_keys(path: str, run: Run, end: int, *, tokens: bool = False) -> list[str] | None:
    """The keys name_stops remembers the names of the stop at ``end`` of the run of ``path``
    under, in stop_names' order (None: a version deleted); ``tokens``: and the key its tokens
    are recalled under in this run (history.stopnames: the walk's workers name them)."""
    named = (*_NAMES, TOKENS) if tokens else _NAMES
    keys = [_edit_key_of(path, run, end, exact=exact, kind=kind) for exact, kind in named]
    return None if None in keys else [key for key in keys if key is not None]
