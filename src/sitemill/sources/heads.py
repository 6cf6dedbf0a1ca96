"""Attach head facts to a stream of pages: remembered ones, or read many at a time, in order.

Reading a head is a round trip (an S3 ranged GET); a pool of threads keeps many in flight
while the pages still come out in the source's order, and at most ``window`` pages wait,
so the stream stays a stream. Each page read or reused is recorded in ``remember``, the
state the next run starts from.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from sitemill.entries import Page
from sitemill.pages import PageFacts
from sitemill.state import PageRecord, State

DEFAULT_WINDOW: Final = 1_024


@dataclass
class HeadCounts:
    """How many heads a run read, and how many it took from the state instead."""

    read: int = 0
    reused: int = 0


def attach_facts(
    pages: Iterable[Page],
    *,
    needs: Callable[[str], bool],
    read: Callable[[str], PageFacts | None],
    known: State,
    remember: State,
    counts: HeadCounts,
    workers: int,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Page]:
    """``pages`` in order, with facts for those ``needs`` says are read: from ``known`` when
    it remembers the page's version, else ``read(path)`` (None: the page is gone, no facts)."""
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sitemill-head") as pool:
        waiting: deque[tuple[Page, Future[PageFacts | None] | None]] = deque()
        for page in pages:
            future = None
            if needs(page.path):
                facts = known.facts(page.path, page.version)
                if facts is None:
                    future = pool.submit(read, page.path)
                    counts.read += 1
                else:
                    counts.reused += 1
                    page = dataclasses.replace(page, facts=facts)
                    _remember(remember, page, facts)
            waiting.append((page, future))
            while waiting and (len(waiting) > window or _ready(waiting[0][1])):
                yield _finish(waiting.popleft(), remember)
        while waiting:
            yield _finish(waiting.popleft(), remember)


def _ready(future: Future[PageFacts | None] | None) -> bool:
    return future is None or future.done()


def _finish(item: tuple[Page, Future[PageFacts | None] | None], remember: State) -> Page:
    page, future = item
    if future is None:
        return page
    facts = future.result()  # a failed read raises here, in order
    if facts is None:
        return page
    _remember(remember, page, facts)
    return dataclasses.replace(page, facts=facts)


def _remember(state: State, page: Page, facts: PageFacts) -> None:
    if page.version is not None:
        state.pages[page.path] = PageRecord(page.version, facts)
