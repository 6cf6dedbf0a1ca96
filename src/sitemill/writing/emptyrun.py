"""A run that lists nothing says why: what it left out, by reason, or that it found none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from sitemill.entries import SkipReason
from sitemill.errors import NoPagesError


@contextmanager
def explain_empty_run(skipped: Counter[SkipReason]) -> Iterator[None]:
    """A NoPagesError raised within (the writer's: no page to write) names the reasons and
    counts of ``skipped``, the run's skips, so far: a wrong base URL shows as "off site"."""
    try:
        yield
    except NoPagesError:
        counts = ", ".join(f"{reason.value} {count:,}" for reason, count in skipped.most_common())
        if counts:
            why = f"every page found was left out ({counts})"
        else:
            why = "none found, or none matched include/exclude"
        raise NoPagesError(f"no pages to list: {why}; nothing was written") from None
