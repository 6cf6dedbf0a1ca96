"""Glob matching is linear in the path: hostile patterns, and the pruning that makes it so."""

from __future__ import annotations

import random
import re
import time

import pytest

from sitemill.config.globs import Glob, compile_glob
from sitemill.errors import GlobSyntaxError


def cpu_of(glob: Glob, path: str, times: int) -> float:
    """The least CPU time of three runs of ``times`` matches."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(times):
            glob.matches(path)
        best = min(best, time.process_time() - start)
    return best


def times_for(glob: Glob, path: str) -> int:
    """How many matches take a measurable CPU time (20 ms) on ``path``."""
    times = 1
    while cpu_of(glob, path, times) < 0.02 and times < 1 << 20:
        times *= 2
    return times


# (pattern, a path of n folders or letters, n). Today's backtracking tries every way to spread
# the folders over the "**/" (n**5 / 120 ways for six: 2.7 s over 60 folders, 0.29 s over 40),
# or the letters over the "*"; n is small enough for today's code to finish.
HOSTILE = [
    ("**/" * 6 + "x.html", lambda n: "a/" * n + "y.html", 20),
    ("**/" * 12 + "x.html", lambda n: "a/" * n + "y.html", 6),
    ("**/a/" * 6 + "x.html", lambda n: "a/" * n + "y.html", 20),
    ("*a" * 8 + "b", lambda n: "a" * (3 * n), 6),
]


@pytest.mark.parametrize(("pattern", "make_path", "n"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_matching_grows_linearly_with_the_path(pattern, make_path, n) -> None:
    """The CPU of a match on a path of 2n folders over n: 2 when linear (8 allowed); today's
    code gives 30 to 300."""
    glob = compile_glob(pattern)
    small, large = make_path(n), make_path(2 * n)
    assert not glob.matches(small)
    times = times_for(glob, small)
    ratio = cpu_of(glob, large, times) / cpu_of(glob, small, times)
    assert ratio < 8, ratio


def test_the_issue_patterns_over_60_and_120_folders() -> None:
    """The issue's figures: "**/" six and twelve times, then x.html, over 60 and 120 folders."""
    for repeats in (6, 12):
        glob = compile_glob("**/" * repeats + "x.html")
        for folders in (60, 120):
            assert not glob.matches("a/" * folders + "y.html")
            assert glob.matches("a/" * folders + "x.html")
        times = times_for(glob, "a/" * 60 + "y.html")
        ratio = cpu_of(glob, "a/" * 120 + "y.html", times) / cpu_of(
            glob, "a/" * 60 + "y.html", times
        )
        assert ratio < 8, (repeats, ratio)


PIECES = ["a", "b", "*", "?", "/", "**/", "[ab]", "\\*"]
NAMES = ["a", "b", "ab", "ba", "aab", "bab", "*", "abab", ""]


def unpruned(glob: Glob) -> re.Pattern[str]:
    """The same regex without its pruning: atomic groups made plain (a lazy repeat takes the
    same strings as a greedy one under fullmatch)."""
    return re.compile(glob.regex.pattern.replace("(?>", "(?:"), re.DOTALL)


def test_pruning_loses_no_match() -> None:
    """Taking the first place for a piece between two "**/" or two "*" keeps every match: a
    sweep of generated patterns and paths agrees with the same regex without atomic groups."""
    rng = random.Random(78)
    compared = matched = 0
    for _ in range(3000):
        pattern = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 7)))
        try:
            glob = compile_glob(pattern)
        except GlobSyntaxError:
            continue
        plain = unpruned(glob)
        for _ in range(12):
            path = "/".join(rng.choice(NAMES) for _ in range(rng.randint(1, 5)))
            expected = plain.fullmatch(path) is not None
            assert glob.matches(path) is expected, (pattern, path)
            compared += 1
            matched += expected
    assert compared > 20_000
    assert matched > compared // 20
