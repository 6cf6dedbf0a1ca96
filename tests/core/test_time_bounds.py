"""No test bounds the code's speed in seconds (tests/timing.py says why): a figure in seconds
holds on one machine and misses on a loaded one. Growth is a ratio of two sizes
(``timing.linear``) or counted work; the seconds live in ``make bench``. Not even a guard
against a hang is a clock's bound: what proves a deadline fired is its own message (``no
complete answer within 0.3 s``), or work counted (the chunks a server sent, a worker's exit
code), and pytest's run ends a real hang."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
# An assertion that a clock's reading, less a start, is under a number of seconds.
_CLOCK_BOUND = re.compile(
    r"assert\s+[\w.]*(?:perf_counter|process_time|monotonic|time)\(\)\s*-\s*\w+\s*<\s*"
    r"(?P<seconds>[\d.]+)"
)
# An elapsed time kept in a name, then asserted under a number of seconds.
_NAMED_BOUND = re.compile(
    r"assert\s+(?:elapsed|seconds|taken)\s*<\s*(?P<seconds>[\d.]+|[A-Z_][A-Z0-9_]*)"
)


def bound_in(line: str) -> float | None:
    """The seconds a line's assertion bounds time under, if it does."""
    bound = _CLOCK_BOUND.search(line) or _NAMED_BOUND.search(line)
    if bound is None:
        return None
    seconds = bound["seconds"]
    return float(seconds) if seconds[0].isdigit() or seconds[0] == "." else float("inf")


def time_bounds() -> list[str]:
    """Each assertion of the tests (but this file's examples) that bounds time, however
    long the bound: path:line."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            seconds = bound_in(line)
            if seconds is not None:
                found.append(f"{path.relative_to(TESTS)}:{number}: {line.strip()}")
    return found


def test_no_test_bounds_the_code_s_speed_in_seconds() -> None:
    assert time_bounds() == []


def test_the_timing_helpers_hold_no_budget_in_seconds() -> None:
    import timing

    assert not {"budget", "within_budget"} & set(vars(timing))


def test_the_check_finds_a_bound_in_any_spelling() -> None:
    assert bound_in("    assert time.perf_counter() - started < 0.5") == 0.5
    assert bound_in("    assert time.process_time() - started < 2.0  # about 0.1 s") == 2.0
    assert bound_in("    assert elapsed < 0.5, f'{elapsed:.3f} s'") == 0.5
    assert bound_in("    assert seconds < 5") == 5
    assert bound_in("    assert time.monotonic() - started < 10  # (a guard)") == 10
    assert bound_in("    assert time.monotonic() - started >= 1.0") is None
    assert bound_in("    assert taken < HANG_GUARD, said") == float("inf")
