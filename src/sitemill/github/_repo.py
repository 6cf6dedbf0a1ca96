"""The repository seen from the output directory: stage, commit, push, fetch and replay."""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from sitemill.errors import ConfigError, GitError
from sitemill.git.run import Git, find_top, git_env
from sitemill.messages import redact

# Commands that read or write files of the work tree, where a filter or merge driver that
# .gitattributes selects would run: they run with every configured driver switched off.
_TOUCHING_THE_TREE: Final = frozenset({"add", "commit", "reset", "rebase", "status", "stash"})
# git's well-known empty tree: the base to diff against on a branch with no commit yet.
_EMPTY_TREE: Final = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
# Pathspecs read from stdin, NUL-terminated (add, rm and commit take them so).
_FROM_STDIN: Final = ("--pathspec-from-file=-", "--pathspec-file-nul")
_IDENTITY: Final = re.compile(r"\s*([^<>\x00-\x1f]+?)\s*<([^<>\s]+@[^<>\s]+)>\s*")


@dataclass(frozen=True, slots=True)
class GitIdentity:
    """The author and committer of sitemill's commits, e.g. ``Name <email>``."""

    name: str
    email: str

    @classmethod
    def parse(cls, text: str) -> GitIdentity:
        """Read ``Name <email>``; anything else is a ConfigError on ``committer``."""
        match = _IDENTITY.fullmatch(text)
        if match is None:
            raise ConfigError("committer", f"{text!r} is not of the form 'Name <email>'")
        return cls(match[1], match[2])


