"""A run ended by a signal once it is under way (its git log still running): a stand-in git
that says so in a file, the run in a process group of its own, and its processes counted in
/proc by a mark in their environment (tests/cli/test_cli_signals.py, the Action's
tests/github/test_action_signals.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

MARK = "SIGNAL_TEST_RUN"  # (set in the run's environment: its processes inherit it)
# git as it is, but a `git log`, its output written, says so in a file (with its process id)
# and stays, as git log over a long history runs on while the pages are read.
GIT_WRAPPER = """#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = log ]; then
    "$REAL_GIT" "$@" || exit $?
    echo $$ > "$LOGGED.next" && mv "$LOGGED.next" "$LOGGED"
    exec sleep 600
  fi
done
exec "$REAL_GIT" "$@"
"""
# The same, but the git log that stays ignores SIGTERM (as a git may, busy in a helper of its
# own): only SIGKILL ends it.
STUBBORN_GIT_WRAPPER = GIT_WRAPPER.replace(
    "    exec sleep 600", "    trap '' TERM\n    exec sleep 600"
)


@dataclass
class Run:
    process: subprocess.Popen[bytes]
    logged: Path  # written by git log once its output is out (holding its process id)
    mark: str
    out: Path

    def marked(self) -> list[int]:
        """The processes whose environment holds this run's mark (a zombie's is empty)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if f"{MARK}={self.mark}".encode() in (entry / "environ").read_bytes().split(
                        b"\0"
                    ):
                        found.append(int(entry.name))
        return found

    def under_way(self) -> None:
        """Wait until git log has written its output (a file it writes, never a sleep)."""
        while not self.logged.exists():
            if self.process.poll() is not None:
                pytest.fail(f"the run ended first: {self.said()}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=0.01)

    def said(self) -> str:
        return (self.out / "stdout").read_text() + (self.out / "stderr").read_text()


@contextlib.contextmanager
def started(
    argv: list[str],
    tmp_path: Path,
    env: Mapping[str, str],
    cwd: Path | None = None,
    wrapper: str = GIT_WRAPPER,
) -> Iterator[Run]:
    """``argv`` with ``env`` in a process group of its own, its git the ``wrapper``."""
    folder = tmp_path / "bin"
    folder.mkdir(parents=True)
    (folder / "git").write_text(wrapper)
    (folder / "git").chmod(0o755)
    out = tmp_path / "said"
    out.mkdir()
    real_git = shutil.which("git", path=env.get("PATH"))
    assert real_git is not None
    marked = {
        **env,
        "PATH": f"{folder}{os.pathsep}{env['PATH']}",
        "REAL_GIT": real_git,
        "LOGGED": str(tmp_path / "logged"),
        MARK: str(tmp_path),
    }
    with (out / "stdout").open("wb") as stdout, (out / "stderr").open("wb") as stderr:
        process = subprocess.Popen(
            argv, env=marked, cwd=cwd, stdout=stdout, stderr=stderr, start_new_session=True
        )
    run = Run(process, tmp_path / "logged", str(tmp_path), out)
    try:
        yield run
    finally:
        for pid in run.marked():  # (a failed test leaves nothing running either)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
