"""Whether a date may be evidence: a moment the calendar holds, not after the run's time."""
# Every date a run may publish passes here (docs/lastmod.md, "No date from the future"): a page's
# git history and its source's, a declared date, a file time, an S3 LastModified, the replaced
# sitemap's, a remembered date. Git keeps commit times far past the year 9999, which no datetime
# holds, and a page may declare 9999-12-31, whose span (36 hours past its midnight) no datetime
# holds either: neither may reach a sitemap, nor raise on its way. A time after the run (by more
# than the clocks of two machines differ) is no time a page changed: it is no evidence, and the
# next rung of the ladder answers.

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from sitemill.protocol import CLOCK_SKEW, Precision, format_lastmod


def latest_evidence(run_time: datetime) -> datetime:
    """The latest moment that is evidence in a run started at ``run_time`` (aware)."""
    return run_time + CLOCK_SKEW


def evidence_ceiling(run_time: datetime) -> str:
    """The latest lastmod that is evidence in a run started at ``run_time``, as sitemill
    writes one (``YYYY-MM-DDThh:mm:ss+00:00``): a lastmod in that form, or a date
    (``YYYY-MM-DD``), is evidence when it sorts at or before it (one string comparison, for
    a listing of millions of objects)."""
    return format_lastmod(latest_evidence(run_time), Precision.DATETIME)


def evidence_time(moment: datetime | float, run_time: datetime) -> datetime | None:
    """``moment`` (an aware datetime, or POSIX seconds: a commit's, a file's) in UTC when it
    is evidence: a moment the calendar holds, not after ``run_time`` (aware; CLOCK_SKEW
    allowed); else None."""
    if not isinstance(moment, datetime):
        try:
            moment = datetime.fromtimestamp(int(moment), UTC)
        except (OverflowError, OSError, ValueError):  # past the year 9999, NaN, infinite
            return None
    if moment > latest_evidence(run_time):
        return None
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # (the year 1 in an offset east of UTC)
        return None


def evidence_lastmod(moment: datetime | float, run_time: datetime) -> str | None:
    """``moment`` as a full-precision lastmod (``YYYY-MM-DDThh:mm:ss+00:00``) when it is
    evidence (evidence_time), else None."""
    found = evidence_time(moment, run_time)
    return None if found is None else format_lastmod(found, Precision.DATETIME)


def evidence_dates(
    dates: Mapping[str, int], run_time: datetime
) -> tuple[dict[str, int], dict[str, int]]:
    """``dates`` (git's commit times, by page) split into those that are evidence and those
    after the run (a clock set to 2099, a time git keeps past the year 9999), which are not:
    such a page takes the ladder. Each commit time is judged once (a commit dates many pages)."""
    kept = {t for t in set(dates.values()) if evidence_time(t, run_time)}
    evidence = {p: t for p, t in dates.items() if t in kept}
    return evidence, {p: t for p, t in dates.items() if p not in evidence}
