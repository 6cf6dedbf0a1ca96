"""The live progress line of the CLI on a terminal: ``sitemill: pages: 2,310 of 3,119``."""
# The standard library is enough (no rich or tqdm): one line on stderr, rewritten at most every
# REDRAW seconds and cleared before the summary, imported only by the commands that run a build.
# It shows each phase under way (several run at once) and the time so far, so that it moves while
# a count waits. Nothing is written when stderr is not a terminal.

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final, TextIO

from sitemill.progress import phase_text

REDRAW: Final = 0.1  # seconds between two redraws of the line (a new phase: at once)
# While no count moves (git log before its first commit, a chunk of pages in a worker), the
# line is redrawn every CLOCK seconds with the time the run has taken, from SHOW_TIME on.
CLOCK: Final = 1.0
SHOW_TIME: Final = 2.0


class LiveLine:
    """The progress port (sitemill.progress.Progress) drawn as one line on ``stream``, a
    terminal; ``active`` False: draws nothing. Thread-safe: git's thread tells it too."""

    def __init__(self, stream: TextIO, *, active: bool) -> None:
        self.stream, self.active = stream, active
        self.phases: dict[str, tuple[int, int | None]] = {}  # in the order they started
        self.shown = ""  # the line on the screen now
        self.drawn = 0.0  # when it was drawn
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.clock: threading.Thread | None = None  # started with the first phase
        try:  # (a pseudo-terminal may say 0 columns)
            columns = os.get_terminal_size(stream.fileno()).columns or 80
        except (OSError, ValueError):
            columns = 80
        self.width = columns - 1  # no wrap: a carriage return goes back one row only

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if not self.active:
            return
        with self.lock:
            new = phase not in self.phases or done == total
            self.phases[phase] = (done, total)
            if new or time.monotonic() - self.drawn >= REDRAW:
                self._draw()
            if self.clock is None:
                self.clock = threading.Thread(target=self._tick, name="sitemill-line", daemon=True)
                self.clock.start()

    def _tick(self) -> None:
        while not self.stopped.wait(CLOCK):
            with self.lock:
                self._draw()

    def _draw(self) -> None:
        under_way = [(p, d, t) for p, (d, t) in self.phases.items() if d != t]
        if not under_way:  # between phases: the last one, done
            phase, (done, total) = next(reversed(self.phases.items()))
            under_way = [(phase, done, total)]
        line = "sitemill: " + " · ".join(phase_text(*each) for each in under_way)
        if (taken := time.monotonic() - self.started) >= SHOW_TIME:
            line += f" · {taken:.0f} s"
        line = line[: self.width]
        self.stream.write("\r" + line + " " * max(0, len(self.shown) - len(line)))
        self.stream.flush()
        self.shown, self.drawn = line, time.monotonic()

    def clear(self) -> None:
        """Wipe the line (before a warning or the summary); the next tick draws it again."""
        with self.lock:
            if self.shown:
                self.stream.write("\r" + " " * len(self.shown) + "\r")
                self.stream.flush()
                self.shown = ""

    def close(self) -> None:
        """Stop the clock and wipe the line: what the summary follows."""
        self.stopped.set()
        if self.clock is not None:
            with contextlib.suppress(RuntimeError):  # (Ctrl-C while it started: never ran)
                self.clock.join()
        self.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        """A logging filter: a warning starts on a clean line, not after the counter."""
        self.clear()
        return True


@contextmanager
def live_line(stream: TextIO, *, quiet: bool = False) -> Iterator[LiveLine]:
    """A LiveLine on ``stream`` while the block runs (silent off a terminal or when
    ``quiet``), cleared at its end; log records to the same stream clear it first."""
    line = LiveLine(stream, active=not quiet and stream.isatty())
    handlers = [
        handler
        for handler in logging.getLogger().handlers
        if isinstance(handler, logging.StreamHandler) and handler.stream is stream
    ]
    for handler in handlers:
        handler.addFilter(line.filter)
    try:
        yield line
    finally:
        for handler in handlers:
            handler.removeFilter(line.filter)
        line.close()
