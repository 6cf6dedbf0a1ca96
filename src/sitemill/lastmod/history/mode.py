"""Rung 1's mode: git's dates, or the pages' file times (no work tree, a shallow clone)."""
# docs/lastmod.md, "git": a tracked file is dated by its history. ``lastmod = git`` insists on a
# work tree with the full history; unset, a tree outside git, or a shallow clone whose history
# would date every page by its newest commit, falls back to the file times (with one warning).

from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path
from typing import Final

from sitemill.config.model import LastmodMode
from sitemill.errors import ConfigError, GitError
from sitemill.lastmod.history.files import FileVersions, read_file_versions
from sitemill.lastmod.history.lastcommit import find_work_tree, read_git_history
from sitemill.progress import HISTORY, Progress, Ticker

log = logging.getLogger(__name__)

# How the warning on a shallow clone begins (one such warning per run: jobs.tree).
SHALLOW_CLONE: Final = "this is a shallow clone"

# What git log gives: the mode that applies, and git's dates or each file's versions.
LoggedHistory = tuple[LastmodMode, dict[str, int] | FileVersions | None]


def read_history(
    mode: LastmodMode | None,
    site_dir: Path,
    paths: Collection[str],
    warnings: list[str],
    dirty: frozenset[str] | None,
    by_content: bool,
    progress: Progress | None = None,
) -> LoggedHistory:
    """The ``mode`` that applies (None: git in a work tree, else mtime), and git's dates (each
    file's last commit), or ``by_content`` each file's versions (dated once the pages'
    fingerprints are known); ``dirty``: what git status said already, if it was asked."""
    if mode is LastmodMode.NONE:
        return mode, None
    if find_work_tree(site_dir) is None:
        if mode is LastmodMode.GIT:
            raise ConfigError("lastmod", f"git needs a git work tree, and {site_dir} is not in one")
        return LastmodMode.MTIME, None
    if mode is LastmodMode.MTIME:
        return mode, None
    # (each commit told: git log may take seconds for a few dozen, each naming many files)
    commits = Ticker(progress, HISTORY, every=1)
    history = (
        read_file_versions(site_dir, set(paths), dirty, commits.to)
        if by_content
        else read_git_history(site_dir, set(paths), commits.to)
    )
    commits.finish()
    # A shallow clone that holds none of the site's files (untracked build output) says
    # nothing here: its pages have no history to cut; the sources' rung says what it lost.
    tracks = history.versions if isinstance(history, FileVersions) else history.dates
    if history.shallow and tracks:
        advice = f"{SHALLOW_CLONE}, so git dates would all be the newest commit's; " + (
            "fetch the full history (actions/checkout: fetch-depth: 0)"
        )
        if mode is LastmodMode.GIT:
            raise GitError(f"lastmod = git: {advice}")
        warnings.append(f"{advice}. Using file modification times instead.")
        log.warning("%s; using file modification times", advice)
        return LastmodMode.MTIME, None
    if isinstance(history, FileVersions):
        return LastmodMode.GIT, history
    return LastmodMode.GIT, {p: when for p, when in history.dates.items() if p not in history.dirty}
