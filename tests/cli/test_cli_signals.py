"""`sitemill build` on a git tree, ended by a signal once it is under way (its git log still
running, its fork server and resource tracker up): Ctrl-C to the process group exits 130 with
one line, SIGTERM ends it by that signal with one line; never a traceback, a "git log failed"
or the resource tracker's warning of leaked semaphores, and no process of the run is left when
it has exited (counted in /proc by a mark in their environment)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest

from clirun import SITEMILL
from conftest import BASE_URL
from gitutil import commit, make_repo
from signalrun import GIT_WRAPPER, STUBBORN_GIT_WRAPPER, Run, started

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc and a fork server")

# Enough bytes of pages that the fork server starts while the tree is listed
# (workers.workpool.MIN_POOL_BYTES), in few files.
PAGES = 400
PAGE_LINES = 2_000
INTERRUPTED = "sitemill: interrupted; nothing half-written was published"
TERMINATED = "sitemill: terminated; nothing half-written was published"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = make_repo(tmp_path_factory.mktemp("signals") / "site")
    lines = "".join(f"<p>line {line} of a page</p>\n" for line in range(PAGE_LINES))
    pages = {
        f"d{number % 10}/p{number}.html": (
            f"<!doctype html><html><head><title>p{number}</title></head>"
            f"<body><main><h1>{number}</h1>{lines}</main></body></html>"
        )
        for number in range(PAGES)
    }
    commit(site, pages, when="2024-03-01T10:00:00+00:00", message="Site")
    return site


def build(
    site: Path, tmp_path: Path, wrapper: str = GIT_WRAPPER
) -> contextlib.AbstractContextManager[Run]:
    """`sitemill build` of ``site`` in a process group of its own, its git the ``wrapper``."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("SITEMILL_")}
    argv = [SITEMILL, "build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "o")]
    return started(argv, tmp_path, env, wrapper=wrapper)


@pytest.mark.parametrize(
    ("sent", "code", "line"),
    [
        (signal.SIGINT, 130, INTERRUPTED),
        (signal.SIGTERM, -signal.SIGTERM, TERMINATED),
    ],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_to_the_group_ends_the_run_in_one_line_leaving_nothing(
    site: Path, tmp_path: Path, sent: signal.Signals, code: int, line: str
) -> None:
    with build(site, tmp_path) as run:
        run.under_way()
        running = run.marked()
        assert len(running) >= 4, running  # (sitemill, git, the fork server, the tracker)
        os.killpg(run.process.pid, sent)  # what a terminal does on Ctrl-C; `kill -TERM -PGID`
        assert run.process.wait() == code, run.said()
        left = run.marked()  # (at its exit: not a second later)
        assert run.said().splitlines() == [line]
        assert left == []
    assert not (tmp_path / "o" / "sitemap.xml").exists()


def signalled(run: Run, sent: signal.Signals, *, git: bool) -> tuple[int, list[str], list[int]]:
    """Once the run is under way, ``sent`` to its git log alone (``git``) or to sitemill
    alone: its exit status, its lines, and the processes of the run left at its exit."""
    run.under_way()
    os.kill(int(run.logged.read_text()) if git else run.process.pid, sent)
    code = run.process.wait()
    left = run.marked()  # (at its exit: not a second later)
    return code, run.said().splitlines(), left


def test_a_ctrl_c_that_reaches_git_first_is_an_interruption(site: Path, tmp_path: Path) -> None:
    """The order a terminal's Ctrl-C may take: git ends of it before sitemill has raised its
    own. That is the user's interruption, not "git log failed: no message" (exit 1)."""
    with build(site, tmp_path) as run:
        assert signalled(run, signal.SIGINT, git=True) == (130, [INTERRUPTED], [])


def test_a_sigterm_that_reaches_git_first_is_the_termination(site: Path, tmp_path: Path) -> None:
    """The order a cancelled job's SIGTERM to the group may take: git ends of it before
    sitemill has raised its own. That is the run's termination (by SIGTERM, its one line), not
    "git log failed: ended by SIGTERM" (exit 1) nor a warning of git's."""
    with build(site, tmp_path) as run:
        assert signalled(run, signal.SIGTERM, git=True) == (-signal.SIGTERM, [TERMINATED], [])


def test_sigterm_to_sitemill_alone_ends_its_git_and_helpers(site: Path, tmp_path: Path) -> None:
    """`kill PID` (or `timeout`): sitemill alone gets SIGTERM, its git log, fork server and
    resource tracker none; they end with it, before its exit."""
    with build(site, tmp_path) as run:
        assert signalled(run, signal.SIGTERM, git=False) == (-signal.SIGTERM, [TERMINATED], [])


def test_a_git_that_ignores_sigterm_is_killed_and_waited_for(site: Path, tmp_path: Path) -> None:
    """sitemill ends its git commands as it exits, and waits for each: one that SIGTERM does
    not end (nor one that has not yet ended of it: under load) outlives the run no more."""
    with build(site, tmp_path, STUBBORN_GIT_WRAPPER) as run:
        assert signalled(run, signal.SIGTERM, git=False) == (-signal.SIGTERM, [TERMINATED], [])


def test_a_git_killed_alone_is_one_error_naming_the_signal(site: Path, tmp_path: Path) -> None:
    """git ended by another signal (the kernel's OOM killer sends SIGKILL) says nothing of its
    own: the error names the signal, not "no message"."""
    with build(site, tmp_path) as run:
        assert signalled(run, signal.SIGKILL, git=True) == (
            1,
            ["sitemill: error: git log failed: ended by SIGKILL"],
            [],
        )
