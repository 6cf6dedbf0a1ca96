"""A thread pool for a generator that hands work to threads while it yields."""
# Held by ``with ThreadPoolExecutor(...)`` across a ``yield``, a pool is shut down, waiting for its
# threads, wherever the generator is closed. A generator its consumer drops (an exception between
# two items) is closed by the garbage collector, and that may run in one of the pool's own threads:
# waiting there for itself raised "cannot join current thread" (a sharded bucket's ranged listing,
# after a fault injected in its consumer). ``generator_pool`` waits for its threads, so that no run
# leaves one behind, except in one of them; closed before its end, it cancels the work that has not
# started. Interrupted (Ctrl-C), a pool waits for nothing: the front end exits at once
# (``interruptible_pool``; the CLI leaves no thread to wait for).

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager


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
