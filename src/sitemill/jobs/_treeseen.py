"""A later run where the state's content dates hold: those dates, without git log (history.seen)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from sitemill.config.model import Config, LastmodMode
from sitemill.jobs._treereads import PageReads
from sitemill.lastmod.fingerprint.versions import DATING_RULES
from sitemill.lastmod.history.contentdates import ContentHistory
from sitemill.lastmod.history.files import CleanHead, FileVersions, clean_head
from sitemill.lastmod.history.lastcommit import find_work_tree
from sitemill.lastmod.history.seen import recalled_dates, seen_history, unchanged_since
from sitemill.lastmod.history.seenrecord import SeenHistory
from sitemill.lastmod.history.walk import blob_key
from sitemill.sources.tree import TreeFile
from sitemill.state.model import MAX_BLOBS, State
from sitemill.version import __version__

# A state's record of content dates at a commit, and HEAD as the run found it at that commit.
AtHead = tuple[SeenHistory, CleanHead]


def remember_walk(
    remember: State,
    site_dir: Path,
    walk: tuple[FileVersions, ContentHistory],
    key: str,
    current: Collection[str],
) -> None:
    """``remember`` the blob fingerprints of a walk through the history under ``key`` and
    its dates for a later run at the same commit (``current``: the files with a fingerprint),
    unless there are more than a state holds (the next run then reads them again)."""
    found, dated = walk
    if len(dated.blobs) <= MAX_BLOBS:
        remember.blobs, remember.blob_key = dated.blobs, key
        remember.history = seen_history(site_dir, found, dated, _dated_by(key), current)


def remembered_prints(
    config: Config,
    site_dir: Path,
    files: list[TreeFile],
    cached: Mapping[str, str],
    earlier: tuple[int, bool, str] | None,
    known: State | None,
) -> tuple[dict[str, str], frozenset[str] | None, AtHead | None]:
    """The fingerprints an earlier run remembered for the git blobs that the work tree holds
    unchanged (those pages need not be fingerprinted again), the dirty files git status named
    on the way (None: not asked), and the content dates ``known`` remembers when it found them
    at HEAD's commit: the run then reads its pages first, and the history only if the
    record's other inputs are not the run's (none with git dates off, a shallow clone, or
    ``earlier`` fingerprints to compare the pages in: treehistory.earlier_fingerprints)."""
    if not cached or find_work_tree(site_dir) is None:
        return {}, None, None
    clean = clean_head(site_dir, [file.path for file in files])
    if clean is None:
        return {}, None, None
    found = {path: cached.get(blob_key(path, b.encode("ascii"))) for path, b in clean.blobs.items()}
    remembered = {path: value for path, value in found.items() if value is not None}
    record = None if known is None else known.history
    git = config.lastmod in (None, LastmodMode.GIT)  # (None: git's dates in a work tree)
    if (
        record is None
        or earlier is not None
        or not git
        or clean.shallow
        or len(record.dates) != len(clean.blobs)  # (a file dirty or gone: the log starts now)
        or not unchanged_since(clean, record.seen)
    ):
        return remembered, clean.dirty, None
    return remembered, clean.dirty, (record, clean)


def recall(
    at_head: AtHead,
    key: str,
    reads: PageReads,
    cached: Mapping[str, str],
    remember: State,
) -> ContentHistory | None:
    """The content dates of the record ``at_head``, once every page is read (which pages have
    a fingerprint is one of its inputs), when they hold; ``remember`` keeps the record and the
    blob fingerprints ``cached`` under ``key``."""
    reads.complete()
    record, clean = at_head
    dated = recalled_dates(record, clean, _dated_by(key), reads.fingerprints)
    if dated is not None:
        remember.history, remember.blobs, remember.blob_key = record, dict(cached), key
    return dated


def _dated_by(key: str) -> str:
    """What content dates depend on besides the files and the commit: the fingerprint
    ``key`` and the sitemill that walked (another may walk alike, or not)."""
    return f"{__version__} {DATING_RULES} {key}"
