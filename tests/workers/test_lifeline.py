"""A run killed by SIGKILL (a CI job's timeout) leaves no process behind: its workers, the fork
server and the resource tracker end with it, whether the workers are busy or idle."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clirun import SITEMILL
from conftest import BASE_URL

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc and a fork server")

# Enough bytes that the pages are read in worker processes (workers.workpool.MIN_POOL_BYTES).
PAGES = 600
LINES = 2_000
# A failsafe, not a measure: how long the survivors are given to end before the test says they
# did not (they end within a second; the old code's waited for ever).
PATIENCE = 60.0

# A parent that starts a pool of two workers and hands them work that never ends (busy), or
# none (idle: waiting on their queue, as a build's workers do between phases).
POOL_PARENT = """
import sys, time
from sitemill.workers.workpool import WorkPool
with WorkPool(2) as pool:
    pool.warm()
    if sys.argv[1] == "busy":
        pool.map(time.sleep, [3600.0, 3600.0])
    time.sleep(3600)
"""


def members(group: int) -> dict[int, int]:
    """The live processes of a process group: pid -> parent pid (zombies are dead)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                text = stat.read()
        except OSError:  # (it ended meanwhile)
            continue
        state, parent, pgrp = text[text.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == group and state != "Z":
            found[int(name)] = int(parent)
    return found


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def workers_of(group: int, parent: int) -> list[int]:
    """The group's processes that the parent did not start itself: the fork server's
    children, the workers."""
    return [pid for pid, up in members(group).items() if pid != parent and up != parent]


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The parents a test starts (each in a process group of its own); whatever of their groups
    outlives the test is killed."""
    parents: list[subprocess.Popen[bytes]] = []
    yield parents
    for parent in parents:
        for pid in members(parent.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        parent.wait()


def kill_and_count_survivors(parent: subprocess.Popen[bytes]) -> dict[int, int]:
    """SIGKILL the parent once its workers exist; the processes of its group left after they
    were given PATIENCE seconds to end."""
    wait_for(lambda: len(workers_of(parent.pid, parent.pid)) >= 2, "no workers started")
    os.kill(parent.pid, signal.SIGSTOP)  # (frozen where it is: it cannot finish meanwhile)
    assert len(workers_of(parent.pid, parent.pid)) >= 2, "the workers ended before the kill"
    os.kill(parent.pid, signal.SIGKILL)
    assert parent.wait() == -signal.SIGKILL  # (killed, not finished)
    deadline = time.monotonic() + PATIENCE
    while (left := members(parent.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.parametrize("work", ["busy", "idle"])
def test_a_killed_parent_leaves_no_worker_nor_fork_server(
    work: str, started: list[subprocess.Popen[bytes]]
) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", POOL_PARENT, work],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    started.append(parent)
    assert kill_and_count_survivors(parent) == {}


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("killed") / "site"
    for number in range(PAGES):
        folder = site / f"d{number % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = "".join(f"<p>page {number}, line {line}</p>\n" for line in range(LINES))
        head = f"<!doctype html><html><head><title>p{number}</title></head>"
        (folder / f"p{number}.html").write_text(f"{head}<body><main>{lines}</main></body></html>")
    return site


def test_a_build_killed_by_sigkill_leaves_no_process_behind(
    big_site: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    """A CI job's timeout: the build, its fork server, its workers and the resource tracker
    all end (before: the three stayed, stuck, for as long as anyone watched)."""
    parent = subprocess.Popen(
        [SITEMILL, "build", str(big_site), "--base-url", BASE_URL],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started.append(parent)
    assert kill_and_count_survivors(parent) == {}
    assert not (big_site / "sitemap.xml").exists()  # (it was killed before its end)


def test_a_build_that_ends_leaves_no_process_of_its_group_when_it_exits(
    big_site: Path, tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    """issue 82 (farm-bench: "left processes behind in its group when it ended"): the fork
    server and the resource tracker end before the command does, not a second after."""
    import shutil

    site = shutil.copytree(big_site, tmp_path / "site")
    parent = subprocess.Popen(
        [SITEMILL, "build", str(site), "--base-url", BASE_URL, "--workers", "2"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started.append(parent)
    wait_for(lambda: len(workers_of(parent.pid, parent.pid)) >= 2, "no workers started")
    assert parent.wait() == 0
    assert members(parent.pid) == {}  # (looked at once, the moment it exited: no waiting)
    assert (site / "sitemap.xml").is_file()