class Repo:
    """A git work tree seen from the output directory; identity and safety via ``-c`` only.

    git runs with the Action's environment (the credentials actions/checkout set up keep
    working), minus the variables that would override the identity or the repository, from
    the work tree's top (``top``, see sitemill.git.run: never from a folder that committed
    files make look like a bare repository), with paths given relative to ``workdir``.
    Nothing it runs starts a program the repository names: no hook (commits also pass
    --no-verify), no filter or merge driver, no fsmonitor, editor, pager or signing.
    """

    def __init__(self, workdir: Path, top: Path, identity: GitIdentity, env: Mapping[str, str]):
        self.workdir = workdir
        self.identity = identity
        inside = Path(os.path.realpath(workdir)).relative_to(top).as_posix()
        self._prefix = "" if inside == "." else inside + "/"  # workdir, from the top
        self._git = Git(
            top,
            git_env(env),
            (f"user.name={identity.name}", f"user.email={identity.email}"),
            describe=_describe,
        )
        self._tree_git: Git | None = None

    @classmethod
    def open(cls, workdir: Path, identity: GitIdentity, env: Mapping[str, str]) -> Repo:
        """The repository that holds ``workdir``; GitError when there is none."""
        top = find_top(workdir, env)
        if top is not None:
            repo = cls(workdir, top, identity, env)
            found = repo.git("rev-parse", "--is-inside-work-tree", check=False)
            if found.returncode == 0 and _text(found.stdout).strip() == "true":
                return repo
        raise GitError(
            f"commit is true, but {workdir} is not inside a git work tree "
            "(check out the repository first, or set commit: false)"
        )

    def git(
        self,
        *args: str,
        check: bool = True,
        stdin: str | None = None,
        options: Sequence[str] = (),
        literal: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run one git command in the output directory; GitError (redacted) when it fails.

        ``options`` are extra ``-c key=value`` settings for this command only; ``literal``
        takes pathspecs literally (the commands that support it).
        """
        data = None if stdin is None else stdin.encode("utf-8", "surrogateescape")
        git = self._git if args[0] not in _TOUCHING_THE_TREE else self._without_drivers()
        done = git.run(*args, stdin=data, literal=literal, settings=options)
        if check and done.returncode != 0:
            raise self._git.failure(args[0], done)
        return done

    def _without_drivers(self) -> Git:
        if self._tree_git is None:
            self._tree_git = self._git.without_drivers()
        return self._tree_git

    def _paths(self, names: Sequence[str]) -> list[str]:
        """Output names as paths from the top, where git runs: a name relative to the
        output directory may lead out of it (``../.sitemill/state.json.gz``), never out of
        the work tree."""
        outside = self.outside(names)
        if outside:
            raise GitError(f"{', '.join(outside)} is outside the git work tree: not committed")
        return [posixpath.normpath(self._prefix + name) for name in names]

    def outside(self, names: Sequence[str]) -> list[str]:
        """The names that lead out of the work tree (a state file elsewhere in the workspace)."""
        paths = [posixpath.normpath(self._prefix + name) for name in names]
        return [name for name, path in zip(names, paths, strict=True) if _leaves(path)]

    def _names(self, paths: Sequence[str], names: Sequence[str]) -> list[str]:
        """Of ``names``, those whose path from the top is among ``paths`` (git's order)."""
        of_path = dict(zip(self._paths(names), names, strict=True))
        return [of_path[path] for path in paths if path in of_path]

    def read(self, *args: str) -> str:
        """The output of a command that must succeed, as text."""
        return _text(self.git(*args).stdout)

    def message(self, done: subprocess.CompletedProcess[bytes]) -> str:
        """Why a command failed, on one line, redacted."""
        return self._git.message(done)

    def current_branch(self) -> str | None:
        """The checked-out branch, or None on a detached HEAD."""
        done = self.git("symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        return _text(done.stdout).strip() if done.returncode == 0 else None

    def push_target(self, branch: str) -> tuple[str, str]:
        """The remote and the ref a push of ``branch`` goes to: its upstream, else origin."""
        remote = self._config(f"branch.{branch}.remote") or "origin"
        ref = self._config(f"branch.{branch}.merge") or f"refs/heads/{branch}"
        return remote, ref

    def _config(self, key: str) -> str | None:
        done = self.git("config", "--get", key, check=False)
        return _text(done.stdout).strip() or None

    def stage(self, names: Sequence[str]) -> list[str]:
        """Stage these output files (present or deleted); return the ones that differ from HEAD."""
        present = [name for name in names if (self.workdir / name).exists()]
        gone = [name for name in names if name not in present]
        if present:
            self._refuse_ignored(present)
            self.git("add", *_FROM_STDIN, stdin=self._pathspecs(present))
        if gone:
            self.git(
                "rm", "--cached", "--quiet", "--ignore-unmatch", *_FROM_STDIN,
                stdin=self._pathspecs(gone),
            )  # fmt: skip
        head = self.git("rev-parse", "--verify", "--quiet", "HEAD", check=False)
        base = _text(head.stdout).strip() if head.returncode == 0 else _EMPTY_TREE
        # Every staged difference, filtered here: git diff takes no pathspec file.
        diff = self.read(
            "diff", "--cached", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv",
            "-z", base,
        )  # fmt: skip
        return self._names(diff.split("\0"), names)

    def _pathspecs(self, names: Sequence[str]) -> str:
        """``names`` as a pathspec file (from the top, NUL-terminated) for git's stdin: never
        on a command line, which any process may read (the IndexNow key file's name)."""
        return "".join(path + "\0" for path in self._paths(names))

    def ignored(self, names: Sequence[str]) -> list[str]:
        """The names that git ignores (.gitignore, .git/info/exclude)."""
        # check-ignore refuses --literal-pathspecs; sitemill's own names hold no glob characters.
        paths = "".join(path + "\0" for path in self._paths(names))
        done = self.git("check-ignore", "-z", "--stdin", stdin=paths, check=False, literal=False)
        return self._names(_text(done.stdout).split("\0"), names)

    def _refuse_ignored(self, names: Sequence[str]) -> None:
        # Otherwise `git add` fails with a hint to force it, which is not what the user wants.
        ignored = self.ignored(names)
        if ignored:
            raise GitError(
                f"git ignores {', '.join(ignored)} (.gitignore), so it cannot be committed: "
                "set commit: false to only write the files, or stop ignoring them"
            )

    def commit(self, names: Sequence[str], message: str) -> str:
        """Commit exactly these files (``--only``: whatever else is staged stays out)."""
        with tempfile.TemporaryDirectory(prefix="sitemill-commit-") as scratch:
            text = Path(scratch) / "message"  # (stdin carries the pathspecs)
            text.write_bytes(message.encode("utf-8", "surrogateescape"))
            self.git(
                "commit", "--quiet", "--no-verify", "--cleanup=whitespace", f"--file={text}",
                "--only", *_FROM_STDIN, stdin=self._pathspecs(names),
            )  # fmt: skip
        return self.read("rev-parse", "HEAD").strip()

    def push(self, remote: str, ref: str) -> str | None:
        """Push HEAD; None on success, else git's (redacted) message."""
        done = self.git("push", "--quiet", remote, f"HEAD:{ref}", check=False)
        return None if done.returncode == 0 else self.message(done)

    def fetch(self, remote: str, ref: str) -> str | None:
        """The remote's current commit for ``ref``, or None when it cannot be fetched."""
        done = self.git("fetch", "--quiet", "--no-tags", remote, ref, check=False)
        if done.returncode != 0:
            return None
        return self.read("rev-parse", "FETCH_HEAD").strip()

    def contains(self, commit: str, ancestor: str) -> bool:
        """Whether ``ancestor`` is part of ``commit``'s history."""
        done = self.git("merge-base", "--is-ancestor", ancestor, commit, check=False)
        return done.returncode == 0

    def replay_onto(self, tip: str) -> None:
        """Drop our unpushed commit, then rebase any earlier local commits onto ``tip``.

        Our commit is regenerated rather than rebased: rebasing generated files conflicts
        whenever the concurrent push was another sitemill run, and would list a stale tree.
        """
        self.git("reset", "--quiet", "--keep", "HEAD~1")
        done = self.git("rebase", "--quiet", tip, check=False, options=["rebase.autoStash=true"])
        if done.returncode != 0:
            self.git("rebase", "--abort", check=False)
            raise GitError(
                f"the remote moved and the branch's own commits do not rebase onto it: "
                f"{self.message(done)}"
            )


def _leaves(path: str) -> bool:
    return path == ".." or path.startswith("../") or posixpath.isabs(path)


def _text(data: bytes) -> str:
    # What git prints is UTF-8 for sitemill's names; anything else survives the round trip.
    return data.decode("utf-8", "surrogateescape")


def _describe(stderr: bytes, stdout: bytes, returncode: int) -> str:
    """All of git's message on one line (a push's reason is not its last line), redacted."""
    text = _text(stderr or stdout).strip()
    return redact(" ".join(text.split())) or f"exit status {returncode}"
