"""`make bench` section hostile: the worst inputs each reader is given, timed at the most it reads.

The tests check only that these costs grow linearly (tests/timing.py: a ratio of two sizes in
one run, never seconds); the seconds are here. Each shape is the tests' own (imported from
tests/, so a shape added there is timed here), at the size the reader is bounded to: a page's
head (64 KiB), a whole page (4 MB for the fingerprint, 5 MB of images), a repository file
(1 MiB). Each figure is the best of 3 runs of this process's CPU time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"
MB = 1_000_000
MIB = 1 << 20


def best_of(call: Callable[[Any], object], data: object, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        call(data)
        best = min(best, time.process_time() - started)
    return best


def _worst(
    call: Callable[[Any], object], shapes: Iterable[tuple[str, Callable[[int], Any]]], size: int
) -> tuple[float, str]:
    return max((best_of(call, make(size)), name) for name, make in shapes)


def bench_hostile(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the slowest shape of each reader and its target."""
    for folder in ("", "html", "lastmod/fingerprint", "lastmod/sourcefiles"):
        sys.path.insert(0, str(TESTS / folder))
    import test_digest  # (the tests' shapes, once the path holds them)
    import test_facts
    import test_images
    import test_noindex
    import test_source_hostile_input as sources

    from sitemill.html.facts import PAGE_FACTS_BYTES, read_page_facts
    from sitemill.html.images import read_image_sources
    from sitemill.html.meta import head_is_noindex
    from sitemill.lastmod.fingerprint.digest import fingerprint_html

    scale = 10 if quick else 1
    rows: list[tuple[str, Callable[[Any], object], Iterable[Any], int, float]] = [
        ("a head's noindex", head_is_noindex, test_noindex.ADVERSARIAL.items(),
         PAGE_FACTS_BYTES, 0.050),
        ("a head's page facts", read_page_facts, test_facts.ADVERSARIAL.items(),
         PAGE_FACTS_BYTES, 0.050),
        ("a page's images", read_image_sources, test_images.HOSTILE.items(), 5 * MB // scale,
         1.0 / scale),
        ("a page's fingerprint", fingerprint_html, test_digest.HOSTILE.items(), 4 * MB // scale,
         1.0 / scale),
    ]  # fmt: skip
    for label, call, shapes, size, target in rows:
        seconds, name = _worst(call, shapes, size)
        section.check(
            f"{label}, {size:,} bytes", f"≤ {target * 1000:.0f} ms",
            f"{seconds * 1000:.0f} ms ({name})", seconds <= target,
        )  # fmt: skip
    readers = [(name, (read, make)) for name, (read, make) in sources.HOSTILE.items()]
    size = MIB // scale
    seconds, name = max((best_of(read, make(size)), name) for name, (read, make) in readers)
    target = 1.0 / scale
    section.check(
        f"a repository file's readers, {size:,} bytes", f"≤ {target * 1000:.0f} ms",
        f"{seconds * 1000:.0f} ms ({name})", seconds <= target,
    )  # fmt: skip
