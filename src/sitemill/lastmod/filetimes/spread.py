"""The stamp rule: whether a first run's file times (mtimes, LastModified) are evidence."""
# A fresh build writes every file within its own minutes; ``aws s3 sync`` of a fresh build uploads
# every object within the sync's. Such times say when the deploy ran, not when a page changed
# (docs/lastmod.md, "No date without evidence"). The times of a run's first-seen pages are evidence
# only when they are spread: no window of STAMP_WINDOW seconds holds more than half of them, and
# none is after the run. Decided once per run, over all those pages, so that the verdict is the same
# whatever order the pages come in.

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from enum import Enum
from typing import Final

# A build or a sync writes a site within minutes; months of incremental uploads do not.
STAMP_WINDOW: Final = 600.0  # seconds
# A time this little after the run's is still taken as before it (a coarse file-system clock,
# a file written as the run started).
AFTER_RUN_GRACE: Final = 60.0  # seconds


class Stamp(Enum):
    """The verdict on a run's first-seen file times."""

    SPREAD = "spread"  # evidence: each page's time is the latest its bytes can have changed
    ONE_DEPLOY = "one deploy"  # most of them within one window: a build's or a sync's
    AFTER_RUN = "after the run"  # a time later than the run: not a time the bytes changed
    UNJUDGED = "unjudged"  # no verdict was made: no file time is evidence


def judge_times(times: Iterable[float], now: float | None = None) -> Stamp:
    """The verdict on the POSIX ``times`` of a run's first-seen pages (``now``: the run's)."""
    ordered = sorted(times)
    if not ordered:
        return Stamp.SPREAD  # no page to date: nothing is claimed
    if ordered[-1] > (time.time() if now is None else now) + AFTER_RUN_GRACE:
        return Stamp.AFTER_RUN
    if busiest_window(ordered) * 2 > len(ordered):
        return Stamp.ONE_DEPLOY
    return Stamp.SPREAD


def busiest_window(ordered: list[float]) -> int:
    """How many of the sorted ``ordered`` times the busiest STAMP_WINDOW holds."""
    best = start = 0
    for end, moment in enumerate(ordered):
        while moment - ordered[start] >= STAMP_WINDOW:
            start += 1
        best = max(best, end - start + 1)
    return best


def seconds(lastmod: str) -> float:
    """A full-precision W3C lastmod (``YYYY-MM-DDThh:mm:ss+00:00``) as POSIX seconds."""
    return datetime.fromisoformat(lastmod).timestamp()
