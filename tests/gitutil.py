"""Helpers to build real git repositories with fixed dates for tests (no global config)."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path

AUTHOR = "Sitemill Test"
EMAIL = "test@sitemill.invalid"
_SHA = re.compile(r"[0-9a-f]{40}")


def unix(when: str) -> int:
    """Unix seconds of an ISO 8601 time; a time without a zone is UTC."""
    moment = datetime.fromisoformat(when)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


def clock(start: str, step: int = 3600) -> Iterator[str]:
    """Strictly increasing ISO 8601 times from ``start``, ``step`` seconds apart."""
    for seconds in itertools.count(unix(start), step):
        yield datetime.fromtimestamp(seconds, UTC).isoformat()


def git_env(when: str | None = None) -> dict[str, str]:
    """An environment for git that ignores the user's and the system's configuration.

    GIT_* variables of the caller are dropped: tests may run inside a git hook, where GIT_DIR
    and GIT_INDEX_FILE point at another repository.
    """
    env = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME=AUTHOR,
        GIT_AUTHOR_EMAIL=EMAIL,
        GIT_COMMITTER_NAME=AUTHOR,
        GIT_COMMITTER_EMAIL=EMAIL,
        LC_ALL="C",
    )
    if when is not None:
        stamp = f"@{unix(when)} +0000"
        env.update(GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
    return env


def git(repo: Path, *args: str | bytes, when: str | None = None, check: bool = True) -> bytes:
    """Run git in ``repo`` and return its stdout; ``when`` fixes author and committer dates."""
    done = subprocess.run(
        ["git", "-C", os.fspath(repo), *args],
        env=git_env(when),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )
    if check and done.returncode != 0:
        output = (done.stdout + done.stderr).decode(errors="replace")
        raise AssertionError(f"git {args!r} failed: {output}")
    return done.stdout


def make_repo(path: Path, branch: str = "main") -> Path:
    """Create an empty repository at ``path`` whose first branch is ``branch``."""
    path.mkdir(parents=True, exist_ok=True)
    if (path / ".git").exists():  # (init again keeps HEAD, and would ignore -b)
        git(path, "init", "-q")
        git(path, "symbolic-ref", "HEAD", f"refs/heads/{branch}")
    else:
        git(path, "init", "-q", "-b", branch)
    return path


def write(repo: Path, files: Mapping[str | bytes, bytes | str | None]) -> None:
    """Write files (str is UTF-8), deleting those mapped to None; names may be raw bytes."""
    for name, content in files.items():
        target = repo / os.fsdecode(name)
        if content is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode() if isinstance(content, str) else content)


def commit(
    repo: Path,
    files: Mapping[str | bytes, bytes | str | None],
    when: str,
    message: str = "change",
) -> str:
    """Write ``files``, stage everything and commit at ``when``; return the commit's sha."""
    write(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message, when=when)
    return head(repo)


def commit_at_seconds(
    repo: Path, files: Mapping[str | bytes, bytes | str | None], seconds: int, message: str
) -> str:
    """``commit`` at ``seconds`` since 1970 (UTC): also a time no ISO 8601 date can say, which
    git keeps all the same (the year 10000 and after: ``@253402300800 +0000``)."""
    write(repo, files)
    git(repo, "add", "-A")
    env = git_env() | {"GIT_AUTHOR_DATE": f"@{seconds} +0000"}
    env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"]
    subprocess.run(
        ["git", "-C", os.fspath(repo), "commit", "-q", "--allow-empty", "-m", message],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, check=True,
    )  # fmt: skip
    return head(repo)


def merge(
    repo: Path,
    *branches: str,
    when: str,
    message: str = "merge",
    files: Mapping[str | bytes, bytes | str | None] | None = None,
    options: tuple[str, ...] = (),
) -> str:
    """Merge ``branches`` into the current branch as a merge commit at ``when``.

    Conflicts are allowed: ``files`` then says how they are resolved (or adds an evil change).
    """
    git(repo, "merge", "-q", "--no-ff", "--no-commit", *options, *branches, when=when, check=False)
    write(repo, files or {})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, when=when)
    return head(repo)


def checkout(repo: Path, branch: str, *, create: bool = False) -> None:
    """Switch to ``branch``, creating it at the current commit when asked."""
    git(repo, "checkout", "-q", *(["-b"] if create else []), branch)


def is_ancestor(repo: Path, rev: str) -> bool:
    """Whether ``rev`` is already part of HEAD's history (a merge would change nothing)."""
    done = subprocess.run(
        ["git", "-C", os.fspath(repo), "merge-base", "--is-ancestor", rev, "HEAD"],
        env=git_env(),
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def head(repo: Path) -> str:
    """HEAD's commit, read from the files git keeps it in (HEAD, and the loose ref it names, as
    a commit leaves them) without a process of git's; ``git rev-parse HEAD`` when they are not
    there (packed refs, a worktree's or a bare repository's layout)."""
    sha = _head_file(repo / ".git")
    return sha if sha is not None else git(repo, "rev-parse", "HEAD").decode().strip()


def _head_file(git_dir: Path) -> str | None:
    try:
        text = (git_dir / "HEAD").read_text(encoding="ascii").strip()
        if text.startswith("ref: refs/"):
            text = (git_dir / text.removeprefix("ref: ")).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if _SHA.fullmatch(text) else None


def log_date(repo: Path, path: str | bytes) -> int | None:
    """What ``git log --first-parent -1 --format=%ct -- path`` says for a repository-relative
    path: the branch's own history, a merge dated when it brought the change."""
    spec = b":(literal)" + os.fsencode(path)
    out = git(repo, "log", "--first-parent", "-1", "--format=%ct", "--", spec).strip()
    return int(out) if out else None


def tracked(repo: Path) -> list[bytes]:
    """The repository-relative paths of HEAD's tree, as raw bytes."""
    listing = git(repo, "ls-tree", "-r", "-z", "--name-only", "HEAD")
    return [name for name in listing.split(b"\0") if name]


def shallow_clone(workspace: Path, remote: Path, branch: str = "main") -> Path:
    """What actions/checkout does with its defaults: the one commit at the tip of ``branch``
    of ``remote`` (fetch-depth 1, no tags), checked out in a new repository at ``workspace``."""
    sha = git(remote, "rev-parse", branch).decode().strip()
    make_repo(workspace)
    git(workspace, "remote", "add", "origin", f"file://{remote}")
    git(
        workspace,
        "fetch",
        "-q",
        "--no-tags",
        "--depth=1",
        "origin",
        f"+{sha}:refs/remotes/origin/{branch}",
    )
    git(workspace, "checkout", "-q", "--force", "-B", branch, f"refs/remotes/origin/{branch}")
    return workspace
