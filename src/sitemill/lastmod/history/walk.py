"""Walking files back through their versions for content dates (history.contentdates)."""
# Each file's run of versions with its current fingerprint, extended blob by blob through ``git
# cat-file --batch``; a chunk of files per worker process, each with its own git.

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from sitemill.errors import SitemillError
from sitemill.git.run import Git, GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.lastcommit import _git
from sitemill.lastmod.history.versions import Version

Fingerprint = Callable[[str, bytes], str]
# Reads a file of the work tree (None: it cannot be read; it then gets no fingerprint).
ReadFile = Callable[[str], bytes | None]
# Files walked back together, round by round: their versions share most lines, which the
# fingerprint may remember (fingerprint.linememo) while the group lasts.
_GROUP: Final = 16
# git's cache of delta bases while it reads old versions (core.deltaBaseCacheLimit, 96 MiB by
# default): a walk that reads each page's versions newest first keeps the bases it needs in
# far less. At 16 MiB a 30-page blog's first build peaks at 60 MB instead of 110 (git is the
# largest process), and a 491-page site's at 55 MB instead of 127, in the same time
# (measured with GNU time's peak on real sites).
_DELTA_CACHE: Final = "core.deltaBaseCacheLimit=16m"


@dataclass(slots=True)
class Walked:
    """What walking some files back found: how far each run holds (Run.end), the blob
    fingerprints compared, the files with a version git does not have, the blobs read."""

    ends: dict[str, int]
    blobs: dict[str, str]
    unreadable: set[str] = field(default_factory=set)
    read: int = 0
    current: dict[str, str] = field(default_factory=dict)  # the fingerprints it took

    def merge(self, other: Walked) -> None:
        self.ends.update(other.ends)
        self.blobs.update(other.blobs)
        self.unreadable |= other.unreadable
        self.read += other.read
        self.current.update(other.current)


# Some files' runs, their current fingerprints (None: the walk takes it, reading the file),
# the remembered fingerprints of their versions: what a worker needs.
Chunk = tuple[dict[str, "Run"], dict[str, str | None], dict[str, str]]


def chunk_of(runs: dict[str, Run], current: Mapping[str, str], known: Mapping[str, str]) -> Chunk:
    """The Chunk of ``runs``: those not in ``current`` get their fingerprint in the walk."""
    remembered = {}
    for path, run in runs.items():
        for version in run.chain:
            key = None if version.blob is None else blob_key(path, version.blob)
            if key is not None and key in known:
                remembered[key] = known[key]
    return runs, {path: current.get(path) for path in runs}, remembered


def walk(
    top: Path, fingerprint: Fingerprint, read: ReadFile | None, chunk: Chunk, *, keep: bool = False
) -> Walked:
    """Walk the runs of ``chunk`` back with a ``git cat-file --batch``, a few files at a
    time: first the current fingerprints it is to take (``read``), then their older versions,
    so that a fingerprint that remembers lines finds theirs. ``keep``: the batch stays open
    for this process's next chunk (a worker's; release() or the process's end closes it)."""
    runs, wanted, known = chunk
    reader = blob_reader(top)
    walked = Walked(ends={}, blobs={})
    paths = list(runs)
    with _KEPT.batch(reader) if keep else reader.batch("cat-file", "--batch") as batch:
        for start in range(0, len(paths), _GROUP):
            group = {path: runs[path] for path in paths[start : start + _GROUP]}
            current = _current(group, wanted, fingerprint, read, walked.current)
            walked.read += compare(
                batch, group, fingerprint, current, (known, walked.blobs), walked.unreadable
            )
    walked.ends = {path: run.end for path, run in runs.items()}
    return walked


def blob_reader(top: Path) -> Git:
    """git in ``top`` for reading old blobs: no lazy fetch of a partial clone's missing ones
    (git 2.44+: a file with a missing one keeps its plain date), a small delta base cache."""
    git = _git(top)
    return replace(
        git, env={**git.env, "GIT_NO_LAZY_FETCH": "1"}, settings=(*git.settings, _DELTA_CACHE)
    )


class _KeptBatch:
    """One ``git cat-file --batch`` kept open across the chunks a worker process walks: a new
    git for each chunk starts its delta base cache and the pack's pages cold again (8 chunks
    on 2 workers: 1.67 s of git's CPU, against 1.04 s for the same blobs through 2 gits)."""

    def __init__(self) -> None:
        self._git: Git | None = None
        self._open: tuple[ExitStack, GitBatch] | None = None
        self._finalizer = False

    @contextmanager
    def batch(self, git: Git) -> Iterator[GitBatch]:
        """The batch of ``git``, opened on first use; closed here if the block fails (what
        git has still to answer is unknown)."""
        if self._open is None or self._git != git:
            self.release()
            stack = ExitStack()
            self._open = stack, stack.enter_context(git.batch("cat-file", "--batch"))
            self._git = git
            self._close_at_exit()
        try:
            yield self._open[1]
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        """End the kept git, if any (its failure then no longer matters: every answer was
        read)."""
        opened, self._open, self._git = self._open, None, None
        if opened is not None:
            with suppress(SitemillError, OSError):
                opened[0].close()

    def _close_at_exit(self) -> None:
        """A worker process ends without atexit: multiprocessing's own finalizers run."""
        if not self._finalizer:
            from multiprocessing import util

            util.Finalize(None, self.release, exitpriority=10)
            self._finalizer = True


_KEPT: Final = _KeptBatch()


def release() -> None:
    """Close this process's kept ``git cat-file --batch`` (walk's ``keep``), if any."""
    _KEPT.release()


def _current(
    group: Mapping[str, Run],
    wanted: Mapping[str, str | None],
    fingerprint: Fingerprint,
    read: ReadFile | None,
    taken: dict[str, str],
) -> dict[str, str]:
    """The current fingerprints of ``group``: given, or taken here from the work tree
    (and added to ``taken``); a file that cannot be read has none."""
    current = {}
    for path in group:
        found = wanted.get(path)
        if found is None and read is not None and (data := read(path)) is not None:
            found = taken[path] = fingerprint(path, data)
        if found is not None:
            current[path] = found
    return current


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


def compare(
    batch: GitBatch,
    runs: dict[str, Run],
    fingerprint: Fingerprint,
    current: Mapping[str, str],
    remembered: tuple[Mapping[str, str], dict[str, str]],
    unreadable: set[str],
) -> int:
    """Extend each run while the next older version has the current fingerprint; return the
    number of blobs read. A file with a version git does not have goes back to its plain
    date (its newest version's), named in ``unreadable``."""
    blobs = remembered[1]
    open_runs = {path: run for path, run in runs.items() if path in current}
    read = 0
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
                found = blobs[key] = blobs.get(key) or fingerprint(path, data)
                if found == current[path]:
                    run.end += 1
                    open_runs[path] = run
    return read
