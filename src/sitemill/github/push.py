"""Commit sitemill's outputs and push them; when the remote moved meanwhile, replay and retry."""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from sitemill.errors import ConfigError, GitError

log = logging.getLogger(__name__)

PUSH_ATTEMPTS: Final = 3
# git's well-known empty tree: the base to diff against on a branch with no commit yet.
_EMPTY_TREE: Final = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
# "https://user:token@host/" in git's messages: the token must never reach a log.
_USERINFO: Final = re.compile(r"(?<=://)[^/@\s]+@")
_IDENTITY: Final = re.compile(r"\s*([^<>\x00-\x1f]+?)\s*<([^<>\s]+@[^<>\s]+)>\s*")
# Identity comes from the committer input alone, and the repository from the output directory:
# these would silently override either (git sets GIT_DIR and GIT_INDEX_FILE while running hooks).
_DROPPED_ENV: Final = frozenset(
    {
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_PREFIX",
    }
)
_CREDENTIALS_HINT: Final = (
    "if it is about credentials: does the job have `permissions: contents: write`, and did "
    "actions/checkout keep its credentials (persist-credentials: true, the default)?"
)


@dataclass(frozen=True, slots=True)
class Identity:
    """The author and committer of sitemill's commits, e.g. ``Name <email>``."""

    name: str
    email: str

    @classmethod
    def parse(cls, text: str) -> Identity:
        """Read ``Name <email>``; anything else is a ConfigError on ``committer``."""
        match = _IDENTITY.fullmatch(text)
        if match is None:
            raise ConfigError("committer", f"{text!r} is not of the form 'Name <email>'")
        return cls(match[1], match[2])


@dataclass
class Published:
    """What commit_and_push did: the pushed commit (None: nothing to commit) and its files."""

    sha: str | None
    branch: str
    paths: list[str] = field(default_factory=list)
    attempts: int = 1


def redact(text: str) -> str:
    """Hide user info (tokens) in URLs that git puts in its messages."""
    return _USERINFO.sub("***@", text)


