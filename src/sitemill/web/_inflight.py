"""A few coroutines at a time over many items, in an event loop of this thread, as an iterator."""
# The check asks thousands of pages a few at a time. Threads fought for the GIL (each request's
# Python ran between the others' reads); here one event loop in the calling thread runs a fixed
# number of workers, each taking the next item and awaiting its coroutine, and the iterator runs
# the loop only until an answer is ready: the loop rests while its caller handles one, so no more
# than ``at_once`` results are ever held, and nothing runs once the iterator is closed.

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TypeVar

S = TypeVar("S")
_T = TypeVar("_T")


def in_flight(
    items: Iterable[S],
    work: Callable[[S], Awaitable[_T]],
    at_once: int,
    *,
    after: Callable[[], None] = lambda: None,
) -> Iterator[_T]:
    """``work(item)``'s result for each item, in the order they are done, at most ``at_once``
    awaited at once; ``after`` runs in the loop when it is done (closes what the work opened).
    An exception of ``work`` ends it, raised here."""
    loop = asyncio.new_event_loop()
    source = iter(items)
    done: deque[_T] = deque()
    failure: list[Exception] = []
    waiting: list[asyncio.Future[None]] = []
    running = max(1, at_once)

    def wake() -> None:
        if waiting and not waiting[0].done():
            waiting[0].set_result(None)

    async def worker() -> None:
        nonlocal running
        try:
            for item in source:  # (shared: each worker takes the next)
                done.append(await work(item))
                wake()
        except Exception as exc:
            failure.append(exc)
        finally:
            running -= 1
            wake()

    workers = [loop.create_task(worker()) for _ in range(running)]
    try:
        while True:
            while done:
                yield done.popleft()
            if failure:
                raise failure[0]
            if not running:
                return
            waiting[:] = [loop.create_future()]
            loop.run_until_complete(waiting[0])
    finally:
        _close(loop, workers, after)


def _close(
    loop: asyncio.AbstractEventLoop, workers: list[asyncio.Task[None]], after: Callable[[], None]
) -> None:
    """Cancel what still runs, run ``after``, let the sockets it aborted close, close the
    loop (a name still being resolved is left to its thread, not waited for)."""
    try:
        for task in workers:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*workers, return_exceptions=True))
        after()
        loop.run_until_complete(asyncio.sleep(0))
    finally:
        loop.close()
