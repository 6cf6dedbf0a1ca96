"""Timing helpers for the tests that bound hostile input's cost (linear, a few ms).

A budget in seconds is written for the machine the tests were tuned on; ``budget`` scales it
by how much slower this machine (and its load right now) runs plain Python, so that a slower
CI runner does not fail a bound the code meets, and a quadratic blow-up still does.

Every figure is this process's CPU time (``time.process_time``), not the wall clock: on a
machine whose cores other processes keep busy (a parallel suite, a second job on the CI
runner), the wall clock counts the turns this process waited for a core, which made a
linear call look quadratic at random (seen at a load of 8 on 2 cores: a different handful
of the linear-time tests failed on each run, while their CPU-time ratios stayed at 4.0-4.5).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

# Best of five runs of ``_reference_work`` on the machine the budgets were tuned on.
TUNED_REFERENCE_SECONDS = 0.0076


def fastest(call: Callable[[bytes], object], data: bytes, runs: int = 3) -> float:
    """The shortest of ``runs`` timings of ``call(data)``: the least noisy figure."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        call(data)
        best = min(best, time.process_time() - started)
    return best


def _reference_work(_: bytes) -> int:
    total = 0
    for number in range(200_000):
        total += number & 7
    return total


@cache
def _slowness() -> float:
    return max(1.0, fastest(_reference_work, b"", runs=5) / TUNED_REFERENCE_SECONDS)


def budget(seconds: float) -> float:
    """``seconds`` on the tuned machine, as many on this one: never less than given."""
    return seconds * _slowness()


def within_budget(call: Callable[[bytes], object], data: bytes, seconds: float) -> bool:
    """Whether the faster of two runs fits the scaled budget; the machine is measured again,
    and the call run five more times, before a miss counts (a busy neighbour can slow one
    moment of the run)."""
    if fastest(call, data, runs=2) < budget(seconds):
        return True
    _slowness.cache_clear()
    return fastest(call, data, runs=5) < budget(seconds)


def linear(call: Callable[[bytes], object], small: bytes, large: bytes, bound: float) -> bool:
    """Whether ``call(large)`` takes less than ``bound`` times ``call(small)``: measured in
    turns (a busy machine slows both alike), and once more, longer, before a miss counts."""
    for rounds, small_runs in ((2, 3), (5, 8)):
        small_s, large_s = float("inf"), float("inf")
        for _ in range(rounds):
            small_s = min(small_s, fastest(call, small, runs=small_runs))
            large_s = min(large_s, fastest(call, large, runs=1))
        if large_s < bound * small_s:
            return True
    return False
