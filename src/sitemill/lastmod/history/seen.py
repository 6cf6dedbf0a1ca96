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
import os
from collections.abc import Collection, Mapping
from pathlib import Path

from sitemill.lastmod.history.contentdates import ContentHistory
from sitemill.lastmod.history.files import CleanHead, FileVersions
from sitemill.lastmod.history.lastcommit import _git, _site_relative, log_command
from sitemill.lastmod.history.seenrecord import SeenHistory
from sitemill.lastmod.sourcefiles.repository import is_partial


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
    record: SeenHistory,
    clean: CleanHead,
    key: str,
    current: Collection[str],
) -> ContentHistory | None:
    """The content dates ``record`` remembers, when the run's folder, fingerprint key and
    clean files (``clean``; ``current``: those with a fingerprint) are the ones they were found
    at (HEAD is the record's commit, or unchanged_since says it holds); None otherwise (the
    history is read). The caller has checked that ``clean`` is no shallow clone and holds one
    file for each of the record's dates (jobs.treeseen.remembered_prints)."""
    if record.inputs != inputs_digest(record.seen, clean.relative, key, clean.blobs, current):
        return None
    paths = sorted(clean.blobs)
    return ContentHistory(
        dates={path: date for path, (date, _) in zip(paths, record.dates, strict=True)},
        newest={path: newest for path, (_, newest) in zip(paths, record.dates, strict=True)},
        dirty=clean.dirty,
        shallow=False,
    )


def unchanged_since(clean: CleanHead, seen: str) -> bool:
    """Whether ``seen`` is HEAD, or a commit of HEAD's first-parent line after which no commit
    of that line changed any file of ``clean.blobs`` (a commit that only added the sitemaps
    and the state, as the GitHub Action's does). Those files' versions, and so their dates,
    are then the ones found at ``seen``: the log has nothing of theirs to add, and no rename
    to follow. ``seen`` (a state's: checked as 40 or 64 hex digits when read) is handed to git
    after --end-of-options; an object git does not know, or not on that line, says no; so
    does a partial clone."""
    git = _git(clean.top)
    if is_partial(git):  # (its own walk may miss old versions, and says so: it walks)
        return False
    if seen == clean.head:
        return True
    span = f"{seen}..{clean.head}"
    line = git.run("rev-list", "--first-parent", "--parents", "--end-of-options", span)
    commits = line.stdout.split(b"\n")[:-1] if line.returncode == 0 else []
    if not commits or commits[0].split()[0].decode() != clean.head:
        return False
    if commits[-1].split()[1:2] != [seen.encode("ascii")]:  # (seen is that line's)
        return False
    # Every file each commit changed (no pathspec: no history simplification to reason about).
    names = log_command(span, "--no-renames", "--name-only")[:-2]
    changed = git.run(*names, "--end-of-options", span, "--")
    if changed.returncode != 0:
        return False
    prefix = os.fsencode(clean.relative + "/") if clean.relative else b""
    wanted = {prefix + os.fsencode(path) for path in clean.blobs}
    return not any(name in wanted for name in changed.stdout.split(b"\0"))


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
