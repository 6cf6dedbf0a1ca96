"""The live progress line on a terminal (issue 41: a first run on a 3,119-page site was 40 s
of blank terminal): shown within a second of a slow phase's start, cleared before the
summary; nothing at all when stderr is not a terminal."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import sys
import time
from pathlib import Path

import pytest

from clirun import run_sitemill
from sitemill.cli import _progress as progress
from sitemill.cli._progress import LiveLine
from sitemill.progress import phase_text

BASE = "https://example.com/"
SLOW = 2.0  # seconds the reading of the pages is made to take
# The CLI with the reading of the pages slowed down (a real run of a big site, made short).
SLOWED = f"""
import sys, time
from sitemill.jobs import _treehistory as treehistory
read = treehistory.read_pages
def slow(*args, **kwargs):
    time.sleep({SLOW})
    return read(*args, **kwargs)
treehistory.read_pages = slow
from sitemill.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def make_site(root: Path) -> Path:
    for name in ("index.html", "a.html", "b.html"):
        (root / name).write_text(f"<html><head><title>{name}</title></head></html>")
    return root


def run_on_a_terminal(*args: str) -> list[tuple[float, bytes]]:
    """Run the slowed CLI with a pseudo-terminal as stdin, stdout and stderr: what the
    terminal got, in pieces, each with the seconds since the start."""
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI
        env = {k: v for k, v in os.environ.items() if not k.startswith("SITEMILL_")}
        os.execve(sys.executable, [sys.executable, "-c", SLOWED, *args], env)
    pieces: list[tuple[float, bytes]] = []
    while time.monotonic() - start < 60:
        if not select.select([fd], [], [], 1)[0]:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:  # (Linux: EIO once the child is gone)
            break
        if not data:
            break
        pieces.append((time.monotonic() - start, data))
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, b"".join(p for _, p in pieces)
    return pieces


def test_a_slow_phase_shows_a_live_line_that_is_cleared_before_the_summary(
    tmp_path: Path,
) -> None:
    site = make_site(tmp_path)
    pieces = run_on_a_terminal("build", str(site), "--base-url", BASE, "--lastmod", "mtime")
    screen = b"".join(piece for _, piece in pieces).decode()
    summary = screen.index("nothing needs you\r\n3 URLs in one sitemap")
    reading = screen.index("\rsitemill: reading: 0 of 3 pages")
    # Shown as the slow phase started: well before its end (the summary, SLOW seconds on).
    shown_at = next(at for at, piece in pieces if b"reading: 0 of 3" in piece)
    done_at = next(at for at, piece in pieces if b"nothing needs you" in piece)
    assert done_at - shown_at >= SLOW - 1.0  # a live line within a second of the phase
    assert screen.index("\rsitemill: listing: ") < reading < summary
    # Cleared before the summary: the last redraw is blank, and the summary starts a line.
    last_line = screen[:summary].split("\r")[-2]
    assert last_line.strip() == "" and screen[:summary].endswith("\r")
    assert "\rsitemill: pages: 3 " in screen[:summary]  # the last phase, done


def test_off_a_terminal_nothing_but_the_summary(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    done = run_sitemill("build", str(site), "--base-url", BASE, "--lastmod", "mtime")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bytes at all on a pipe or a log
    assert done.stdout.startswith("nothing needs you\n3 URLs in one sitemap")
    assert "\r" not in done.stdout


def test_quiet_draws_no_line_and_a_warning_starts_on_a_clean_line() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet = Terminal()
    LiveLine(quiet, active=False)("pages", 1, 3)
    assert quiet.getvalue() == ""
    screen = Terminal()
    line = LiveLine(screen, active=True)
    line("history", 1_204, None)
    line("pages", 2_310, 3_119)  # two phases under way (git log runs in a thread)
    assert screen.getvalue().endswith("sitemill: history: 1,204 commits · pages: 2,310 of 3,119")
    line.close()
    assert re.fullmatch(r"(\r[^\r]*)+\r +\r", screen.getvalue())


def test_the_line_moves_while_no_count_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # powertools-python: git log gave its first commit after 9 s, and a worker's chunk of
    # pages took 10 s: a frozen "history: 0 commits" looks like a hang.
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(progress, "CLOCK", 0.05)
    monkeypatch.setattr(progress, "SHOW_TIME", 0.0)
    screen = Terminal()
    line = LiveLine(screen, active=True)
    line("history", 0, None)
    time.sleep(0.5)
    line.close()
    drawn = screen.getvalue().split("\r")
    assert sum(1 for text in drawn if text.startswith("sitemill: history: 0 commits · ")) >= 3
    assert drawn[-1] == "" and drawn[-2].strip() == ""  # wiped at the end, clock stopped
    assert line.clock is not None and not line.clock.is_alive()


@pytest.mark.parametrize("by_content", [True, False])
def test_each_commit_git_log_gives_moves_the_count(tmp_path: Path, by_content: bool) -> None:
    """A first run on a site with a short history (issue 82: 61 commits over 7 s showed
    "history: 0 commits" throughout, told every 100th): each commit moves the line."""
    from gitutil import commit, make_repo
    from sitemill.config.model import LastmodMode
    from sitemill.lastmod.history.mode import read_history

    site = make_repo(tmp_path / "site")
    for day in range(1, 4):
        commit(site, {f"p{day}.html": f"<title>{day}</title>"}, f"2024-01-0{day}T10:00:00")
    told: list[tuple[str, int, int | None]] = []
    paths = ["p1.html", "p2.html", "p3.html"]
    read_history(
        LastmodMode.GIT, site, paths, [], None, by_content,
        lambda phase, done, total: told.append((phase, done, total)),
    )  # fmt: skip
    assert told == [("history", n, None) for n in range(4)] + [("history", 3, 3)]
    assert phase_text(*told[2]) == "history: 2 commits"  # (what the line shows)
