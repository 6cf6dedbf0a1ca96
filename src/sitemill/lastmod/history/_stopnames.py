"""The edits at the stops of a walk through git named where the walk reduced their versions."""
# history.templateedits names the edit at each stop worth naming from the two versions around it
# (stopedits.name_stops). Those are the versions the walk has just fingerprinted, in a worker
# process: reading and reducing them again in the parent, after the pool, was half of a first
# run's time on a history of template edits (content-dates-2k: 23 of 53 s, in one process). So
# the walk's worker names the stops of its files while it holds their reductions, and hands the
# names back (walk.Walked.named), which the parent recalls as it recalls an earlier run's.
#
# Only where a stop may be named at all: at a commit that changed at least BUSY of the pages
# dated (a stop is worth naming where more than half of a section of at least MIN_SECTION pages
# stops at its commit, or MIN_SECTION pages of the site; a section's census counts a commit
# that changed more than half of such a section). A page's own edit, in a commit of its own,
# costs nothing here.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history._stopedits import (
    Reduce,
    StopVersions,
    own_path,
    stop_keys,
    stop_names,
)
from sitemill.lastmod.history._walkgit import KEPT, blob_reader
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.stamps import CommitStamps
from sitemill.lastmod.history.walk import (
    Fingerprint,
    Named,
    Reductions,
    Run,
    fingerprint_with_reduction,
    hand,
)
from sitemill.workers.workpool import WorkPool, cut

# Stops named together in a worker, their versions' reductions held at once (stopedits').
_GROUP: Final = 64
# The fewest pages a commit changed for a stop there to be named (see above).
BUSY: Final = MIN_SECTION // 2 + 1
# This process's commit stamps (history.stamps) for the walk of one token: one git log.
_STAMPS: dict[str, CommitStamps] = {}


def busy_commits(runs: Mapping[str, Run]) -> frozenset[int]:
    """The commits (by time, as probes.commit_of names them) that changed at least BUSY of the
    pages of ``runs`` (an older version with content made a newer one)."""
    changed: Counter[int] = Counter()
    for path, run in runs.items():
        if path.lower().endswith(HTML_SUFFIXES):
            chain = run.chain
            for index in range(len(chain) - 1):
                if chain[index].blob is not None and chain[index + 1].blob is not None:
                    changed[chain[index].time] += 1
    return frozenset(when for when, count in changed.items() if count >= BUSY)


def commit_stamps(top: Path, token: str) -> CommitStamps:
    """The stamps of the commits of ``top`` for the walk of ``token`` (one for each process)."""
    if token not in _STAMPS:
        _STAMPS.clear()
        _STAMPS[token] = CommitStamps(blob_reader(top))
    return _STAMPS[token]


def name_walk_stops(
    walk: tuple[Path, str, frozenset[int], Fingerprint, str],
    batch: GitBatch,
    runs: dict[str, Run],
    held: Reductions,
) -> Named:
    """The names of the edits at the stops of ``runs`` at a busy commit, by the keys
    stopedits.name_stops remembers them under, from the reductions the walk ``held``
    (walk.NameStops); and the reductions of the older versions there (a page carried past its
    stop stops next where that version is the newer one). A stop at the tip is named where
    the walk took the current fingerprint itself (the tip's blob, read, is compared with the
    file it reduced: a checkout may convert line ends); at another, only its older version's
    reduction is handed back: of many stops at one commit, history.probes names a few, and
    the tip's reduction would cost as much as naming it in the parent. ``walk``: the work
    tree's top, the walk's token (commit_stamps), the busy commits (busy_commits), the walk's
    fingerprint (which reduces a tip whose bytes differ), the base URL it resolves links from."""
    top, token, busy, fingerprint, base = walk
    stops = {path: run.end for path, run in runs.items() if _worth_naming(path, run, busy)}
    tips = {path: runs[path] for path, end in stops.items() if end == 1 and path in held.current}
    _reduce_tips(batch, tips, held, fingerprint)
    named: dict[str, str] = {}
    older_ones: dict[tuple[bytes, str], str] = {}
    for path, end in stops.items():
        chain, keys = runs[path].chain, stop_keys(path, runs[path], end, tokens=True)
        newer = held.versions.get((chain[end - 1].blob or b"", path))
        older = held.versions.get((chain[end].blob or b"", path))
        if older is not None:
            older_ones[chain[end].blob or b"", path] = older
        if newer is None or older is None or keys is None:
            continue
        times = (chain[end - 1].time, chain[end].time)
        own = own_path(base, path)
        names = stop_names((newer, older), own, commit_stamps(top, token), times)
        named.update(zip(keys, names, strict=True))
    return named, older_ones


