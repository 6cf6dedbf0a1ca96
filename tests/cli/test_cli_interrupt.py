"""Ctrl-C on a terminal, as a terminal sends it (SIGINT to the whole foreground process
group: the fork server and the workers too), at each phase of a run large enough for worker
processes: exit 130 at once, no traceback, the last sitemap as it was, no process left."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clirun import SITEMILL
from conftest import BASE_URL

# Enough bytes that the pages are read in worker processes (workers.workpool.MIN_POOL_BYTES):
# few pages of some 50 KB, as writing thousands of files takes seconds on a busy disk.
PAGES = 600
LINES = 2_000
# "At once" is shown by what the run left, not by a clock (tests/core/test_time_bounds.py): the
# interrupted run neither published its sitemap nor wrote its state (another content scope would
# have changed both), and its workers are gone.


def page_text(number: int) -> str:
    lines = "".join(f"<p>page {number}, line {line}</p>\n" for line in range(LINES))
    head = f"<!doctype html><html><head><title>p{number}</title></head>"
    return f"{head}<body><main>{lines}</main></body></html>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tree of PAGES pages, built once: its sitemap is the one to keep."""
    site = tmp_path_factory.mktemp("interrupt") / "site"
    for number in range(PAGES):
        folder = site / f"d{number % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"p{number}.html").write_text(page_text(number))
    built = subprocess.run(
        [SITEMILL, "build", str(site), "--base-url", BASE_URL], capture_output=True, check=False
    )
    assert built.returncode == 0, built.stderr
    return site


def interrupted_run(site: Path, phase: str) -> tuple[int, float, str, int]:
    """`sitemill build` on a terminal, Ctrl-C as soon as the live line shows ``phase``: its
    exit code, the seconds from Ctrl-C to its exit, what it wrote, and its process group."""
    pid, terminal = pty.fork()
    if pid == 0:  # (the child: a new session, the terminal's foreground process group)
        # (another content scope: every page is read whole again, in the workers)
        argv = ["build", str(site), "--base-url", BASE_URL, "--content-scope", "body"]
        os.execv(SITEMILL, [SITEMILL, *argv])
    said, sent, started = b"", 0.0, time.monotonic()
    while time.monotonic() - started < 60:
        if select.select([terminal], [], [], 0.05)[0]:
            try:
                chunk = os.read(terminal, 65_536)
            except OSError:  # (the terminal closed: every process of the run has ended)
                break
            if not chunk:
                break
            said += chunk
        if not sent and phase.encode() in said:
            os.killpg(pid, signal.SIGINT)  # what a terminal does on Ctrl-C
            sent = time.monotonic()
    _, status = os.waitpid(pid, 0)
    taken = time.monotonic() - sent if sent else -1.0
    os.close(terminal)
    return os.waitstatus_to_exitcode(status), taken, said.decode(errors="replace"), pid


def group_is_gone(group: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(sys.platform != "linux", reason="a pseudo-terminal and a fork server")
@pytest.mark.parametrize("phase", ["listing: ", "reading: ", "pages: "])
def test_ctrl_c_exits_at_once_and_keeps_the_last_sitemap(site: Path, phase: str) -> None:
    before = (site / "sitemap.xml").read_bytes()
    state = (site / "sitemill-state.json.gz").read_bytes()
    code, taken, said, group = interrupted_run(site, phase)
    assert taken >= 0, f"the run ended before {phase!r}: {said[-400:]!r}"
    assert code == 130, said[-2000:]
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said[-4000:]
    assert "sitemill: interrupted; nothing half-written was published" in said
    assert (site / "sitemap.xml").read_bytes() == before
    assert (site / "sitemill-state.json.gz").read_bytes() == state  # (stopped before the end)
    assert group_is_gone(group), "a process of the run was left behind"
    assert not [name for name in os.listdir(site) if "-next-" in name]  # (no staging copy)
