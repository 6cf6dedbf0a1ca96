"""Content dates from git history: the oldest commit of the run of versions at the tip whose
fingerprint is the file's own (design.md, "lastmod: when the content last changed")."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from sitemill.gitrun import GitBatch
from sitemill.html.fingerprint import HTML_SUFFIXES
from sitemill.sources.git import _git
from sitemill.sources.gitblobs import read_blobs
from sitemill.sources.gitfiles import FileVersions, read_file_versions
from sitemill.sources.gitversions import Version

log = logging.getLogger(__name__)

__all__ = [
    "ContentHistory",
    "FileVersions",
    "date_by_content",
    "read_content_dates",
    "read_file_versions",
]

Fingerprint = Callable[[str, bytes], str]


@dataclass(frozen=True, slots=True)
class ContentHistory:
    """Content dates of a site's files; all paths are site-relative POSIX paths.

    ``dates`` holds, for each wanted file that HEAD holds and the work tree has unchanged, the
    committer time (unix seconds) of the oldest commit in the unbroken run of versions at the
    tip whose fingerprint equals the file's current one. The versions are those git shows for
    the file (sources.gitversions: merges as git simplifies them, renames followed); with every
    commit changing what a reader sees, the date is the newest commit that changed the file,
    as sources.git gives it.
    ``dirty`` names files that differ from HEAD (staged, unstaged or untracked, not ignored):
    they get no date. ``shallow`` means history is cut off; ``cut`` names the dated files
    whose run reaches the cut, so their true date may be older.
    """

    dates: dict[str, int]
    dirty: frozenset[str]
    shallow: bool
    cut: frozenset[str] = frozenset()
    # Files with an older version git does not have (a partial or blobless clone, a pruned
    # mirror): they keep their plain date, the newest commit that changed them.
    unreadable: frozenset[str] = frozenset()
    renames_followed: bool = True
    # Each dated file's last commit (its plain git date): a date older than it was moved by
    # content.
    newest: dict[str, int] = field(default_factory=dict)
    # The fingerprint of every blob this run compared or knows (HEAD's: the work tree's), by
    # blob_key: what the next run need not read again.
    blobs: dict[str, str] = field(default_factory=dict)
    read: int = 0  # older blobs read from git


def read_content_dates(
    site_dir: Path,
    paths: Collection[str],
    fingerprint: Fingerprint,
    current: Mapping[str, str],
) -> ContentHistory:
    """Date ``paths`` by content: one ``git log`` pass for each file's versions, then one
    ``git cat-file --batch`` for the blobs needed, round by round: the second-newest version
    of every file, then the next one of the files whose fingerprint still equals ``current``.

    ``fingerprint(path, data)`` is the caller's fingerprint of a file's bytes (at most
    MAX_BLOB_BYTES of them); ``current`` maps a path to its fingerprint in the work tree (a
    path missing there keeps the date of its newest version). The two steps are
    read_file_versions and date_by_content: a caller may run the first while it
    fingerprints the work tree.
    """
    return date_by_content(read_file_versions(site_dir, paths), fingerprint, current)


def history_warnings(found: FileVersions, history: ContentHistory) -> list[str]:
    """One summary line when git could not read part of the history."""
    if history.unreadable or not found.renames_followed:
        unreadable = sorted(history.unreadable)
        kept = (
            f"{len(unreadable):,} file(s) keep their plain git dates, e.g. {unreadable[0]}"
            if unreadable
            else "no file lost its date"
        )
        renames = "" if found.renames_followed else ", renames are not followed"
        return [
            "git does not have part of the history (a partial or blobless clone, or a "
            f"pruned mirror): {kept}{renames}; fetch the full history for content dates"
        ]
    return []


def date_by_content(
    found: FileVersions,
    fingerprint: Fingerprint,
    current: Mapping[str, str],
    known: Mapping[str, str] | None = None,
) -> ContentHistory:
    """Date the files ``found`` by content, reading the older blobs needed (see above);
    ``known``: blob fingerprints of an earlier run (blob_key), which are not read again."""
    runs = {path: _Run(chain) for path, chain in found.versions.items()}
    read = 0
    unreadable: set[str] = set()
    blobs = {
        blob_key(path, run.chain[0].blob): current[path]
        for path, run in runs.items()
        if path in current and run.chain[0].blob is not None
    }
    if any(len(run.chain) > 1 for path, run in runs.items() if path in current):
        git = _git(found.top)
        # No lazy fetch of a partial clone's missing blobs (git 2.44+): a file with a
        # missing one keeps its plain date.
        reader = replace(git, env={**git.env, "GIT_NO_LAZY_FETCH": "1"})
        with reader.batch("cat-file", "--batch") as batch:
            read = _compare(batch, runs, fingerprint, current, (known or {}, blobs), unreadable)
    cut = {path for path, run in runs.items() if found.shallow and run.reaches_root()}
    log.debug("%d files dated by content, %d older blobs read", len(runs), read)
    return ContentHistory(
        dates={path: run.date() for path, run in runs.items()},
        newest={path: run.chain[0].time for path, run in runs.items()},
        dirty=found.dirty,
        shallow=found.shallow,
        cut=frozenset(cut),
        unreadable=frozenset(unreadable),
        renames_followed=found.renames_followed,
        blobs=blobs,
        read=read,
    )


def blob_key(path: str, blob: bytes) -> str:
    """A blob's key among remembered fingerprints: "h" (fingerprinted as HTML) or "b" (as
    bytes), then its id."""
    return ("h" if path.lower().endswith(HTML_SUFFIXES) else "b") + blob.decode("ascii")


def _next_unknown(
    run: _Run, path: str, fingerprint: str, remembered: tuple[Mapping[str, str], dict[str, str]]
) -> bytes | None:
    """The next blob of ``run`` to read: the versions whose fingerprint an earlier run
    remembered (``remembered[0]``) extend the run, or end it, without a read."""
    known, blobs = remembered
    while (blob := run.next_blob()) is not None:
        key = blob_key(path, blob)
        fingerprint_of = known.get(key)
        if fingerprint_of is None:
            return blob
        blobs[key] = fingerprint_of
        if fingerprint_of != fingerprint:
            return None
        run.end += 1
    return None


class _Run:
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


def _compare(
    batch: GitBatch,
    runs: dict[str, _Run],
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
                found = fingerprint(path, data)
                blobs[blob_key(path, blob)] = found
                if found == current[path]:
                    run.end += 1
                    open_runs[path] = run
    return read
