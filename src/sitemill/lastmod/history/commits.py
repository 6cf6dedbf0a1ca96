"""The commits behind a page's git date, named for ``sitemill why``: one ``git log`` of one file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sitemill.errors import GitError
from sitemill.git.run import Git, git_env


@dataclass(frozen=True, slots=True)
class NamedCommit:
    """A commit as a user names it: its sha, its committer time (POSIX), its subject."""

    sha: str
    when: int
    subject: str


def file_log(site_dir: Path, path: str) -> list[NamedCommit]:
    """The commits of HEAD's first-parent line that changed ``path`` (relative to
    ``site_dir``, renames followed; a merge that brought a change, not the merged branch's
    commits), newest first, as the dates walk them; [] when git cannot tell (no repository, a
    file it does not track). Where git cannot read an object ``--follow`` needs (a mirror or
    partial clone that lacks it), the log is the file's own, renames not followed (the dates
    walk such a history following only renames that kept a file's bytes: history.files)."""
    git = Git(site_dir, git_env(reading=True))
    log = ["log", "--first-parent", "-z", "--format=%H %ct %s", "HEAD", "--", path]
    try:
        done = git.run(*log[:2], "--follow", *log[2:])
        if done.returncode != 0:
            done = git.run(*log)
    except GitError:
        return []
    commits = []
    # Each record ends with a NUL; after the last one: nothing, or a record git cut short.
    for record in done.stdout.decode("utf-8", "replace").split("\0")[:-1]:
        sha, _, rest = record.strip("\n").partition(" ")
        when, _, subject = rest.partition(" ")
        if sha and when.isdigit():
            commits.append(NamedCommit(sha, int(when), subject))
    return commits


def page_commits(
    site_dir: Path, path: str, content: int, last: int
) -> tuple[NamedCommit | None, NamedCommit | None]:
    """The commit whose time is the page's ``content`` date (the oldest of the unbroken run
    of versions with today's content) and its ``last`` commit, found in the file's log."""
    commits = file_log(site_dir, path)
    dated = [commit for commit in commits if commit.when == content]
    newest = next((commit for commit in commits if commit.when == last), None)
    return (dated[-1] if dated else None), newest