def _worth_naming(path: str, run: Run, busy: frozenset[int]) -> bool:
    """Whether the run of ``path`` stops at a version with content (not a deletion, not the
    end of its history) of a busy commit, where the two versions around it stand nowhere
    else in its history side by side (a name remembered by their blobs is the first stop's)."""
    chain, end = run.chain, run.end
    if end >= len(chain) or not path.lower().endswith(HTML_SUFFIXES):
        return False
    newer, older = chain[end - 1].blob, chain[end].blob
    if newer is None or older is None or chain[end - 1].time not in busy:
        return False
    pairs = pairwise(chain)
    return sum(a.blob == newer and b.blob == older for a, b in pairs) == 1


def _reduce_tips(
    batch: GitBatch, runs: dict[str, Run], held: Reductions, fingerprint: Fingerprint
) -> None:
    """Add to ``held`` the reductions of the newest versions of ``runs`` (their tips), read
    from git: the work tree's file's (held.current) where it has the blob's bytes, else
    reduced here."""
    wanted: dict[bytes, list[str]] = {}
    for path, run in runs.items():
        if (tip := run.chain[0].blob) is not None:
            wanted.setdefault(tip, []).append(path)
    for blob, data in read_blobs(batch, list(wanted)):
        for path in wanted[blob]:
            if data is None:
                break
            taken = held.current.get(path)
            reduction = taken[1] if taken is not None and taken[0] == data else None
            if reduction is None:
                reduction = fingerprint_with_reduction(fingerprint, path, data)[1]
            if reduction is not None:
                held.versions[blob, path] = reduction


def spread_names(
    pool: WorkPool, names: tuple[Path, str, Reduce, str], stops: list[StopVersions]
) -> tuple[list[tuple[str, ...] | None], dict[tuple[bytes, str], str]]:
    """stopedits.Spread over the workers of ``pool``: each names parts of ``stops``
    (name_versions with ``names``), several a worker (workpool.cut: a census's four stops,
    one of them read and reduced, the others' reductions held, are four parts, not two); the
    reductions they made, up to HANDED_CHARS a part."""
    parts = [list(part) for part in cut(stops, pool.workers)]
    named: list[tuple[str, ...] | None] = []
    reduced: dict[tuple[bytes, str], str] = {}
    for part_names, part_reduced in pool.imap(partial(name_versions, names), parts):
        named += part_names
        reduced.update(part_reduced)
    return named, reduced


def name_versions(
    names: tuple[Path, str, Reduce, str], stops: list[StopVersions]
) -> tuple[list[tuple[str, ...] | None], dict[tuple[bytes, str], str]]:
    """The names of the edits at ``stops`` (None: git lacks a version), read with this
    process's kept git and reduced with ``names``' reduction (the work tree's top, the walk's
    token, the reduction, the base URL it resolves links from); and the reductions made, up
    to HANDED_CHARS."""
    top, token, reduce, base = names
    found: list[tuple[str, ...] | None] = []
    handed: dict[tuple[bytes, str], str] = {}
    with KEPT.batch(blob_reader(top)) as batch:
        for start in range(0, len(stops), _GROUP):
            group = stops[start : start + _GROUP]
            needed: dict[bytes, set[str]] = {}
            reductions = {}
            for path, blobs, _, held in group:
                for blob, reduced in zip(blobs, held, strict=True):
                    if reduced is None:
                        needed.setdefault(blob, set()).add(path)
                    else:
                        reductions[blob, path] = reduced
            made = {}
            for blob, data in read_blobs(batch, list(needed)):
                for path in needed[blob]:
                    if data is not None:
                        reductions[blob, path] = made[blob, path] = reduce(path, data)
            for path, (newer, older), times, _ in group:
                pair = reductions.get((newer, path)), reductions.get((older, path))
                if pair[0] is None or pair[1] is None:
                    found.append(None)
                    continue
                own = own_path(base, path)
                found.append(stop_names((pair[0], pair[1]), own, commit_stamps(top, token), times))
            hand({}, handed, ({}, made))
    return found, handed
