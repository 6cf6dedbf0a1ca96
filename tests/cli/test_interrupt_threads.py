"""A Ctrl-C that reaches git before sitemill (the terminal signals the whole group) ends the run
in one line: a thread whose git it ended never prints a traceback, and once the run is ending
(git.run.end_running) no thread starts another git that would outlive it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import sitemill.lastmod.sourcefiles.rung as rung_module
from gitutil import commit, make_repo
from sitemill.git.run import Git, end_running, git_env, resume_running
from sitemill.lastmod.sourcefiles.rung import SourceRung


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
