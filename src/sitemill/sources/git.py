"""Last-commit dates of a site's files from one streamed ``git log``, for <lastmod>."""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from sitemill.errors import GitError

log = logging.getLogger(__name__)

# Options that make git's output the same whatever the user's configuration says.
_GIT_OPTIONS = (
    "--no-pager",
    "--literal-pathspecs",  # the site's own directory name is a path, never a glob
    "-c",
    "core.quotepath=off",
    "-c",
    "log.diffMerges=separate",  # what -m means since git 2.31; older gits ignore the key
)
# These would point git at another repository or index than the one holding the site
# (git sets them while it runs hooks), or clash with --literal-pathspecs.
_DROPPED_ENV = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_PREFIX",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
)
_NOT_A_WORK_TREE = (b"not a git repository", b"must be run in a work tree", b"cannot change to")
_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class GitHistory:
    """What git knows about a site's files; all paths are site-relative POSIX paths.

    ``dates`` holds, for each file of HEAD's tree under the site (only those in ``wanted``, when
    given), the committer time in unix seconds of the newest commit that changed it, as
    ``git log -1 --format=%ct -- path`` says.
    ``dirty`` names files whose content differs from HEAD (staged, unstaged or untracked, not
    ignored): their commit date is not their content's date. ``shallow`` means history is cut
    off, so dates of files untouched since the cut are the cut's date.
    """

    dates: Mapping[str, int]
    dirty: frozenset[str]
    shallow: bool


def find_work_tree(site_dir: Path) -> Path | None:
    """Return the top of the git work tree holding ``site_dir``, or None (no repo, no git)."""
    try:
        done = _run_git(site_dir, "rev-parse", "--show-toplevel")
    except FileNotFoundError:
        log.debug("git is not installed")
        return None
    if done.returncode != 0:
        if not any(text in done.stderr for text in _NOT_A_WORK_TREE):
            # Worth a warning: in CI this is usually git's safe.directory check, and the
            # fallback to mtime gives every page the checkout time.
            log.warning("git cannot read %s: %s", site_dir, _message(done.stderr))
        return None
    top = done.stdout.removesuffix(b"\n")
    return Path(os.fsdecode(top)) if top else None


def read_git_history(site_dir: Path, wanted: Collection[str] | None = None) -> GitHistory:
    """Read commit dates, dirty files and shallowness for the files under ``site_dir``.

    With ``wanted``, dates are read for those paths only, and git stops as soon as each of
    them that HEAD holds has its date.
    """
    top, head, shallow = _locate(site_dir)
    relative = _site_relative(site_dir, top)
    pathspec = (relative,) if relative else ()
    prefix = os.fsencode(relative + "/") if relative else b""
    dirty = _read_dirty(top, prefix, pathspec)
    if head is None:
        return GitHistory(dates={}, dirty=dirty, shallow=shallow)
    listing = _git_output(top, "ls-tree", "-r", "-z", "--name-only", "--full-tree", head, *pathspec)
    targets = {name for name in listing.split(b"\0") if name}
    if wanted is not None:
        targets &= {prefix + os.fsencode(path) for path in wanted}
    dates = _read_log_dates(top, head, targets) if targets else {}
    cut = len(prefix)
    return GitHistory(
        dates={os.fsdecode(name[cut:]): when for name, when in dates.items()},
        dirty=dirty,
        shallow=shallow,
    )


def _locate(site_dir: Path) -> tuple[Path, str | None, bool]:
    """Return the work tree's top, HEAD's commit (None before the first commit), shallowness."""
    try:
        done = _run_git(
            site_dir,
            "rev-parse",
            "--is-shallow-repository",
            "--show-toplevel",
            "--verify",
            "-q",
            "HEAD^{commit}",
        )
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    # Output: "true|false\n<top>\n<sha>\n"; <top> may itself hold newlines, and an unborn
    # HEAD only makes --verify fail with status 1 after the first two lines are out.
    shallow, _, rest = done.stdout.removesuffix(b"\n").partition(b"\n")
    head: bytes | None = None
    if done.returncode == 0:
        rest, _, head = rest.rpartition(b"\n")
    elif done.returncode != 1:
        raise GitError(f"{site_dir} is not in a git work tree: {_message(done.stderr)}")
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


