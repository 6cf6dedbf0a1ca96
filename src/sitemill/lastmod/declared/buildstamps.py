"""Declared dates that are build stamps, dropped."""
# Build stamps: dates in the future, in the run's own minutes, or one instant on most pages
# (docs/lastmod.md, "Declared dates").
#
# A generator that writes "now" into each page (a theme's dateModified without a date in the source,
# a sitemap plugin's build time) declares the build's time, not the content's. What is left is
# evidence. A date (no time) is read as every instant it may mean, from its start at UTC+14 to its
# end at UTC-12.

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Final, Generic, TypeVar

from sitemill.lastmod.decide import evidence_time
from sitemill.lastmod.declared.w3cdate import DeclaredDate, DeclaredPrecision
from sitemill.lastmod.filetimes.spread import STAMP_WINDOW

_Page = TypeVar("_Page", bound=Hashable)

RUN_MINUTES: Final = timedelta(minutes=10)  # before the run's start: the build's own minutes
# One build's stamps: times within STAMP_WINDOW of each other (a build stamps its pages as it
# goes), or one date, on more than half of the pages that declare a date and on at least
# MIN_STAMPED_PAGES of them.
_WINDOW: Final = timedelta(seconds=STAMP_WINDOW)
MIN_STAMPED_PAGES: Final = 5
FUTURE: Final = "in the future"
RUN_TIME: Final = "within the run's minutes"
SHARED: Final = "one instant on most pages"


@dataclass(frozen=True)
class StampCheck(Generic[_Page]):
    """The date each page keeps (the first of its candidates left); for each page that
    declared dates and keeps none, its first and why it was refused (for ``sitemill why``);
    how many candidate dates were dropped, by reason."""

    accepted: Mapping[_Page, DeclaredDate]
    refused: Mapping[_Page, tuple[DeclaredDate, str]] = field(default_factory=dict)
    dropped: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _Stamps:
    """What one build stamped on most pages: the windows of times, the dates."""

    windows: tuple[tuple[datetime, datetime], ...]
    days: frozenset[date]

    def holds(self, declared: DeclaredDate) -> bool:
        if declared.precision is DeclaredPrecision.DAY:
            return declared.when.date() in self.days
        return any(start <= declared.when <= end for start, end in self.windows)


def drop_build_stamps(
    candidates: Mapping[_Page, Sequence[DeclaredDate]],
    run_time: datetime,
    *,
    run_minutes: timedelta = RUN_MINUTES,
    min_pages: int = MIN_STAMPED_PAGES,
) -> StampCheck[_Page]:
    """The declared dates of a run's first-seen pages (each page's in order of preference)
    less the build stamps: any after ``run_time`` (aware), any that may fall within
    ``run_minutes`` before it, and any on the instant most of the declaring pages share.
    Deterministic: the result depends on the dates only, never on the order of pages.
    Publication dates among them are left out: they never date a page."""
    candidates = {
        page: [date for date in dates if not date.published] for page, dates in candidates.items()
    }
    stamps = _shared(candidates.values(), min_pages, run_time)
    since = run_time - run_minutes
    accepted: dict[_Page, DeclaredDate] = {}
    refused: dict[_Page, tuple[DeclaredDate, str]] = {}
    dropped: Counter[str] = Counter()
    for page, dates in candidates.items():
        for declared in dates:
            reason = _stamp(declared, run_time, since, stamps)
            if reason is not None:
                dropped[reason] += 1
                refused.setdefault(page, (declared, reason))
            elif page not in accepted:
                accepted[page] = declared
    refused = {page: why for page, why in refused.items() if page not in accepted}
    return StampCheck(accepted, refused, dict(sorted(dropped.items())))


def _stamp(
    declared: DeclaredDate, run_time: datetime, since: datetime, stamps: _Stamps
) -> str | None:
    """Why ``declared`` is a build stamp, or None when it is evidence."""
    if in_future(declared, run_time):
        return FUTURE
    if declared.latest() >= since:
        return RUN_TIME
    if stamps.holds(declared):
        return SHARED
    return None


def in_future(declared: DeclaredDate, run_time: datetime) -> bool:
    """Whether ``declared`` is after the run (``run_time``, aware): every instant it may mean
    is (sitemill.lastmod.decide). Such a date is no evidence, and no other check
    reckons with it (the day after 9999-12-31 is no date)."""
    return evidence_time(declared.earliest(), run_time) is None


def _shared(
    candidates: Iterable[Sequence[DeclaredDate]], min_pages: int, run_time: datetime
) -> _Stamps:
    """The windows and dates on more than half of the pages that declare a date, and on at
    least ``min_pages`` of them (a page counts once in each); dates after the run left out."""
    pages = 0
    days: Counter[date] = Counter()
    times: list[tuple[datetime, int]] = []
    for number, declared in enumerate(candidates):
        pages += bool(declared)
        dates = [d for d in declared if not in_future(d, run_time)]
        days.update({d.when.date() for d in dates if d.precision is DeclaredPrecision.DAY})
        times.extend({(d.when, number) for d in dates if d.precision is DeclaredPrecision.TIME})
    least = max(min_pages, pages // 2 + 1)
    return _Stamps(
        _windows(sorted(times), least),
        frozenset(day for day, count in days.items() if count >= least),
    )


def _windows(
    times: list[tuple[datetime, int]], least: int
) -> tuple[tuple[datetime, datetime], ...]:
    """Each window of STAMP_WINDOW, from one of ``times`` on, that holds the times of at
    least ``least`` pages (two pointers over the sorted times: linear after the sort)."""
    windows: list[tuple[datetime, datetime]] = []
    inside: Counter[int] = Counter()
    end = 0
    for start, (first, _page) in enumerate(times):
        while end < len(times) and times[end][0] <= first + _WINDOW:
            inside[times[end][1]] += 1
            end += 1
        if len(inside) >= least:
            if windows and first <= windows[-1][1]:  # overlapping windows are one
                windows[-1] = (windows[-1][0], first + _WINDOW)
            else:
                windows.append((first, first + _WINDOW))
        page = times[start][1]
        inside[page] -= 1
        if not inside[page]:
            del inside[page]
    return tuple(windows)
