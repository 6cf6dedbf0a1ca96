"""Timing helpers for the tests that bound hostile input's cost (linear, a few ms)."""

from __future__ import annotations

import time
from collections.abc import Callable


def fastest(call: Callable[[bytes], object], data: bytes, runs: int = 3) -> float:
    """The shortest of ``runs`` timings of ``call(data)``: the least noisy figure."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        call(data)
        best = min(best, time.perf_counter() - started)
    return best
