"""Work spread over the machine's cores: a list cut into chunks, run in worker processes; and
thread pools that shut down whole wherever the code holding them stops."""
# Each chunk runs in a worker process, the results taken in the list's order, so that what a run
# builds never depends on how many workers it had (one gives the same bytes as eight).
#
# Processes, not threads: head facts and fingerprints are pure-Python regex work that holds the GIL.
# Workers are forked from a fork server (a clean interpreter, never a fork of this process, whose
# other threads may hold locks). Where processes cannot start (AWS Lambda has no /dev/shm, a sandbox
# may forbid them) the chunks run here, one after another. A worker's log records come back with its
# result and are emitted here, chunk by chunk in order. Ctrl-C is the main process's alone
# (workers.interrupts): it ends the workers, the work under way dropped. The workers, and the fork
# server after them, end when this process does, however it ends (workers.lifeline).

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from itertools import repeat
from logging import LogRecord
from types import TracebackType
from typing import TYPE_CHECKING, Final, TypeVar

from sitemill.workers.interrupts import StartGate, interrupts_held

if TYPE_CHECKING:  # (imported when a pool starts: multiprocessing costs 40 ms to import)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

log = logging.getLogger(__name__)
_T = TypeVar("_T")
_R = TypeVar("_R")

# Below this many bytes of pages to read whole, one process: starting workers (~0.2 s) costs
# more than it saves (benchmarks/README.md, "workers": the crossover measured on 2 cores).
MIN_POOL_BYTES: Final = 32 * 1024 * 1024
# A page's cost besides its bytes (opening it, head facts, a fingerprint's fixed part: ~70 us
# against ~10 ns a byte): many small pages reach MIN_POOL_BYTES by number (2,000-5,000 measured).
PAGE_WORK_BYTES: Final = 8 * 1024
MAX_WORKERS: Final = 64
# Chunks per worker: enough that one slow chunk does not leave the other workers idle.
CHUNKS_PER_WORKER: Final = 4
# Items at most in a chunk counted as progress: else a small phase sits at "0 of 382".
PROGRESS_CHUNK: Final = 64
_LOGGER = "sitemill"
PRELOAD: Final = ("sitemill.jobs._treereads",)  # the fork server's: the work (page reads) only


def machine_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        return os.cpu_count() or 1


def page_work(size: int) -> int:
    """The work of reading a page of ``size`` bytes whole, in bytes (what MIN_POOL_BYTES
    weighs)."""
    return size + PAGE_WORK_BYTES


def pool_size(setting: int | None, work_bytes: int) -> int:
    """How many workers for ``work_bytes`` of work: ``setting`` (None: the machine's cores),
    and one below MIN_POOL_BYTES."""
    wanted = machine_cores() if setting is None else setting
    return max(1, min(wanted, MAX_WORKERS)) if work_bytes >= MIN_POOL_BYTES else 1


