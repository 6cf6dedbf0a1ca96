"""What content dates remember for a later run at the same commit: that run starts no git log."""
# A run's content dates are a function of HEAD's commit, the site's folder in the work tree, a
# ``key`` (the fingerprint's version, scope, ignore patterns, base URL; the sitemill), and each
# tracked file the work tree holds unchanged: its blob and whether the run has its fingerprint
# (a page the walk compares; its section's census counts it: history.templateedits). A later run
# where all of these are the same would read the same log, walk the same versions with the same
# fingerprints and find the same dates: it takes them from the state instead, and reads no history
# at all. Anything else (a new commit, a dirty or new file, another key, a shallow clone,
# a run that could not read part of the history) walks the whole log, as a first run does.
#
# The state is public: the record names the commit (as "commits" does) and a digest of those
# inputs, and holds the dates in the order of the files' sorted paths, never a path.

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from pathlib import Path

from sitemill.lastmod.history.contentdates import ContentHistory
from sitemill.lastmod.history.files import CleanHead, FileVersions
from sitemill.lastmod.history.lastcommit import _site_relative
from sitemill.lastmod.history.seenrecord import SeenHistory


def seen_history(
    site_dir: Path,
    found: FileVersions,
    dated: ContentHistory,
    key: str,
    current: Collection[str],
) -> SeenHistory | None:
    """What a later run at ``found.head`` may take instead of walking the history again:
    none when the history is cut (shallow) or partly unreadable (the run warned), or a date is
    one a state does not keep. ``current``: the files with a fingerprint (those walked)."""
    if found.head is None or found.shallow or dated.unreadable or not found.renames_followed:
        return None
    relative = _site_relative(site_dir, found.top)
    paths = sorted(found.versions)
    blobs = {path: found.versions[path][0].blob for path in paths}
    if any(blob is None for blob in blobs.values()):
        return None
    dates = tuple((dated.dates[path], dated.newest[path]) for path in paths)
    if any(not 0 <= date <= newest < 16**12 for date, newest in dates):
        return None
    held = {path: blob.decode("ascii") for path, blob in blobs.items() if blob is not None}
    inputs = inputs_digest(found.head, relative, key, held, current)
    return SeenHistory(found.head, inputs, dates)


def recalled_dates(
    record: SeenHistory | None,
    clean: CleanHead,
    key: str,
    current: Collection[str],
) -> ContentHistory | None:
    """The content dates ``record`` remembers, when the run's HEAD, folder, fingerprint key
    and clean files (``clean``; ``current``: those with a fingerprint) are the ones they were
    found at; None otherwise (the history is read)."""
    if record is None or record.seen != clean.head or clean.shallow:
        return None
    if len(record.dates) != len(clean.blobs):
        return None
    if record.inputs != inputs_digest(clean.head, clean.relative, key, clean.blobs, current):
        return None
    paths = sorted(clean.blobs)
    return ContentHistory(
        dates={path: date for path, (date, _) in zip(paths, record.dates, strict=True)},
        newest={path: newest for path, (_, newest) in zip(paths, record.dates, strict=True)},
        dirty=clean.dirty,
        shallow=False,
    )


def inputs_digest(
    head: str, relative: str, key: str, blobs: Mapping[str, str], current: Collection[str]
) -> str:
    """The digest of what content dates depend on besides the commit (see above)."""
    digest = hashlib.blake2b(digest_size=32)
    for part in (head, relative, key):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    for path in sorted(blobs):
        mark = b"+" if path in current else b"-"
        digest.update(path.encode("utf-8", "surrogatepass") + b"\0" + blobs[path].encode() + mark)
    return digest.hexdigest()
