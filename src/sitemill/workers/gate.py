"""A start refused once the run is ending: the one lock a start and the run's end both take."""
# An interrupted run ends what it started (git commands: git.run.end_running; the fork server and
# the resource tracker: workers.workpool.stop_workers_now) while other threads may still ask to
# start more (git's thread, its git log read as the signal came). A start asked after the end
# would outlive the run; so a start and the end take one lock, and a start after the end is told
# the run is interrupted (KeyboardInterrupt, in the thread that asked). A process that goes on
# after an interrupted run (a library caller, a test running the CLI in its own process) opens
# the gate again.

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class StartGate:
    """Starts under one lock, refused once ``closing`` has run, until ``reopen``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @contextmanager
    def starting(self) -> Iterator[None]:
        """Hold the lock while the block starts something; KeyboardInterrupt if closed."""
        with self._lock:
            if self._closed.is_set():
                raise KeyboardInterrupt
            yield

    @contextmanager
    def closing(self) -> Iterator[None]:
        """Close the gate and hold the lock while the block ends what was started."""
        with self._lock:
            self._closed.set()
            yield

    def reopen(self) -> None:
        """Starts are allowed again."""
        with self._lock:
            self._closed.clear()

    def closed(self) -> bool:
        """Whether the run is ending (closing ran, no reopen since)."""
        return self._closed.is_set()
