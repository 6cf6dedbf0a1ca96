"""Where two versions differ: a text's common start and end found by halving (common_ends),
a token sequence's by scanning (shared_ends)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import AnyStr, Final

# Characters read on each side of where two versions differ (a stamp is shorter).
CONTEXT: Final = 80


def differing(
    newer: AnyStr, older: AnyStr, ends: tuple[int, int] | None = None
) -> tuple[AnyStr, AnyStr]:
    """The parts of ``newer`` and ``older`` between their common start and end (``ends``,
    when the caller found them: common_ends), with CONTEXT characters of each around them (a
    stamp is shorter): the stamps' expression reads those only, not the whole page twice."""
    start, end = common_ends(newer, older) if ends is None else ends
    cut = max(0, start - CONTEXT)
    return (
        newer[cut : len(newer) - max(0, end - CONTEXT)],
        older[cut : len(older) - max(0, end - CONTEXT)],
    )


def common_ends(newer: AnyStr, older: AnyStr) -> tuple[int, int]:
    """The lengths of the common start of ``newer`` and ``older`` and of their common end
    after it."""
    start = common_length(newer, older, lambda n: newer[:n] == older[:n])
    limit = min(len(newer), len(older)) - start
    end = common_length(
        newer, older, lambda n: newer[len(newer) - n :] == older[len(older) - n :], limit
    )
    return start, end


def common_length(
    newer: AnyStr, older: AnyStr, same: Callable[[int], bool], limit: int = -1
) -> int:
    """The largest n up to ``limit`` (the shorter length) for which ``same(n)``, by halving."""
    low, high = 0, min(len(newer), len(older)) if limit < 0 else limit
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low


def shared_ends(old: Sequence[object], new: Sequence[object]) -> tuple[int, int]:
    """How many items ``old`` and ``new`` share at their start, then at their end (never
    counting an item twice)."""
    start, limit = 0, min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return start, end
