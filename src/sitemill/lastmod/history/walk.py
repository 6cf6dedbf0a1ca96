"""Walking files back through their versions for content dates (history.contentdates)."""
# Each file's run of versions with its current fingerprint, extended blob by blob through ``git
# cat-file --batch``; a chunk of files per worker process, each with its own git.

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.lastmod.history._walkgit import KEPT, blob_reader
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.versions import Version

# What a walk through git history reduced around its runs' stops, and what it hands back.
# Characters of reductions a chunk's walk hands back (Walked.reduced) from a worker process: a
# few pages' of a chunk of 64, as history.stopedits.HeldReductions holds HELD_CHARS of them for
# the parent's later rounds.
HANDED_CHARS: Final = 256 << 10
# Characters of reductions HeldReductions keeps (the newest), 8 Mi. A
# walk in the parent's own process (``here``) hands back every version it reduced, up to as many:
# they cross no pipe, and no version is reduced again to name an edit there (issue 79: a census
# names the edit at a commit of pages whose walk went past it, a version the walk reduced).
HELD_CHARS: Final = 8 << 20


@dataclass(slots=True)
class Reductions:
    """What a walk of a few files reduced (Fingerprint's reductions): the versions around each
    run's stop, by (blob, path), and the current files it read, their bytes and reduction."""

    versions: dict[tuple[bytes, str], str] = field(default_factory=dict)
    current: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    def keep(self, blob: bytes, path: str, reduction: str) -> None:
        self.versions[blob, path] = reduction


# What names the stops of some runs (walk.NameStops) gives: the names, by edits.edit_key, and
# the older versions' reductions at the stops it named (history.stopnames).
Named = tuple[dict[str, str], dict[tuple[bytes, str], str]]


def hand(
    names: dict[str, str],
    reduced: dict[tuple[bytes, str], str],
    named: Named,
    most: int = HANDED_CHARS,
) -> None:
    """Add what ``named`` names to ``names``, and its reductions to ``reduced`` while it holds
    at most ``most`` characters."""
    names.update(named[0])
    room = most - sum(map(len, reduced.values()))
    for version, reduction in named[1].items():
        if len(reduction) <= room:
            reduced[version] = reduction
            room -= len(reduction)


# A file's fingerprint; or that and what it hashed of an HTML page, its reduction (None for
# another file: fingerprint.digest.fingerprint_reduced), which the walk keeps around its stops.
Fingerprint = Callable[[str, bytes], str] | Callable[[str, bytes], tuple[str, str | None]]
# Keeps a reduction the walk made of a version (its blob, the file's path) around a run's stop.
Keep = Callable[[bytes, str, str], None]
# Names the edits at the stops of some runs from the Reductions the walk made of them, with the
# batch it reads with (history.stopnames.name_walk_stops).
NameStops = Callable[[GitBatch, dict[str, "Run"], Reductions], Named]
# Reads a file of the work tree (None: it cannot be read; it then gets no fingerprint).
ReadFile = Callable[[str], bytes | None]
# Files walked back together, round by round.
_GROUP: Final = 16


@dataclass(slots=True)
class Walked:
    """What walking some files back found: how far each run holds (Run.end), the blob
    fingerprints compared, the files with a version git does not have, the blobs read."""

    ends: dict[str, int]
    blobs: dict[str, str]
    unreadable: set[str] = field(default_factory=set)
    read: int = 0
    current: dict[str, str] = field(default_factory=dict)  # the fingerprints it took
    sketches: dict[str, str] = field(default_factory=dict)  # theirs, from their reductions
    # The edits at the stops it named (history.stopnames), by their keys (edits.edit_key), and
    # the reductions of the older versions there, by (blob, path): the next stop's newer one.
    named: dict[str, str] = field(default_factory=dict)
    reduced: dict[tuple[bytes, str], str] = field(default_factory=dict)

    def merge(self, other: Walked) -> None:
        self.ends.update(other.ends)
        self.blobs.update(other.blobs)
        self.unreadable |= other.unreadable
        self.read += other.read
        self.current.update(other.current)
        self.sketches.update(other.sketches)
        self.named.update(other.named)
        self.reduced.update(other.reduced)


