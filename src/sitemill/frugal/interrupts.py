"""Ctrl-C and worker processes: the main process alone answers it.

A terminal sends SIGINT to its whole foreground process group: the fork server and the
workers too. One that gets it prints a KeyboardInterrupt's traceback (in the middle of its
imports, or idle on its queue) and breaks the pool, and the work then left to this process
(frugal.workpool) holds up the exit. So a process is started with SIGINT blocked (a blocked
signal stays blocked across fork and exec; this process gets its own Ctrl-C as soon as the
start is done), and a worker ignores it from its first line: the main process ends them.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT blocked in this thread while the block starts processes (it comes after)."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError, ValueError):  # (no such call on this system)
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ignore_interrupts() -> None:
    """In a worker (a pool's initializer): Ctrl-C is the main process's to answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
