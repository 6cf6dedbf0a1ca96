"""Last-commit dates of a site's files from one streamed ``git log``, for <lastmod>."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from sitemill.errors import GitError
from sitemill.git.run import Git, find_top, git_env
from sitemill.lastmod.history.logparse import HistoryWalk

# Private here, and looked up in this module by _read_log_dates on each call (a test wraps it
# to count the commits read).
from sitemill.lastmod.history.logparse import parse_log as _parse_log

log = logging.getLogger(__name__)

# With the runner's own options, these make git's output the same whatever the user's
# configuration says.
_SETTINGS = ("log.diffMerges=separate",)  # what -m means since git 2.31; older gits ignore it
_NOT_A_WORK_TREE = (b"not a git repository", b"must be run in a work tree", b"cannot change to")


@dataclass(frozen=True, slots=True)
class GitHistory:
    """What git knows about a site's files; all paths are site-relative POSIX paths.

    ``dates`` holds, for each file of HEAD's tree under the site (only those in ``wanted``, when
    given), the committer time in unix seconds of the newest commit of HEAD's first-parent line
    that changed it (a merge that brought the change: the merge's), as
    ``git log --first-parent -1 --format=%ct -- path`` says.
    ``dirty`` names files whose content differs from HEAD (staged, unstaged or untracked, not
    ignored): their commit date is not their content's date. ``shallow`` means history is cut
    off, so dates of files untouched since the cut are the cut's date.
    """

    dates: Mapping[str, int]
    dirty: frozenset[str]
    shallow: bool


def find_work_tree(site_dir: Path) -> Path | None:
    """Return the top of the git work tree holding ``site_dir``, or None (no repo, no git).

    git runs from the top that ``find_top`` finds, never from ``site_dir`` (see git.run)."""
    found = find_top(site_dir)
    if found is None:
        return None
    git = _git(found)
    try:
        done = git.run("rev-parse", "--show-toplevel")
    except GitError as exc:
        if not isinstance(exc.__cause__, FileNotFoundError):
            raise
        log.debug("git is not installed")
        return None
    if done.returncode != 0:
        if not any(text in done.stderr for text in _NOT_A_WORK_TREE):
            # Worth a warning: in CI this is usually git's safe.directory check, and the
            # fallback to mtime gives every page the checkout time.
            log.warning("git cannot read %s: %s", site_dir, git.message(done))
        return None
    top = done.stdout.removesuffix(b"\n")
    return Path(os.fsdecode(top)) if top else None


def read_git_history(
    site_dir: Path,
    wanted: Collection[str] | None = None,
    on_commits: Callable[[int], None] | None = None,
) -> GitHistory:
    """Read commit dates, dirty files and shallowness for the files under ``site_dir``.

    With ``wanted``, dates are read for those paths only, and git stops as soon as each of
    them that HEAD holds has its date. ``on_commits`` is told the commits read so far.
    """
    top, head, shallow = _locate(site_dir)
    relative = _site_relative(site_dir, top)
    pathspec = (relative,) if relative else ()
    prefix = os.fsencode(relative + "/") if relative else b""
    git = _git(top)
    dirty = _read_dirty(git, prefix, pathspec)
    if head is None:
        return GitHistory(dates={}, dirty=dirty, shallow=shallow)
    listing = git.output("ls-tree", "-r", "-z", "--name-only", "--full-tree", head, *pathspec)
    targets = {name for name in listing.split(b"\0") if name}
    if wanted is not None:
        targets &= {prefix + os.fsencode(path) for path in wanted}
    dates = _read_log_dates(git, head, targets, on_commits) if targets else {}
    cut = len(prefix)
    return GitHistory(
        dates={os.fsdecode(name[cut:]): when for name, when in dates.items()},
        dirty=dirty,
        shallow=shallow,
    )


def head_time(site_dir: Path) -> int | None:
    """The committer time (POSIX seconds) of HEAD of the work tree holding ``site_dir``; None
    when git cannot tell (no commit yet, no git)."""
    top = find_top(site_dir)
    if top is None:
        return None
    try:
        done = _git(top).run("log", "-1", "--no-show-signature", "--format=%ct", "HEAD", "--")
    except GitError:
        return None
    text = done.stdout.strip()
    return int(text) if done.returncode == 0 and text.isdigit() else None


def _locate(site_dir: Path) -> tuple[Path, str | None, bool]:
    """Return the work tree's top, HEAD's commit (None before the first commit), shallowness."""
    found = find_top(site_dir)
    if found is None:
        raise GitError(f"{site_dir} is not inside a git work tree")
    git = _git(found)
    done = git.run(
        "rev-parse", "--is-shallow-repository", "--show-toplevel", "--verify", "-q", "HEAD^{commit}"
    )
    # Output: "true|false\n<top>\n<sha>\n"; <top> may itself hold newlines, and an unborn
    # HEAD only makes --verify fail with status 1 after the first two lines are out.
    shallow, _, rest = done.stdout.removesuffix(b"\n").partition(b"\n")
    head: bytes | None = None
    if done.returncode == 0:
        rest, _, head = rest.rpartition(b"\n")
    elif done.returncode != 1:
        raise GitError(f"{site_dir} is not in a git work tree: {git.message(done)}")
    if shallow not in (b"true", b"false") or not rest:
        raise GitError(f"{site_dir} is not inside a git work tree")
    return Path(os.fsdecode(rest)), head.decode("ascii") if head else None, shallow == b"true"


def _site_relative(site_dir: Path, top: Path) -> str:
    """Return site_dir relative to the work tree as a POSIX path, "" for the top itself."""
    try:
        relative = site_dir.resolve().relative_to(top.resolve())
    except ValueError as exc:
        raise GitError(f"{site_dir} is not inside the git work tree {top}") from exc
    return "" if relative == Path() else relative.as_posix()


def _read_dirty(git: Git, prefix: bytes, pathspec: tuple[str, ...]) -> frozenset[str]:
    """Return the site-relative paths that differ from HEAD or are untracked (not ignored)."""
    output = git.without_drivers().output(
        "status",
        "--porcelain",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules=none",
        "--",
        *pathspec,
    )
    dirty: set[str] = set()
    records = iter(output.split(b"\0"))
    for record in records:
        if not record:
            continue
        if record[:1] in (b"R", b"C"):
            next(records, None)  # the rename's source path; --no-renames should prevent it
        path = record[3:]
        if path.startswith(prefix):
            dirty.add(os.fsdecode(path[len(prefix) :]))
    return frozenset(dirty)


def _read_log_dates(
    git: Git, head: str, targets: set[bytes], on_commits: Callable[[int], None] | None = None
) -> dict[bytes, int]:
    """Stream one ``git log`` over HEAD's history and date every target path."""
    command = log_command(head, "--no-renames", "--name-only")
    walk = HistoryWalk(targets)
    try:
        with git.stream(*command) as output:
            for count, commit in enumerate(_parse_log(output.stdout, walk.unresolved), 1):
                if on_commits is not None:
                    on_commits(count)
                if walk.visit(commit):
                    output.stop()
                    break
    except ValueError as exc:
        raise GitError(f"unexpected git log output: {exc}") from exc
    log.debug("dated %d of %d files", len(walk.dates), len(targets))
    return walk.dates


def log_command(head: str, *output: str) -> list[str]:
    """``git log`` over HEAD's first-parent line as the walkers read it (history.logparse,
    history.versions): the branch's own history, each merge's diff against its first
    parent only (what the merge brought into the branch, when its readers first saw it), no
    program a repository names (external diff, textconv), one header per commit after a NUL
    (an empty token no path can be); ``output`` adds the diff format and rename handling."""
    return [
        "log",
        "--first-parent",
        "-m",
        "--root",
        *output,
        "-z",
        "--no-color",
        "--no-show-signature",
        "--no-ext-diff",
        "--no-textconv",
        "--ignore-submodules=none",
        "--format=%x00%H %ct %P",
        head,
        "--",
    ]


def _git(directory: Path) -> Git:
    """git in ``directory``, for reading: the environment of this process, made safe."""
    return Git(directory, git_env(reading=True), _SETTINGS)
