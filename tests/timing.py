"""Timing for the tests of hostile input's cost: growth as a ratio of two sizes, never seconds.

No test bounds a call's time in seconds: a figure that holds on one machine misses on a slower
one, or on the same one under load (``make test`` on 2 cores shared by six jobs ran a 5 s bound
in 5.35 s). ``linear`` compares one input at two sizes in one run instead: with the large one
8 times the small, linear code takes about 8 times as long and quadratic code 64 times, so a
bound of about 20 tells them apart with room on both sides, on any machine. Figures in seconds
live in ``make bench`` (benchmarks/).

Every figure is this process's CPU time (``time.process_time``), not the wall clock: on a
machine whose cores other processes keep busy, the wall clock counts the turns this process
waited for a core (seen at a load of 8 on 2 cores: a different handful of the linear-time tests
failed on each run, while their CPU-time ratios stayed at 4.0-4.5).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

Input = TypeVar("Input")
# A sample lasts at least this long: one call of a few microseconds is below the clock's noise.
SAMPLE_SECONDS = 0.002


def per_call(call: Callable[[Input], object], data: Input) -> float:
    """The CPU time of one ``call(data)``, from one sample of SAMPLE_SECONDS or more."""
    calls, started = 0, time.process_time()
    while True:
        call(data)
        calls += 1
        taken = time.process_time() - started
        if taken >= SAMPLE_SECONDS:
            return taken / calls


def fastest(call: Callable[[Input], object], data: Input, runs: int = 3) -> float:
    """The shortest of ``runs`` samples of ``call(data)``, per call: the least noisy figure."""
    return min(per_call(call, data) for _ in range(runs))


def linear(call: Callable[[Input], object], small: Input, large: Input, bound: float) -> bool:
    """Whether ``call(large)`` takes less than ``bound`` times ``call(small)``: each the
    best of several samples taken in turns (a busy moment slows one sample, not the best of
    them, and slows both sizes alike), measured once more, with twice the samples, before a
    miss counts."""
    for rounds in (3, 6):
        small_seconds, large_seconds = float("inf"), float("inf")
        for _ in range(rounds):
            small_seconds = min(small_seconds, per_call(call, small))
            large_seconds = min(large_seconds, per_call(call, large))
        if large_seconds < bound * small_seconds:
            return True
    return False
