"""The stamp rule and the ladder's rung order, as plain functions: one build's or one sync's
times are never a first run's dates; times spread over months are (docs/lastmod.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from sitemill.lastmod.decide import DateReason, Evidence, Ladder, first_run_ladder
from sitemill.lastmod.filetimes.spread import (
    STAMP_WINDOW,
    Stamp,
    busiest_window,
    judge_times,
    seconds,
)
from sitemill.lastmod.summary import dates_text

NOW = 1_800_000_000.0
DAY = 86_400.0


@pytest.mark.parametrize(
    ("times", "verdict"),
    [
        ([NOW - 30 + n * 0.1 for n in range(200)], Stamp.ONE_DEPLOY),  # a fresh build
        ([NOW - 3600 + n for n in range(8)], Stamp.ONE_DEPLOY),  # a sync, an hour ago
        ([NOW - n * 40 * DAY for n in range(8)], Stamp.SPREAD),  # uploaded over months
        # Half of them in one window is no majority: an incremental deploy of half the site.
        ([NOW - 60] * 4 + [NOW - n * DAY for n in range(1, 5)], Stamp.SPREAD),
        ([NOW - 60] * 5 + [NOW - n * DAY for n in range(1, 5)], Stamp.ONE_DEPLOY),
        ([NOW - n * DAY for n in range(8)] + [NOW + DAY], Stamp.AFTER_RUN),  # in the future
        ([NOW - 5 * DAY], Stamp.ONE_DEPLOY),  # one page: its time alone tells nothing
        ([], Stamp.SPREAD),  # no page to date
    ],
    ids=["build", "sync", "months", "half", "most", "future", "one", "none"],
)
def test_the_stamp_rule(times: list[float], verdict: Stamp) -> None:
    assert judge_times(times, NOW) is verdict
    assert judge_times(reversed(times), NOW) is verdict  # (decided once, in any order)


def test_the_busiest_window_is_counted_exactly() -> None:
    edge = [0.0, STAMP_WINDOW - 1, STAMP_WINDOW, 2 * STAMP_WINDOW + 5]
    assert busiest_window(edge) == 2  # [0, window) holds two; the window's end is out
    assert seconds("2024-03-01T12:00:00+00:00") == 1_709_294_400


def declared(path: str) -> Evidence | None:
    """A stand-in for rung 3 (sitemill.lastmod.declared.inpage, built apart)."""
    if path == "post.html":
        return Evidence("2023-05-06T07:08:09+00:00", DateReason.DECLARED)
    return None


def first_date(ladder: Ladder, path: str, file_time: str) -> tuple[str | None, DateReason]:
    """The page's lastmod and why, as a job takes them from the ladder."""
    found = ladder.first_evidence(path, file_time)
    return (None, ladder.undated_reason()) if found is None else (found.lastmod, found.reason)


def test_the_rungs_between_history_and_file_times_are_asked_in_order() -> None:
    stamped = first_run_ladder([NOW] * 3, providers=[declared], now=NOW)
    assert first_date(stamped, "post.html", "2026-01-01T00:00:00+00:00") == (
        "2023-05-06T07:08:09+00:00",
        DateReason.DECLARED,
    )
    assert first_date(stamped, "page.html", "2026-01-01T00:00:00+00:00") == (
        None,
        DateReason.NONE_BUILD,
    )
    spread = first_run_ladder([NOW - n * 40 * DAY for n in range(3)], uploads=True, now=NOW)
    when = "2025-01-01T00:00:00+00:00"
    assert first_date(spread, "page.html", when) == (when, DateReason.FILE_TIME)
    synced = first_run_ladder([NOW - 9] * 3, uploads=True, now=NOW)
    assert first_date(synced, "page.html", when) == (None, DateReason.NONE_SYNC)
    assert first_date(Ladder(), "page.html", when) == (None, DateReason.NONE)  # nothing judged


@pytest.mark.parametrize(
    ("dates", "line"),
    [
        (
            {"no date (file times are one build's)": 8},
            "lastmod: 8 without a date: no evidence on a first run (file times are one build's)",
        ),
        (
            {"file time": 3, "the last commit": 2},
            "lastmod: 2 pages dated by their last commit; none kept an older date, since no "
            "commit changed a page without changing its content, 3 dated by their file times "
            "(a first run; the times are spread, no stamp)",
        ),
        (
            {"declared": 4, "no date (upload times are one sync's)": 1},
            "lastmod: 4 dated by their declared modification date, 1 without a date: no "
            "evidence on a first run (upload times are one sync's)",
        ),
        (
            {"kept": 5, "content changed": 1, "no date (unchanged, none remembered)": 7,
             "no date (a time after the run)": 2},
            "lastmod: 5 kept, 1 moved (content changed 1), 9 without a date: 2 no evidence "
            "on a first run (a file time is after the run); 7 unchanged, and the state "
            "remembers none",
        ),
    ],
)  # fmt: skip
def test_the_dates_line_says_how_many_pages_got_no_date_and_why(
    dates: dict[str, int], line: str
) -> None:
    assert dates_text(Counter(dates)) == line
