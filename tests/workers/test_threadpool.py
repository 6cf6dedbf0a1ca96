"""generator_pool: a generator closed early, even in one of its own pool's threads (as the
garbage collector may close a dropped generator), never waits for that thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import Any

import pytest

from sitemill.workers.workpool import generator_pool, interruptible_pool

PREFIX = "sitemill-test-pool"


def plain_pool(workers: int, prefix: str) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=prefix)


def numbers(
    pool_of: Callable[[int, str], AbstractContextManager[ThreadPoolExecutor]],
    pools: list[ThreadPoolExecutor],
) -> Generator[int, None, None]:
    with pool_of(2, PREFIX) as pool:
        pools.append(pool)
        for number in range(3):
            yield pool.submit(int, number).result()


def close_in_its_own_thread(
    pool_of: Callable[[int, str], AbstractContextManager[ThreadPoolExecutor]],
) -> BaseException | None:
    pools: list[ThreadPoolExecutor] = []
    dropped = numbers(pool_of, pools)
    assert next(dropped) == 0
    return pools[0].submit(dropped.close).exception(timeout=10)


def test_a_generator_closed_in_its_pool_thread_does_not_join_it() -> None:
    assert close_in_its_own_thread(generator_pool) is None
    # (held by a plain ``with ThreadPoolExecutor`` across the yield, it waits for itself)
    failed: Any = close_in_its_own_thread(plain_pool)
    assert isinstance(failed, RuntimeError) and "join current thread" in str(failed)


def test_a_generator_run_to_its_end_leaves_no_thread() -> None:
    assert list(numbers(generator_pool, [])) == [0, 1, 2]
    assert not [thread for thread in threading.enumerate() if thread.name.startswith(PREFIX)]


def hold(started: threading.Event, release: threading.Event) -> None:
    started.set()
    release.wait(10)


def test_a_generator_closed_early_cancels_what_has_not_started() -> None:
    started, release = threading.Event(), threading.Event()
    futures: list[Future[int]] = []

    def work() -> Generator[int, None, None]:
        with generator_pool(1, PREFIX) as pool:
            pool.submit(hold, started, release)
            futures.append(pool.submit(int, 1))
            yield 0
            yield futures[0].result()

    gen = work()
    assert next(gen) == 0 and started.wait(10)
    threading.Timer(0.2, release.set).start()
    gen.close()  # (from another thread than its own: it waits for the task that runs)
    assert futures[0].cancelled()
    assert not [thread for thread in threading.enumerate() if thread.name.startswith(PREFIX)]


def test_an_interrupted_pool_waits_for_no_work_under_way() -> None:
    """Ctrl-C: the work not started is cancelled, the work under way (git log over a long
    history) is not waited for (the CLI then exits at once: cli.usage.exit_interrupted)."""
    release = threading.Event()
    try:
        with pytest.raises(KeyboardInterrupt), interruptible_pool(1, PREFIX) as pool:
            under_way = pool.submit(release.wait, 60)
            queued = pool.submit(release.wait, 60)
            raise KeyboardInterrupt
        assert queued.cancelled()
        assert not under_way.done()  # (returned without waiting for it)
        with pytest.raises(KeyboardInterrupt), generator_pool(1, PREFIX) as pool:
            under_way = pool.submit(release.wait, 60)
            raise KeyboardInterrupt
        assert not under_way.done()
    finally:
        release.set()
