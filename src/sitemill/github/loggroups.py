"""The Action's progress: each phase of a run opens a folded group in the log."""
# Each phase (sitemill.progress) opens a ``::group::`` and its count closes it, so that a long first
# run shows where it is and where the time went, and the log stays short when folded. The runner's
# log is no terminal: no live line, one line per phase.

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from sitemill.progress import phase_text


class LogGroups:
    """The progress port as log groups on ``stream`` (the step's stdout). Groups do not nest:
    a phase that starts while another runs (git log beside the reads) ends the open group;
    each phase's count is written when it is over, in whichever group is open then."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started: set[str] = set()
        self.ended: set[str] = set()
        self.open = False
        self.lock = threading.Lock()

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        with self.lock:
            if phase not in self.started:
                self.started.add(phase)
                self._end()
                self.stream.write(f"::group::sitemill: {phase}\n")
                self.open = True
            if done == total and phase not in self.ended:  # (told once: an empty phase ends twice)
                self.ended.add(phase)
                self.stream.write(f"sitemill: {phase_text(phase, done, total)}\n")
            self.stream.flush()

    def _end(self) -> None:
        if self.open:
            self.stream.write("::endgroup::\n")
            self.open = False

    def close(self) -> None:
        with self.lock:
            self._end()
            self.stream.flush()


@contextmanager
def log_groups(stream: TextIO) -> Iterator[LogGroups]:
    """LogGroups on ``stream`` while the block runs; the open group is closed at its end."""
    groups = LogGroups(stream)
    try:
        yield groups
    finally:
        groups.close()