def _read_dirty(top: Path, prefix: bytes, pathspec: tuple[str, ...]) -> frozenset[str]:
    """Return the site-relative paths that differ from HEAD or are untracked (not ignored)."""
    output = _git_output(
        top,
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


@dataclass(slots=True)
class _Commit:
    """One commit of the log; with -m a merge has one name block per parent it differs from."""

    sha: bytes
    time: int
    tree: bytes
    parents: list[bytes]
    blocks: list[list[bytes]] = field(default_factory=list)


def _read_log_dates(top: Path, head: str, targets: set[bytes]) -> dict[bytes, int]:
    """Stream one ``git log`` over HEAD's history and date every target path."""
    command = [
        "log",
        "-m",  # every merge's diff against each parent: needed to follow git's simplification
        "--root",
        "--no-renames",
        "--date-order",  # never a parent before all its children: reach sets are complete
        "--name-only",
        "-z",
        "--no-color",
        "--no-show-signature",
        "--ignore-submodules=none",
        # The leading NUL gives an empty token before each header, which no path can be.
        "--format=%x00%H %ct %T %P",
        head,
        "--",
    ]
    walk = _HistoryWalk(head.encode("ascii"), targets)
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(
                _git_command(top, command),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=_git_env(),
            )
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc
        with process:
            assert process.stdout is not None
            stopped = False
            try:
                for commit in _parse_log(process.stdout, walk.unresolved):
                    if walk.visit(commit):
                        stopped = True
                        break
            except ValueError as exc:
                raise GitError(f"unexpected git log output: {exc}") from exc
            finally:
                if process.poll() is None:
                    process.terminate()
            returncode = process.wait()
        if returncode != 0 and not stopped:
            errors.seek(0)
            raise GitError(f"git log failed: {_message(errors.read())}")
    log.debug("dated %d of %d files", len(walk.dates), len(targets))
    return walk.dates


def _parse_log(stream: IO[bytes], relevant: set[bytes]) -> Iterator[_Commit]:
    """Yield the commits of ``git log -z --name-only`` output, keeping only relevant names."""
    commit: _Commit | None = None
    block: list[bytes] = []
    header_next = new_block = False
    tail = b""
    while chunk := stream.read(_CHUNK):
        tokens = (tail + chunk).split(b"\0")
        tail = tokens.pop()
        for token in tokens:
            if not token:
                header_next = True
            elif header_next:
                header_next = False
                sha, time, tree, *parents = token.split()
                if commit is None or sha != commit.sha:
                    if commit is not None:
                        yield commit
                    commit = _Commit(sha, int(time), tree, parents)
                block = []
                new_block = True
            else:
                if commit is None:
                    raise ValueError("file names before the first commit")
                if new_block:
                    # A blank line separates the header from the names; it sticks to the first.
                    token = token.removeprefix(b"\n")
                    commit.blocks.append(block)
                    new_block = False
                if token in relevant:
                    block.append(token)
    if commit is not None:
        yield commit


@dataclass(frozen=True, slots=True)
class _Reach:
    """The paths whose simplified history reaches a commit: all except ``paths``, or only them."""

    excluding: bool
    paths: frozenset[bytes]

    def covers(self, path: bytes) -> bool:
        return (path in self.paths) != self.excluding


@dataclass(slots=True)
class _PendingMerge:
    """A two-parent merge whose single name block belongs to whichever parent's tree differs."""

    tree: bytes
    parents: list[bytes]
    reach: _Reach
    names: frozenset[bytes]
    settled: bool = False


class _HistoryWalk:
    """Replays git's default history simplification for every target path at once.

    ``git log -- path`` follows, at a merge, only the first parent whose version of ``path``
    equals the merge's; a commit is shown when it changes ``path`` against every parent it has.
    Instead of one walk per path, each commit carries the set of paths whose simplified history
    reaches it, and a path is dated by the first commit in date order that it reaches and changes.
    """

    def __init__(self, head: bytes, targets: set[bytes]) -> None:
        self.unresolved = set(targets)
        self.dates: dict[bytes, int] = {}
        self._reach: dict[bytes, _Reach] = {head: _Reach(excluding=True, paths=frozenset())}
        self._pending: dict[bytes, list[_PendingMerge]] = {}

    def visit(self, commit: _Commit) -> bool:
        """Account for one commit; return True when nothing older can change the result."""
        for merge in self._pending.pop(commit.sha, ()):
            self._settle(merge, commit)
        reach = self._reach.pop(commit.sha, None)
        if reach is not None:
            if len(commit.parents) <= 1:
                self._visit_single(commit, reach)
            else:
                self._visit_merge(commit, reach)
        return not self.unresolved or (not self._reach and not self._pending)

    def _visit_single(self, commit: _Commit, reach: _Reach) -> None:
        for path in commit.blocks[0] if commit.blocks else ():
            if path in self.unresolved and reach.covers(path):
                self._resolve(path, commit.time)
        if commit.parents:
            self._send(commit.parents[0], reach)

    def _visit_merge(self, commit: _Commit, reach: _Reach) -> None:
        parents, blocks = commit.parents, commit.blocks
        if not blocks:  # the same tree as every parent: git follows the first
            self._send(parents[0], reach)
        elif len(blocks) == len(parents):
            for path in set(blocks[0]).intersection(*blocks[1:]):
                if path in self.unresolved and reach.covers(path):
                    self._resolve(path, commit.time)  # differs from every parent
            changed = set(blocks[0])  # names that differ from every parent seen so far
            self._send(parents[0], self._without(reach, changed))
            for parent, block in zip(parents[1:], blocks[1:], strict=True):
                names = set(block)
                self._send(parent, self._only(reach, changed - names))
                changed &= names
        elif len(parents) == 2:
            # -m prints nothing for a parent with the merge's own tree, so which parent this
            # block belongs to is known only once one parent's tree is seen.
            merge = _PendingMerge(commit.tree, parents, reach, frozenset(blocks[0]))
            for parent in parents:
                self._pending.setdefault(parent, []).append(merge)
        else:
            # An octopus merge with a parent equal to its result: follow every parent, which
            # can only date a path more recently than git would.
            for parent in parents:
                self._send(parent, reach)

    def _settle(self, merge: _PendingMerge, parent: _Commit) -> None:
        if merge.settled:
            return
        merge.settled = True
        first, second = merge.parents
        if (parent.tree == merge.tree) == (parent.sha == first):
            self._send(first, merge.reach)  # the first parent has the merge's tree
        else:
            self._send(first, self._without(merge.reach, merge.names))
            self._send(second, self._only(merge.reach, merge.names))

    def _resolve(self, path: bytes, time: int) -> None:
        self.unresolved.discard(path)
        self.dates[path] = time

    def _without(self, reach: _Reach, names: Iterable[bytes]) -> _Reach:
        if reach.excluding:
            kept = {path for path in reach.paths.union(names) if path in self.unresolved}
            return _Reach(excluding=True, paths=frozenset(kept))
        return _Reach(excluding=False, paths=reach.paths.difference(names))

    def _only(self, reach: _Reach, names: Iterable[bytes]) -> _Reach:
        kept = {path for path in names if path in self.unresolved and reach.covers(path)}
        return _Reach(excluding=False, paths=frozenset(kept))

    def _send(self, sha: bytes, reach: _Reach) -> None:
        if not reach.excluding and not reach.paths:
            return
        known = self._reach.get(sha)
        if known is None:
            self._reach[sha] = reach
        elif known.excluding and reach.excluding:
            self._reach[sha] = _Reach(excluding=True, paths=known.paths & reach.paths)
        elif known.excluding or reach.excluding:
            excluded, included = (known, reach) if known.excluding else (reach, known)
            self._reach[sha] = _Reach(excluding=True, paths=excluded.paths - included.paths)
        else:
            self._reach[sha] = _Reach(excluding=False, paths=known.paths | reach.paths)


def _git_env() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in _DROPPED_ENV}
    env.update(LC_ALL="C", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0")
    return env


def _git_command(cwd: Path, args: Iterable[str]) -> list[str]:
    return ["git", "-C", os.fspath(cwd), *_GIT_OPTIONS, *args]


def _run_git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        _git_command(cwd, args),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=_git_env(),
        check=False,
    )


def _git_output(cwd: Path, *args: str) -> bytes:
    """Run a short git command and return its output; any failure is a GitError."""
    try:
        done = _run_git(cwd, *args)
        done.check_returncode()
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    except subprocess.CalledProcessError as exc:
        raise GitError(f"git {args[0]} failed: {_message(exc.stderr)}") from exc
    return done.stdout


def _message(stderr: bytes) -> str:
    # git ends with the line that says what failed ("fatal: ..."), after any hints.
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "no message"