def cut(items: Sequence[_T], workers: int, most: int | None = None) -> list[Sequence[_T]]:
    """``items`` in contiguous chunks, CHUNKS_PER_WORKER per worker (one chunk: one worker),
    and of at most ``most`` items each (a phase whose progress is counted by chunk moves)."""
    parts = 1 if workers <= 1 else workers * CHUNKS_PER_WORKER
    if most is not None:
        parts = max(parts, -(-len(items) // most))
    size = max(1, -(-len(items) // parts))
    return [items[start : start + size] for start in range(0, len(items), size)]


class EarlyStart:
    """Starts the fork server as soon as MIN_POOL_BYTES of work has been seen (while a tree
    is listed, say), so that its start and imports overlap with what this process does
    before the pool is needed. A site too small for a pool never starts one."""

    def __init__(self, setting: int | None) -> None:
        """``setting``: the pool's size setting (None: the machine's cores; 1: no pool)."""
        self._left = MIN_POOL_BYTES if pool_size(setting, MIN_POOL_BYTES) > 1 else None

    def see(self, size: int) -> None:
        """Count a page of ``size`` bytes (page_work); start the fork server when the work is
        enough."""
        if self._left is not None:
            self._left -= page_work(size)
            if self._left <= 0:
                self._left = None
                start_fork_server()


class WorkPool:
    """Runs ``map(work, chunks)`` on up to ``workers`` processes, started on first need."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._failed = workers <= 1

    def __enter__(self) -> WorkPool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._executor is None:
            return
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            # Ctrl-C: no chunk under way is waited for; the workers (ignoring it) end here.
            for process in list(self._executor._processes.values()):
                process.terminate()
            self._executor.shutdown(wait=False, cancel_futures=True)
            return
        self._executor.shutdown(wait=True, cancel_futures=True)

    def warm(self) -> None:
        """Start the workers now (the fork server and its imports take a few tenths of a
        second), while another thread waits for something else."""
        executor = self._start()
        if executor is not None:
            list(self._taken(lambda: executor.map(_nothing, range(self.workers)), _nothing, ()))

    def map(self, work: Callable[[_T], _R], chunks: Sequence[_T]) -> list[_R]:
        """``work`` of each chunk, in order; in this process when there are no workers."""
        return list(self.imap(work, chunks))

    def imap(self, work: Callable[[_T], _R], chunks: Sequence[_T]) -> Iterator[_R]:
        """``map``, each result as soon as it and those before it are done: every chunk is
        handed to the workers now, so they go on while the caller uses the first results
        (in this process, each chunk is worked when its result is asked for)."""
        executor = self._start() if len(chunks) > 1 else None
        if executor is None:
            return map(work, chunks)
        level = logging.getLogger(_LOGGER).getEffectiveLevel()
        return self._taken(
            lambda: _logged(executor.map(_run_logged, repeat(work), chunks, repeat(level))),
            work,
            chunks,
        )

    def _taken(
        self, submit: Callable[[], Iterator[_R]], work: Callable[[_T], _R], chunks: Sequence[_T]
    ) -> Iterator[_R]:
        """The results of ``submit()``, which hands every chunk to the workers now (not when
        the first result is asked for); from the first chunk whose worker died (the kernel's
        OOM killer, a kill -9), or all of them if the pool was found broken, the rest of
        ``chunks`` here: the same results, one warning."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            with interrupts_held():  # (the first submit starts the workers)
                results = submit()
        except BrokenProcessPool:
            return self._here(work, chunks)
        return self._followed(results, work, chunks)

    def _followed(
        self, results: Iterator[_R], work: Callable[[_T], _R], chunks: Sequence[_T]
    ) -> Iterator[_R]:
        from concurrent.futures.process import BrokenProcessPool

        taken = 0
        try:
            for result in results:
                taken += 1
                yield result
        except BrokenProcessPool:
            yield from self._here(work, chunks[taken:])

    def _here(self, work: Callable[[_T], _R], chunks: Sequence[_T]) -> Iterator[_R]:
        log.warning(
            "a worker process ended abruptly (out of memory?); the rest of the work runs in "
            "this process"
        )
        self._failed = True  # (later work too; __exit__ shuts the broken pool down)
        return map(work, chunks)

    def _start(self) -> ProcessPoolExecutor | None:
        if self._failed:
            return None
        if self._executor is None:
            try:
                self._executor = _executor(self.workers)
            except (OSError, ImportError, NotImplementedError, ValueError) as exc:
                log.debug("no worker processes (%s): one process does the work", exc)
                self._failed = True
        return self._executor


def _executor(workers: int) -> ProcessPoolExecutor:
    from concurrent.futures import ProcessPoolExecutor

    from sitemill.workers._lifeline import lifeline, start_worker  # (only where workers start)

    start_fork_server()  # (with Ctrl-C held: workers.interrupts)
    return ProcessPoolExecutor(
        workers, mp_context=_context(), initializer=start_worker, initargs=(lifeline(),)
    )


def _context() -> BaseContext:
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOAD))
        return context
    return multiprocessing.get_context("spawn")


# The fork server starts through it, and stop_workers_now closes it (workers.interrupts): a thread
# that asks for it once the run is ending (git's thread, its git log read as the signal came) is
# told the run is interrupted, and never starts helpers after they were stopped.
_HELPERS = StartGate()


def start_fork_server() -> None:
    """Start the fork server the workers come from (in any thread), ahead of their pool;
    KeyboardInterrupt once the run is ending (stop_workers_now)."""
    try:
        if _context().get_start_method() == "forkserver":
            from multiprocessing import forkserver, resource_tracker

            with _HELPERS.starting():
                # Each start with Ctrl-C held: one answered half-way (the tracker's start
                # unblocks SIGINT and SIGTERM as it ends, before it notes the process) left a
                # tracker that stop_workers_now could not know, nor wait for. Two blocks: the
                # tracker's unblocks SIGINT, which must be blocked again as the server is born.
                with interrupts_held():
                    resource_tracker.ensure_running()
                with interrupts_held():
                    forkserver.ensure_running()
            _stop_at_exit()
    except (OSError, ImportError, ValueError) as exc:  # (the pool says why, if it is needed)
        log.debug("fork server not started ahead: %s", exc)


_STOPPING: list[bool] = []  # (once a run: the exit hook that ends the fork server)


def _stop_at_exit() -> None:
    """End the fork server and the resource tracker when the run exits, waiting for both: left
    to notice the closed pipe, they outlived the command by about a second (issue 82)."""
    if _STOPPING:
        return
    import atexit

    _STOPPING.append(True)
    atexit.register(_stop_helpers)


def stop_workers_now() -> None:
    """For a run that exits at once, interrupted, without its exit hooks (a thread may still
    wait on git: cli.usage): every worker killed, the semaphores of the pools' queues given
    back (else the resource tracker, finding them at its end, warns of "leaked semaphore
    objects"), then the fork server and the resource tracker stopped and waited for: nothing
    of the run is left behind; and none is started after (start_fork_server)."""
    with _HELPERS.closing():
        if "multiprocessing" not in sys.modules:
            return  # (no pool was ever started)
        import multiprocessing
        from multiprocessing import util

        children = multiprocessing.active_children()
        for process in children:
            process.kill()
        for process in children:
            process.join()
        util._run_finalizers(0)  # type: ignore[attr-defined]  # (what a normal exit runs first)
        _stop_helpers()


def resume_workers() -> None:
    """Workers may start again: an interrupted run ended in this process, which goes on (a
    library caller, a test running the CLI in its own process)."""
    _HELPERS.reopen()


def _stop_helpers() -> None:
    from multiprocessing import forkserver, resource_tracker

    for helper in (forkserver._forkserver, resource_tracker._resource_tracker):
        stop: Callable[[], None] | None = getattr(helper, "_stop", None)  # (the stdlib's own)
        try:
            if stop is not None:
                stop()
        except (OSError, ValueError) as exc:
            log.debug("fork server not stopped: %s", exc)


def _logged(done: Iterator[tuple[_R, list[LogRecord]]]) -> Iterator[_R]:
    for result, records in done:
        for record in records:
            logging.getLogger(record.name).handle(record)
        yield result


def _nothing(_: int) -> None:
    return None


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args = record.getMessage(), None  # (arguments may not pickle)
        record.exc_info = record.exc_text = record.stack_info = None
        self.records.append(record)


def _run_logged(work: Callable[[_T], _R], chunk: _T, level: int) -> tuple[_R, list[LogRecord]]:
    """In a worker: ``work(chunk)`` and what it logged at ``level`` or above."""
    logger = logging.getLogger(_LOGGER)
    collect = _Collect()
    logger.addHandler(collect)
    logger.setLevel(level)
    logger.propagate = False
    try:
        return work(chunk), collect.records
    finally:
        logger.removeHandler(collect)


# --- thread pools ---------------------------------------------------------------------------------
# Held by ``with ThreadPoolExecutor(...)`` across a ``yield``, a pool is shut down, waiting for its
# threads, wherever the generator is closed. A generator its consumer drops (an exception between
# two items) is closed by the garbage collector, and that may run in one of the pool's own threads:
# waiting there for itself raised "cannot join current thread" (a sharded bucket's ranged listing,
# after a fault injected in its consumer). ``generator_pool`` waits for its threads, so that no run
# leaves one behind, except in one of them; closed before its end, it cancels the work that has not
# started. Interrupted (Ctrl-C), a pool waits for nothing: the front end exits at once
# (``interruptible_pool``; the CLI leaves no thread to wait for).


@contextmanager
def generator_pool(workers: int, prefix: str) -> Iterator[ThreadPoolExecutor]:
    """A ThreadPoolExecutor of ``workers`` threads named ``prefix``, shut down as above."""
    own: set[int] = set()  # (the pool's threads, as each starts)
    pool = ThreadPoolExecutor(
        max_workers=workers,
        thread_name_prefix=prefix,
        initializer=lambda: own.add(threading.get_ident()),
    )
    finished = interrupted = False
    try:
        yield pool
        finished = True
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        wait = threading.get_ident() not in own and not interrupted
        pool.shutdown(wait=wait, cancel_futures=not finished)


@contextmanager
def interruptible_pool(workers: int, prefix: str) -> Iterator[ThreadPoolExecutor]:
    """``with ThreadPoolExecutor(...)``, but a KeyboardInterrupt cancels the work not started
    and waits for none under way (a git log of a large history, a file being staged)."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=prefix)
    interrupted = False
    try:
        yield pool
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=interrupted)
