"""Content dates from git history (docs/lastmod.md)."""
# A file's content date is the oldest commit of the run of versions at the tip whose fingerprint is
# the file's own.

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Final, NamedTuple, cast

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history._listings import Listings
from sitemill.lastmod.history._stopedits import HeldReductions, Reduce
from sitemill.lastmod.history._stopnames import (
    busy_commits,
    commit_stamps,
    name_walk_stops,
    spread_names,
)
from sitemill.lastmod.history._templateedits import follow_template_edits
from sitemill.lastmod.history._walkgit import OnDemand, blob_reader, release
from sitemill.lastmod.history.files import FileVersions, read_file_versions
from sitemill.lastmod.history.walk import (
    Fingerprint,
    NameStops,
    ReadFile,
    Run,
    WalkChunk,
    Walked,
    blob_key,
    chunk_of,
    compare_versions,
    walk,
)
from sitemill.progress import Ticker
from sitemill.workers.workpool import PROGRESS_CHUNK, WorkPool, cut

log = logging.getLogger(__name__)

# Runs carried past template edits walked on together (walk.compare_versions: one reduction each).
_EXTEND_GROUP: Final = 64

__all__ = [
    "ContentHistory",
    "FileVersions",
    "blob_key",
    "date_by_content",
    "read_content_dates",
    "read_file_versions",
]


@dataclass(frozen=True, slots=True)
class ContentHistory:
    """Content dates of a site's files; all paths are site-relative POSIX paths.

    ``dates`` holds, for each wanted file that HEAD holds and the work tree has unchanged, the
    committer time (unix seconds) of the oldest commit in the unbroken run of versions at the
    tip whose fingerprint equals the file's current one. The versions are those git shows for
    the file (history.versions: merges as git simplifies them, renames followed); with every
    commit changing what a reader sees, the date is the newest commit that changed the file,
    as history.lastcommit gives it.
    ``dirty`` names files that differ from HEAD (staged, unstaged or untracked, not ignored):
    they get no date. ``shallow`` means history is cut off; ``cut`` names the dated files
    whose run reaches the cut, so their true date may be older."""

    dates: dict[str, int]
    dirty: frozenset[str]
    shallow: bool
    cut: frozenset[str] = frozenset()
    # Files with an older version git does not have (a partial or blobless clone, a pruned
    # mirror): they keep their plain date, the newest commit that changed them.
    unreadable: frozenset[str] = frozenset()
    renames_followed: bool = True
    # Each dated file's last commit (its plain git date): an older date was moved by content.
    newest: dict[str, int] = field(default_factory=dict)
    # The fingerprint of every blob this run compared or knows (HEAD's: the work tree's), by
    # blob_key: what the next run need not read again.
    blobs: dict[str, str] = field(default_factory=dict)
    read: int = 0  # older blobs read from git
    # The current fingerprints the walk took itself (``unread`` of date_by_content).
    fingerprints: dict[str, str] = field(default_factory=dict)
    sketches: dict[str, str] = field(default_factory=dict)  # theirs (fingerprint.resemblance)


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
        renames = (
            "" if found.renames_followed else ", only renames that kept a file's bytes are followed"
        )
        return [
            "git does not have part of the history (a partial or blobless clone, or a "
            f"pruned mirror): {kept}{renames}; fetch the full history for content dates"
        ]
    return []


class Reducing(NamedTuple):
    """What the fingerprint hashes (history.templateedits's edits), the base URL its links
    are resolved from, the paths of the redirect stubs among the pages (no page of a
    section: history.templateedits counts none of them) and of the pages no sitemap lists by
    their own head (a redirect stub, a noindex page): their dates are written nowhere, and
    history.templateedits names no stop of theirs only the pages their commit changed ask for
    (probes.stops_worth_naming)."""

    reduce: Reduce
    base: str = ""
    stubs: frozenset[str] = frozenset()
    unlisted: frozenset[str] = frozenset()


def date_by_content(
    found: FileVersions,
    fingerprint: Fingerprint,
    current: Mapping[str, str],
    known: Mapping[str, str] | None = None,
    pool: WorkPool | None = None,
    unread: tuple[Collection[str], ReadFile] | None = None,
    ticker: Ticker | None = None,
    reducing: Reducing | None = None,
) -> ContentHistory:
    """Date the files ``found`` by content, reading the older blobs needed (see above);
    ``known``: blob fingerprints of an earlier run (blob_key), which are not read again.
    ``pool``: worker processes that walk chunks of the files, each with its own git (any
    number, the same dates; ``fingerprint`` must pickle). ``unread``: files missing from
    ``current`` whose fingerprint the walk takes (read with the given function, which must
    pickle), and a page's sketch from the reduction a ``fingerprint`` that gives it hashed.
    ``ticker`` counts the files dated. ``reducing``: ``reduce``, what the fingerprint hashes
    (history.templateedits's edits; a ``fingerprint`` that gives it too, walk.Fingerprint,
    names the edits at the stops where it has their versions, the walk's workers' in
    parallel), and ``base``, the base URL both resolve links from (stopedits.own_path)."""
    reduce, base, stubs, unlisted = reducing or (None, "", frozenset(), frozenset())
    runs = {path: Run(chain) for path, chain in found.versions.items()}
    deferred, read = unread or ((), None)
    known = known or {}
    dated = [p for p, run in runs.items() if len(run.chain) > 1 and (p in current or p in deferred)]
    groups = cut(dated, 1 if pool is None else pool.workers, PROGRESS_CHUNK)
    chunks = [chunk_of({path: runs[path] for path in paths}, current, known) for paths in groups]
    token = uuid.uuid4().hex  # (the walk's: stopnames.commit_stamps)
    walking = {p: runs[p] for p in dated}
    name = _stop_names((found.top, token, base), walking, fingerprint, known, reduce)
    here = pool is None or pool.workers <= 1  # (a pool of one works in this process)
    work = partial(walk, found.top, fingerprint, read, keep=True, name=name, here=here)
    walked = _walked(work, (chunks, groups), pool, ticker)
    for path, end in walked.ends.items():  # (each worker's runs: copies)
        runs[path].end = end
    if reduce is not None:  # (the runs dated, past the history's template edits)
        html = [v[-1].time for p, v in found.versions.items() if p.lower().endswith(HTML_SUFFIXES)]
        site = (found.relative, sorted(html))  # (when each page was first committed)
        at = (found.top, token, pool, base, site)
        carried = {p: runs[p] for p in dated}
        _past_templates(at, carried, walked, (fingerprint, reduce), known, (stubs, unlisted))
    fingerprints = {**current, **walked.current}
    for path, run in runs.items():
        if path in fingerprints and run.chain[0].blob is not None:
            walked.blobs[blob_key(path, run.chain[0].blob)] = fingerprints[path]
    cut_short = {path for path, run in runs.items() if found.shallow and run.reaches_root()}
    log.debug("%d files dated by content, %d older blobs read", len(runs), walked.read)
    return ContentHistory(
        dates={path: run.date() for path, run in runs.items()},
        newest={path: run.chain[0].time for path, run in runs.items()},
        dirty=found.dirty,
        shallow=found.shallow,
        cut=frozenset(cut_short),
        unreadable=frozenset(walked.unreadable),
        renames_followed=found.renames_followed,
        blobs=walked.blobs,
        read=walked.read,
        fingerprints=walked.current,
        sketches=walked.sketches,
    )


