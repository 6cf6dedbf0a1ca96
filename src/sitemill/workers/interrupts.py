"""Ctrl-C and worker processes: the main process alone answers it; a start refused once the run
is ending (the one lock a start and the run's end both take)."""
# A terminal sends SIGINT to its whole foreground process group: the fork server and the workers
# too. One that gets it prints a KeyboardInterrupt's traceback (in the middle of its imports, or
# idle on its queue) and breaks the pool, and the work then left to this process (workers.workpool)
# holds up the exit. So a process is started with SIGINT blocked (a blocked signal stays blocked
# across fork and exec; this process gets its own Ctrl-C as soon as the start is done), and a worker
# ignores it from its first line: the main process ends them. A mask is not enough in the main
# process itself: another thread of it (the live line's clock, the git thread) takes the signal, and
# Python raises KeyboardInterrupt in the main thread at once, in the middle of a worker's start,
# which then fails to be born after this process has gone (a traceback on the terminal); so the main
# thread also defers its KeyboardInterrupt to the end of the block.
#
# An interrupted run ends what it started (git commands: git.run.end_running; the fork server and
# the resource tracker: workers.workpool.stop_workers_now) while other threads may still ask to
# start more (git's thread, its git log read as the signal came). A start asked after the end
# would outlive the run; so a start and the end take one lock, and a start after the end is told
# the run is interrupted (KeyboardInterrupt, in the thread that asked). A process that goes on
# after an interrupted run (a library caller, a test running the CLI in its own process) opens
# the gate again.

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from signal import _HANDLER  # (what signal.signal returns: a callable, SIG_DFL, SIG_IGN)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT blocked in this thread, and a Ctrl-C in the main thread deferred, while the block
    starts processes (it comes after)."""
    with ExitStack() as held:
        held.enter_context(_masked())
        if threading.current_thread() is threading.main_thread():
            held.enter_context(_deferred())
        yield


@contextmanager
def _masked() -> Iterator[None]:
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError, ValueError):  # (no such call on this system)
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def _deferred() -> Iterator[None]:
    """The main thread's Ctrl-C noted during the block and answered at its end, as it would
    have been (KeyboardInterrupt, or the handler in place); a SIGTERM too, where a handler of
    this process answers it (the CLI's: cli.usage)."""
    caught: list[tuple[int, FrameType | None]] = []

    def note(signum: int, frame: FrameType | None) -> None:
        caught.append((signum, frame))

    old: dict[signal.Signals, _HANDLER] = {signal.SIGINT: signal.signal(signal.SIGINT, note)}
    if callable(signal.getsignal(signal.SIGTERM)):
        old[signal.SIGTERM] = signal.signal(signal.SIGTERM, note)
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)
        for signum, frame in caught[:1]:  # (the first answered: it ends the run)
            answer = old[signal.Signals(signum)]
            if callable(answer):
                answer(signum, frame)
            elif answer == signal.SIG_DFL:
                signal.raise_signal(signum)


def ignore_interrupts() -> None:
    """In a worker (a pool's initializer): Ctrl-C is the main process's to answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