class Repo:
    """A git work tree seen from the output directory; identity and safety via ``-c`` only."""

    def __init__(self, workdir: Path, identity: Identity, env: Mapping[str, str]) -> None:
        self.workdir = workdir
        self.identity = identity
        child = {key: value for key, value in env.items() if key not in _DROPPED_ENV}
        # Never wait for a password prompt that nobody can answer on a runner.
        child.update(GIT_TERMINAL_PROMPT="0", GCM_INTERACTIVE="never")
        self._env = child

    @classmethod
    def open(cls, workdir: Path, identity: Identity, env: Mapping[str, str]) -> Repo:
        """The repository that holds ``workdir``; GitError when there is none."""
        repo = cls(workdir, identity, env)
        found = repo.git("rev-parse", "--is-inside-work-tree", check=False)
        if found.returncode != 0 or found.stdout.strip() != "true":
            raise GitError(
                f"commit is true, but {workdir} is not inside a git work tree "
                "(check out the repository first, or set commit: false)"
            )
        return repo

    def git(
        self,
        *args: str,
        check: bool = True,
        stdin: str | None = None,
        options: Sequence[str] = (),
        literal: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """Run one git command in the output directory; GitError (redacted) when it fails.

        ``options`` are extra ``-c key=value`` settings for this command only; ``literal``
        takes pathspecs literally (the commands that support it).
        """
        settings = [
            f"user.name={self.identity.name}",
            f"user.email={self.identity.email}",
            "core.quotepath=false",
            *options,
        ]
        # --literal-pathspecs: our file names are data, never glob patterns.
        command = ["git", "--literal-pathspecs"] if literal else ["git"]
        for setting in settings:
            command += ["-c", setting]
        command += args
        try:
            done = subprocess.run(
                command,
                cwd=self.workdir,
                env=self._env,
                input=stdin,
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="surrogateescape",
                check=False,
            )
        except OSError as exc:
            raise GitError(f"cannot run git: {exc.strerror or exc}") from exc
        if check and done.returncode != 0:
            raise GitError(f"git {args[0]} failed: {_message(done)}")
        return done

    def current_branch(self) -> str | None:
        """The checked-out branch, or None on a detached HEAD."""
        done = self.git("symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        return done.stdout.strip() if done.returncode == 0 else None

    def push_target(self, branch: str) -> tuple[str, str]:
        """The remote and the ref a push of ``branch`` goes to: its upstream, else origin."""
        remote = self._config(f"branch.{branch}.remote") or "origin"
        ref = self._config(f"branch.{branch}.merge") or f"refs/heads/{branch}"
        return remote, ref

    def _config(self, key: str) -> str | None:
        done = self.git("config", "--get", key, check=False)
        return done.stdout.strip() or None

    def stage(self, names: Sequence[str]) -> list[str]:
        """Stage these output files (present or deleted); return the ones that differ from HEAD."""
        present = [name for name in names if (self.workdir / name).exists()]
        gone = [name for name in names if name not in present]
        if present:
            self._refuse_ignored(present)
            self.git("add", "--", *present)
        if gone:
            self.git("rm", "--cached", "--quiet", "--ignore-unmatch", "--", *gone)
        head = self.git("rev-parse", "--verify", "--quiet", "HEAD", check=False)
        base = head.stdout.strip() if head.returncode == 0 else _EMPTY_TREE
        diff = self.git("diff", "--cached", "--name-only", "--relative", "-z", base, "--", *names)
        return [name for name in diff.stdout.split("\0") if name]

    def _refuse_ignored(self, names: Sequence[str]) -> None:
        # Otherwise `git add` fails with a hint to force it, which is not what the user wants.
        # check-ignore refuses --literal-pathspecs; sitemill's own names hold no glob characters.
        done = self.git("check-ignore", "--", *names, check=False, literal=False)
        ignored = done.stdout.split()
        if ignored:
            raise GitError(
                f"git ignores {', '.join(ignored)} (.gitignore), so it cannot be committed: "
                "set commit: false to only write the files, or stop ignoring them"
            )

    def commit(self, names: Sequence[str], message: str) -> str:
        """Commit exactly these files (``--only``: whatever else is staged stays out)."""
        self.git(
            "commit", "--quiet", "--cleanup=whitespace", "--file=-", "--only", "--", *names,
            stdin=message,
        )  # fmt: skip
        return self.git("rev-parse", "HEAD").stdout.strip()

    def push(self, remote: str, ref: str) -> str | None:
        """Push HEAD; None on success, else git's (redacted) message."""
        done = self.git("push", "--quiet", remote, f"HEAD:{ref}", check=False)
        return None if done.returncode == 0 else _message(done)

    def fetch(self, remote: str, ref: str) -> str | None:
        """The remote's current commit for ``ref``, or None when it cannot be fetched."""
        done = self.git("fetch", "--quiet", "--no-tags", remote, ref, check=False)
        if done.returncode != 0:
            return None
        return self.git("rev-parse", "FETCH_HEAD").stdout.strip()

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
                f"{_message(done)}"
            )


def commit_and_push(
    repo: Repo,
    branch: str,
    produce: Callable[[], Sequence[str]],
    message: str,
    *,
    attempts: int = PUSH_ATTEMPTS,
) -> Published:
    """Generate (``produce`` returns the output names), commit the changes and push them.

    A push that fails because the remote moved is replayed on the new tip (regenerating, so
    the sitemap lists the tree that is actually pushed) and retried, ``attempts`` in all.
    """
    remote, ref = repo.push_target(branch)
    for attempt in range(1, attempts + 1):
        changed = repo.stage(produce())
        if not changed:
            return Published(None, branch, attempts=attempt)
        sha = repo.commit(changed, message)
        error = repo.push(remote, ref)
        if error is None:
            return Published(sha, branch, changed, attempt)
        tip = repo.fetch(remote, ref)
        if tip is None or repo.contains(f"{sha}~1", tip):
            # The remote did not move, so retrying cannot help: report git's own reason.
            raise GitError(f"git push to {remote} failed: {error}; {_CREDENTIALS_HINT}")
        log.info("%s moved during the run (attempt %d); replaying on %s", remote, attempt, tip)
        repo.replay_onto(tip)
    raise GitError(
        f"git push to {remote} was rejected {attempts} times because {ref} kept moving; "
        "run the workflow again (or serialise it with `concurrency:`)"
    )


def _message(done: subprocess.CompletedProcess[str]) -> str:
    text = (done.stderr or done.stdout).strip()
    return redact(" ".join(text.split())) or f"exit status {done.returncode}"