def _walked(
    work: Callable[[WalkChunk], Walked],
    chunks: tuple[list[WalkChunk], list[Sequence[str]]],
    pool: WorkPool | None,
    ticker: Ticker | None,
) -> Walked:
    """What ``work`` found walking the ``chunks`` (and the paths of each), in ``pool`` or in
    this process; ``ticker`` counts the files."""
    if ticker is not None:
        ticker.begin(sum(map(len, chunks[1])))
    walked = Walked(ends={}, blobs={})
    try:  # (each process keeps one git for all its chunks: this one's is released here)
        parts = map(work, chunks[0]) if pool is None else pool.imap(work, chunks[0])
        for part, paths in zip(parts, chunks[1], strict=True):
            walked.merge(part)
            if ticker is not None:
                ticker.step(len(paths))
    finally:
        release()
    if ticker is not None:
        ticker.finish()
    return walked


def _stop_names(
    at: tuple[Path, str, str],
    runs: dict[str, Run],
    fingerprint: Fingerprint,
    known: Mapping[str, str],
    reduce: Reduce | None,
) -> NameStops | None:
    """What names the stops of the walk of ``runs`` where it reduced their versions
    (stopnames.name_walk_stops), if anything: on a run that judges template edits, with no
    earlier run's names (``known``), at the commits that may make one. ``at``: the work tree's
    top, the walk's token and the base URL links are resolved from."""
    if reduce is None or known:
        return None
    top, token, base = at
    busy = busy_commits(runs)
    return partial(name_walk_stops, (top, token, busy, fingerprint, base)) if busy else None


def _past_templates(
    at: tuple[Path, str, WorkPool | None, str, tuple[str, list[int]]],
    runs: dict[str, Run],
    walked: Walked,
    reading: tuple[Fingerprint, Reduce],
    known: Mapping[str, str],
    stubs: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> None:
    """Carry ``runs`` on past the template edits of the history (history.templateedits),
    reading with one git of this process, started when a blob is wanted (a history with no
    template edit to judge, or a later run that remembers every edit and fingerprint it
    needs, starts none); what it reads is counted in ``walked``, what it names is remembered
    there. ``at``: the work tree's top, the walk's token (stopnames.commit_stamps) and its
    pool, whose workers name stops several at a time (stopnames.spread_names), the base URL
    links are resolved from, the site's folder in the work tree and its pages with a version
    (history.listings); the
    names the walk made are recalled as an earlier run's (``known``) are. ``reading``: the
    fingerprint and what it hashes; ``stubs``: Reducing's stubs and unlisted pages."""
    top, token, pool, base, site = at
    fingerprint, reduce = reading
    many = None if pool is None or pool.workers < 2 else pool
    spread = None if many is None else partial(spread_names, many, (top, token, reduce, base))
    remembered = ({**known, **walked.named} if walked.named else known, walked.blobs)
    held = HeldReductions()  # (the walk's and the carried runs' around their next stops)
    for (blob, path), reduction in walked.reduced.items():
        held.add(blob, path, reduction)
    walked.reduced.clear()
    with ExitStack() as stack:
        stack.callback(release)  # (a spread run in this process: a pool that could not start)
        batch = cast(GitBatch, OnDemand(blob_reader(top), stack))

        def extend(some: dict[str, Run], reference: dict[str, str]) -> None:
            paths = list(some)
            for start in range(0, len(paths), _EXTEND_GROUP):
                group = {path: some[path] for path in paths[start : start + _EXTEND_GROUP]}
                walked.read += compare_versions(
                    batch, group, fingerprint, reference, remembered, walked.unreadable, held.add
                )

        stamps = commit_stamps(top, token)
        listings = Listings(blob_reader(top), stamps.commits, (base, *site)) if base else None
        walked.read += follow_template_edits(
            runs,
            remembered,
            batch,
            reduce,
            extend,
            stamps,
            (held, spread),
            (base, *stubs, listings),
        )