# Some files' runs, their current fingerprints (None: the walk takes it, reading the file),
# the remembered fingerprints of their versions: what a worker needs.
WalkChunk = tuple[dict[str, "Run"], dict[str, str | None], dict[str, str]]


def chunk_of(
    runs: dict[str, Run], current: Mapping[str, str], known: Mapping[str, str]
) -> WalkChunk:
    """The WalkChunk of ``runs``: those not in ``current`` get their fingerprint in the walk.
    With nothing ``known`` (a first run), no version's blob_key is made."""
    remembered: dict[str, str] = {}
    for path, run in runs.items() if known else ():
        for version in run.chain:
            key = None if version.blob is None else blob_key(path, version.blob)
            if key is not None and key in known:
                remembered[key] = known[key]
    return runs, {path: current.get(path) for path in runs}, remembered


def walk(
    top: Path,
    fingerprint: Fingerprint,
    read: ReadFile | None,
    chunk: WalkChunk,
    *,
    keep: bool = False,
    name: NameStops | None = None,
    here: bool = False,
) -> Walked:
    """Walk the runs of ``chunk`` back with a ``git cat-file --batch``, a few files at a
    time: first the current fingerprints it is to take (``read``), then their older versions,
    so that a fingerprint that remembers lines finds theirs. ``keep``: the batch stays open
    for this process's next chunk (a worker's; walkgit.release() or the process's end
    closes it). ``name``: names the edits at the stops of each few files from the reductions
    made around them (the walk's worker's, while it holds them), into Walked.named. ``here``: the
    walk runs in the process that names the rest (no worker's): it hands back every version it
    reduced, HELD_CHARS of them at most, not the older ones at the stops alone."""
    runs, wanted, known = chunk
    reader = blob_reader(top)
    walked = Walked(ends={}, blobs={})
    paths = list(runs)
    with KEPT.batch(reader) if keep else reader.batch("cat-file", "--batch") as batch:
        for start in range(0, len(paths), _GROUP):
            group = {path: runs[path] for path in paths[start : start + _GROUP]}
            held = None if name is None else Reductions()
            taken = (walked.current, walked.sketches, held)
            current = _current(group, wanted, fingerprint, read, taken)
            remembered = (known, walked.blobs)
            kept = None if held is None else held.keep
            walked.read += compare_versions(
                batch, group, fingerprint, current, remembered, walked.unreadable, kept, every=here
            )
            if name is not None and held is not None:
                named = name(batch, group, held)
                if here:
                    named = (named[0], {**held.versions, **named[1]})
                hand(walked.named, walked.reduced, named, HELD_CHARS if here else HANDED_CHARS)
    walked.ends = {path: run.end for path, run in runs.items()}
    return walked


def _current(
    group: Mapping[str, Run],
    wanted: Mapping[str, str | None],
    fingerprint: Fingerprint,
    read: ReadFile | None,
    taken: tuple[dict[str, str], dict[str, str], Reductions | None],
) -> dict[str, str]:
    """The current fingerprints of ``group``: given, or taken here from the work tree
    (and added to ``taken[0]``, the resemblance sketches of their reductions to ``taken[1]``,
    their bytes and reductions to ``taken[2]``); a file that cannot be read has none."""
    current = {}
    for path in group:
        found = wanted.get(path)
        if found is None and read is not None and (data := read(path)) is not None:
            found, reduction = fingerprint_with_reduction(fingerprint, path, data)
            taken[0][path] = found
            if reduction is not None and (sketch := sketch_text(reduction)) is not None:
                taken[1][path] = sketch
            if taken[2] is not None and reduction is not None:
                taken[2].current[path] = (data, reduction)
        if found is not None:
            current[path] = found
    return current


def fingerprint_with_reduction(
    fingerprint: Fingerprint, path: str, data: bytes
) -> tuple[str, str | None]:
    """The fingerprint of ``data`` at ``path``, and its reduction when ``fingerprint`` gives
    one (None: another file, or a fingerprint that gives none)."""
    found = fingerprint(path, data)
    return found if isinstance(found, tuple) else (found, None)


