"""The versions of a site's files in git history: one ``git log`` pass that follows renames."""
# The pass is sitemill.lastmod.history.versions. It never fetches: a partial clone's missing objects
# stay missing, and rename detection is then narrowed to exact renames (a file moved with its bytes
# kept: its blob id under a new name, which git finds from the ids alone, reading no blob), with a
# warning from history.contentdates.

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path

from sitemill.errors import GitError
from sitemill.git.run import Git
from sitemill.lastmod.history.lastcommit import (
    _git,
    _locate,
    _read_dirty,
    _site_relative,
    log_command,
)
from sitemill.lastmod.history.versions import Version, VersionWalk, one_a_second, parse_raw_log


@dataclass(frozen=True, slots=True)
class FileVersions:
    """What the log pass found, before any blob is read: each wanted file of HEAD's versions,
    newest first, by site-relative path; the work tree's top, dirty files and shallowness."""

    top: Path
    versions: dict[str, list[Version]]
    dirty: frozenset[str]
    shallow: bool
    # False: a missing object stopped git's rename detection; exact renames are followed.
    renames_followed: bool = True
    head: str | None = None  # HEAD's commit id (history.seen remembers it)
    relative: str = ""  # the site's folder in the work tree (POSIX, "" for its top)


def read_file_versions(
    site_dir: Path,
    paths: Collection[str],
    dirty: frozenset[str] | None = None,
    on_commits: Callable[[int], None] | None = None,
) -> FileVersions:
    """Read, in one ``git log`` pass, the versions of those ``paths`` that are clean in HEAD
    (``dirty``: the files git status names, when the caller has asked it already);
    ``on_commits`` is told the commits read so far, as they come."""
    top, head, shallow = _locate(site_dir)
    relative = _site_relative(site_dir, top)
    prefix = os.fsencode(relative + "/") if relative else b""
    git = _git(top)
    if dirty is None:
        dirty = _read_dirty(git, prefix, (relative,) if relative else ())
    wanted = {prefix + os.fsencode(path): path for path in paths if path not in dirty}
    versions: dict[bytes, list[Version]] = {}
    renames = True
    if head and wanted:
        # Only files HEAD holds have versions: a site of untracked build output inside the
        # repository (public/ in .gitignore) needs no pass over the history at all.
        pathspec = (relative,) if relative else ()
        listing = git.output("ls-tree", "-r", "-z", "--name-only", "--full-tree", head, *pathspec)
        held = set(listing.split(b"\0"))
        wanted = {key: path for key, path in wanted.items() if key in held}
    if head and wanted:
        try:
            versions = _read_versions(git, head, set(wanted), _RENAMES, on_commits)
        except GitError as exc:
            if not _is_missing_object(exc):
                raise
            # Rename detection compares the contents of added and deleted files: without
            # them, a rename ends a file's history (its older versions count as another
            # file's), which only makes content dates newer, never wrong. An exact rename
            # needs no content (issue 79: a deploy that renamed a page with its bytes kept
            # dated it in a mirror that lacked one unrelated blob).
            renames = False
            versions = _read_versions(git, head, set(wanted), _EXACT_RENAMES, on_commits)
    return FileVersions(
        top=top,
        versions={wanted[key]: chain for key, chain in versions.items() if chain[0].blob},
        dirty=dirty,
        shallow=shallow,
        renames_followed=renames,
        head=head,
        relative=relative,
    )


@dataclass(frozen=True, slots=True)
class CleanHead:
    """HEAD as a run finds it before any log: its commit id, whether the clone is shallow,
    the site's folder in the work tree (POSIX, "" for the top), the blob id (hex) of each
    wanted file the work tree holds unchanged, the files git status names, the work tree's
    top."""

    head: str
    shallow: bool
    relative: str
    blobs: dict[str, str]
    dirty: frozenset[str]
    top: Path


def clean_head(site_dir: Path, paths: Collection[str]) -> CleanHead | None:
    """HEAD's blob id of each of ``paths`` that the work tree holds unchanged: its bytes are
    that blob's, so a fingerprint remembered for the blob is its own; and the files git status
    names, for read_file_versions (None: no HEAD)."""
    top, head, shallow = _locate(site_dir)
    if not head:
        return None
    relative = _site_relative(site_dir, top)
    prefix = os.fsencode(relative + "/") if relative else b""
    git = _git(top)
    pathspec = (relative,) if relative else ()
    dirty = _read_dirty(git, prefix, pathspec)
    wanted = set(paths) - dirty
    listing = git.output("ls-tree", "-r", "-z", "--full-tree", head, "--", *pathspec)
    found: dict[str, str] = {}
    for record in listing.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == b"blob" and name.startswith(prefix):
            path = os.fsdecode(name[len(prefix) :])
            if path in wanted:
                found[path] = fields[2].decode("ascii")
    return CleanHead(head, shallow, relative, found, dirty, top)


# How the log pass detects renames: any (git's similarity, which reads the blobs of the files
# that came and went), or exact ones only (the same blob id under a new name: git's
# diffcore-rename stops after its exact pass at a score of 100 %, reading no blob).
_RENAMES, _EXACT_RENAMES = "-M", "-M100%"


def _is_missing_object(exc: GitError) -> bool:
    text = str(exc)
    missing = ("unable to read", "missing blob", "bad object", "could not fetch")
    return any(found in text for found in missing)


def _read_versions(
    git: Git,
    head: str,
    tracked: set[bytes],
    renamed: str,
    on_commits: Callable[[int], None] | None = None,
) -> dict[bytes, list[Version]]:
    """Stream one ``git log`` over HEAD's first-parent line (as in history.lastcommit) and collect
    every tracked file's versions. No lazy fetch of a
    partial clone's missing objects (git 2.44+): sitemill contacts no remote."""
    # A git before 2.44 ignores GIT_NO_LAZY_FETCH: with no transport allowed (an empty
    # GIT_ALLOW_PROTOCOL lists none), its lazy fetch fails ("could not fetch") unconnected.
    git = replace(git, env={**git.env, "GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""})
    # A rename carries the file's history on (``renamed``); whole object names for the blobs.
    command = log_command(head, renamed, "--raw", "--no-abbrev")
    walk = VersionWalk(tracked)
    try:
        with git.stream(*command) as output:
            for count, commit in enumerate(parse_raw_log(output.stdout, walk.relevant), 1):
                walk.visit(commit)
                if on_commits is not None:
                    on_commits(count)
    except ValueError as exc:
        raise GitError(f"unexpected git log output: {exc}") from exc
    return {key: one_a_second(chain) for key, chain in walk.versions.items()}
