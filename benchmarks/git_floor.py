"""The floor of `sitemill build --lastmod git` on a repository (issue 64): what no such run can
skip, and nothing else. ``import sitemill``; one ``git log`` pass over HEAD's first-parent line
as sitemill runs it (the same command line, settings and environment: renames followed, whole
object names), its output read to the end and not parsed; every file of the work tree's listing
read once, whole, its bytes not looked at.

    python benchmarks/git_floor.py REPO

`make bench` (build-git-10k) runs it beside `sitemill build`, interleaved, and reports sitemill's
wall time as a ratio to this one's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sitemill  # noqa: F401  (the floor pays the package's import, as every run does)

_CHUNK = 1 << 16


def log_pass(repo: Path) -> int:
    """Run sitemill's git log over ``repo``'s HEAD and read it whole; the bytes read."""
    from sitemill.lastmod.history.lastcommit import _git, log_command

    git = _git(repo)
    head = git.output("rev-parse", "--verify", "HEAD").decode().strip()
    env = {**git.env, "GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}
    command = git.command(log_command(head, "-M", "--raw", "--no-abbrev"))
    read = 0
    with subprocess.Popen(command, stdout=subprocess.PIPE, env=env, cwd=repo) as process:
        assert process.stdout is not None
        while chunk := process.stdout.read(_CHUNK):
            read += len(chunk)
    return read


def read_pages(repo: Path) -> int:
    """Every file under ``repo`` but git's own, read once; the bytes read."""
    read = 0
    for folder, folders, files in os.walk(repo):
        if ".git" in folders:
            folders.remove(".git")
        for name in files:
            with open(os.path.join(folder, name), "rb") as handle:
                read += len(handle.read())
    return read


if __name__ == "__main__":
    repo = Path(sys.argv[1])
    print(log_pass(repo), read_pages(repo))
