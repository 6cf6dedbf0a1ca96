"""A Ctrl-C that reaches git before sitemill (the terminal signals the whole group) ends the run
in one line: a thread whose git it ended never prints a traceback, and once the run is ending
(git.run.end_running) no thread starts another git that would outlive it. A SIGTERM that reaches
git first (a cancelled CI job) is the run's termination, never a warning of git's."""

from __future__ import annotations

import logging
import os
import shutil
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import sitemill.lastmod.sourcefiles.rung as rung_module
from gitutil import commit, make_repo
from sitemill.cli._usage import _Terminated, terminated_as_interrupt
from sitemill.errors import GitError
from sitemill.git.run import Git, end_running, git_env, resume_running
from sitemill.lastmod.sourcefiles.rung import SourceRung

# git, but the command that finds the repository's top and HEAD ends by SIGTERM at once: the
# group's signal reached it before this process raised its own.
ENDED_BY_SIGTERM = """#!/bin/sh
case " $* " in *" --is-shallow-repository "*) kill -TERM $$ ;; esac
exec "{git}" "$@"
"""


def test_a_ctrl_c_in_the_sources_thread_is_raised_where_the_dates_are_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    printed: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", printed.append)

    def interrupted(_root: Path) -> None:
        raise KeyboardInterrupt  # (its git ended by the user's SIGINT: git.run.interrupted)

    monkeypatch.setattr(rung_module, "find_repository", interrupted)
    site = tmp_path / "site"
    site.mkdir()
    rung = SourceRung.started(site, ["index.html"], datetime(2024, 1, 1, tzinfo=UTC))
    with pytest.raises(KeyboardInterrupt):
        rung("index.html")
    rung.close()
    assert printed == []  # (the thread ended without a traceback of its own)


def test_no_git_starts_once_the_run_is_ending(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"a.html": "<p>a</p>"}, "2024-01-01T10:00:00")
    git = Git(repo, git_env())
    assert git.output("rev-parse", "--is-inside-work-tree").strip() == b"true"
    end_running()
    try:
        with pytest.raises(KeyboardInterrupt):
            git.run("rev-parse", "HEAD")
        with pytest.raises(KeyboardInterrupt), git.stream("log", "--format=%H"):
            pass
    finally:
        resume_running()
    assert len(git.output("rev-parse", "HEAD").strip()) == 40


def ended_by_sigterm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "git").write_text(ENDED_BY_SIGTERM.format(git=real))
    (folder / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


def test_a_sigterm_that_ended_the_sources_git_first_is_the_termination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Not "cannot read the repository of …: … ended by SIGTERM" before the run's one line:
    the run is terminated (its line and exit SIGTERM's, not an interruption's)."""
    printed: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", printed.append)
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"content/index.md": "# Home\n"}, "2024-01-01T10:00:00")
    (repo / "public").mkdir()
    (repo / "public" / "index.html").write_text("<p>Home</p>")
    ended_by_sigterm(tmp_path, monkeypatch)
    with caplog.at_level(logging.WARNING), terminated_as_interrupt():
        rung = SourceRung.started(repo / "public", ["index.html"], datetime(2025, 1, 1, tzinfo=UTC))
        with pytest.raises(KeyboardInterrupt) as raised:
            rung("index.html")
        rung.close()
    assert raised.type is _Terminated
    assert caplog.messages == []
    assert printed == []


def test_outside_the_cli_a_git_ended_by_sigterm_is_its_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library caller, the Lambda: SIGTERM is no termination of theirs that sitemill raises."""
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"a.html": "<p>a</p>"}, "2024-01-01T10:00:00")
    ended_by_sigterm(tmp_path, monkeypatch)
    git = Git(repo, git_env())
    with pytest.raises(GitError, match="ended by SIGTERM"):
        git.output("rev-parse", "--is-shallow-repository")
    with terminated_as_interrupt(), pytest.raises(_Terminated):
        git.output("rev-parse", "--is-shallow-repository")