def blob_key(path: str, blob: bytes) -> str:
    """A blob's key among remembered fingerprints: "h" (fingerprinted as HTML) or "b" (as
    bytes), then its id; an HTML blob's, then "-" and 8 hex digits of a hash of ``path``: its
    links are resolved from the page's URL (fingerprint version 3), so the same bytes at two
    paths (a copy of the docs in stable/ and latest/) may have two fingerprints."""
    if not path.lower().endswith(HTML_SUFFIXES):
        return "b" + blob.decode("ascii")
    where = hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"h{blob.decode('ascii')}-{where}"


def _next_unknown(
    run: Run, path: str, fingerprint: str, remembered: tuple[Mapping[str, str], dict[str, str]]
) -> bytes | None:
    """The next blob of ``run`` to read: the versions whose fingerprint an earlier run remembered
    (``remembered[0]``), or this one took (``[1]``: a page back at an older version, a build that
    flips between two), extend the run, or end it, without a read."""
    known, blobs = remembered
    while (blob := run.next_blob()) is not None:
        key = blob_key(path, blob)
        fingerprint_of = known.get(key) or blobs.get(key)
        if fingerprint_of is None:
            return blob
        blobs[key] = fingerprint_of
        if fingerprint_of != fingerprint:
            return None
        run.end += 1
    return None


class Run:
    """A file's versions, newest first, and how far back their fingerprint holds."""

    __slots__ = ("chain", "end")

    def __init__(self, chain: list[Version]) -> None:
        self.chain = chain
        self.end = 1  # versions before this one have the current fingerprint

    def next_blob(self) -> bytes | None:
        """The blob to compare next, None when the run is over. A version with the tip's
        blob holds without reading it; a deletion, or the oldest version, ends the run."""
        chain, tip = self.chain, self.chain[0].blob
        while self.end < len(chain) and chain[self.end].blob == tip:
            self.end += 1
        return chain[self.end].blob if self.end < len(chain) else None

    def date(self) -> int:
        return self.chain[self.end - 1].time

    def reaches_root(self) -> bool:
        return self.end == len(self.chain) and self.chain[-1].root


def compare_versions(
    batch: GitBatch,
    runs: dict[str, Run],
    fingerprint: Fingerprint,
    current: Mapping[str, str],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    unreadable: set[str],
    keep: Keep | None = None,
    *,
    every: bool = False,
) -> int:
    """Extend each run while the next older version has the current fingerprint; return the
    number of blobs read. A file with a version git does not have goes back to its plain
    date (its newest version's), named in ``unreadable``. ``keep`` is given the reductions
    ``fingerprint`` made (if any) of the two versions around each stop it read; ``every``:
    of every version it read."""
    blobs = remembered[1]
    open_runs = {path: run for path, run in runs.items() if path in current}
    read = 0
    last: dict[str, tuple[bytes, str]] = {}  # (each run's newest version read and reduced)
    while open_runs:
        wanted: dict[bytes, list[str]] = {}
        for path, run in open_runs.items():
            blob = _next_unknown(run, path, current[path], remembered)
            if blob is not None:
                wanted.setdefault(blob, []).append(path)
        open_runs = {}
        read += len(wanted)
        for blob, data in read_blobs(batch, list(wanted)):
            for path in wanted[blob]:
                run = runs[path]
                if data is None:
                    run.end = 1
                    unreadable.add(path)
                    continue
                key = blob_key(path, blob)  # (not HTML: another path's bytes are the same)
                found, reduction = blobs.get(key), None
                if found is None:
                    found, reduction = fingerprint_with_reduction(fingerprint, path, data)
                    blobs[key] = found
                if found == current[path]:
                    run.end += 1
                    open_runs[path] = run
                    if reduction is not None:
                        last[path] = (blob, reduction)
                        if every and keep is not None:
                            keep(blob, path, reduction)
                elif keep is not None:
                    newer = last.get(path)
                    if reduction is not None:
                        keep(blob, path, reduction)
                    if newer is not None and newer[0] == run.chain[run.end - 1].blob:
                        keep(newer[0], path, newer[1])
    return read
