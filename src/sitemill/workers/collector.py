"""Python's cyclic garbage collector, paced for a run that builds large tables it keeps."""
# A first run builds its tables of pages, versions and fingerprints as it goes and makes almost no
# reference cycles: each of the collector's youngest collections (every 700 new objects by default)
# finds nothing to free and moves the table so far on to the next generation, to be scanned again,
# in the one thread every other waits for (benchmarks/README.md). The garbage freed is the same,
# only found later. For `sitemill build` alone: `sitemill urls` streams.

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

# New objects (less those freed) between two of the youngest collections; the middle and the
# oldest generation's counts as Python's defaults.
YOUNG_OBJECTS: Final = 10_000
_OLDER: Final = (10, 10)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector's youngest collections at most every YOUNG_OBJECTS new objects while the
    block runs (never more often than before it; a threshold of 0, no collections, stays),
    then as they were."""
    young, middle, oldest = gc.get_threshold()
    if young:
        gc.set_threshold(max(young, YOUNG_OBJECTS), max(middle, _OLDER[0]), max(oldest, _OLDER[1]))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
