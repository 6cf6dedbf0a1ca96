"""Declared dates that are no evidence of a modification, and a site's held against its history."""
# Two rules beside the build-stamp check (docs/lastmod.md, "Declared dates"): a modification date
# that is not after the page's own declared publication date says nothing (templates fill one with
# the other: Minimal Mistakes' "Updated:", a blog's "last updated" that repeats the post date, a
# generator sitemap's ``<lastmod>`` that falls back to the post date); and a site whose accepted
# declared dates are earlier than the history the run has for the same pages (rung 1's git dates)
# lags its content, so none of its declared dates is trusted. Fewer dates over wrong ones: a page
# without ``<lastmod>`` is crawled as usual.

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Final, TypeVar

from sitemill.lastmod.declared.buildstamps import StampCheck, drop_build_stamps, in_future
from sitemill.lastmod.declared.w3cdate import DeclaredDate

_Page = TypeVar("_Page", bound=Hashable)

NOT_AFTER_PUBLICATION: Final = "not after the page's publication date"
BEHIND_HISTORY: Final = "the site's declared dates are earlier than its history"
# A declared date this much before the page's history date is behind it: more than a deploy's
# lag after the source's commit, or than a date's own span.
HISTORY_LAG: Final = timedelta(days=1)


def check_declared(
    candidates: Mapping[_Page, Sequence[DeclaredDate]], run_time: datetime
) -> StampCheck[_Page]:
    """The modification dates of ``candidates`` (each page's declarations, its publication
    dates among them) that say a modification: not after a publication date the page
    declares, then no build stamp (sitemill.lastmod.declared.buildstamps)."""
    kept: dict[_Page, tuple[DeclaredDate, ...]] = {}
    refused: dict[_Page, tuple[DeclaredDate, str]] = {}
    dropped: Counter[str] = Counter()
    for page, dates in candidates.items():
        # (a publication after the run is no date: nothing is held against it)
        published = [d for d in dates if d.published and not in_future(d, run_time)]
        changes = [date for date in dates if not date.published]
        kept[page] = tuple(date for date in changes if not _repeats(date, published))
        if len(kept[page]) < len(changes):
            dropped[NOT_AFTER_PUBLICATION] += len(changes) - len(kept[page])
            if not kept[page]:
                refused[page] = (changes[0], NOT_AFTER_PUBLICATION)
    stamps = drop_build_stamps({page: dates for page, dates in kept.items() if dates}, run_time)
    dropped.update(stamps.dropped)
    return StampCheck(stamps.accepted, {**refused, **stamps.refused}, dict(sorted(dropped.items())))


def _repeats(changed: DeclaredDate, published: Sequence[DeclaredDate]) -> bool:
    """Whether ``changed`` may be no later than one of the ``published`` dates: the same
    instant or before it; for a date (no time), any instant of its day."""
    for first in published:
        if changed.precision is first.precision:
            if changed.when <= first.when:
                return True
        elif changed.earliest() <= first.latest():
            return True
    return False


def behind_history(
    accepted: Mapping[_Page, DeclaredDate], history: Mapping[_Page, datetime]
) -> list[_Page]:
    """The pages whose accepted declared date is more than HISTORY_LAG before the date the
    history gives the same page (its content's last change), sorted."""
    behind = [
        page
        for page, declared in accepted.items()
        if page in history and declared.latest() + HISTORY_LAG < history[page]
    ]
    return sorted(behind, key=str)


def distrust_when_behind(check: StampCheck[_Page], behind: Sequence[_Page]) -> StampCheck[_Page]:
    """``check`` with none accepted: ``behind`` (pages with history) shows the site's declared
    dates lag its content."""
    if not behind or not check.accepted:
        return check
    refused = {page: (date, BEHIND_HISTORY) for page, date in check.accepted.items()}
    dropped = Counter(check.dropped)
    dropped[BEHIND_HISTORY] += len(check.accepted)
    return StampCheck({}, {**check.refused, **refused}, dict(sorted(dropped.items())))
