"""The one check every date a run may publish passes: one the calendar holds, not after the run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from sitemill.lastmod.decide import evidence_ceiling, evidence_lastmod, evidence_time
from sitemill.protocol import CLOCK_SKEW

RUN = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)
# Commit times git keeps: `GIT_COMMITTER_DATE="@<seconds> +0000"`.
YEAR_2099 = 4_070_908_800
YEAR_5138 = 99_999_999_999
YEAR_10000 = 253_402_300_800  # 10000-01-01T00:00:00Z: past what a datetime holds


@pytest.mark.parametrize(
    "moment",
    [YEAR_2099, YEAR_5138, YEAR_10000, 2**63 - 1, float("inf"), float("nan"), -(2**63)],
)
def test_a_time_after_the_run_or_past_the_calendar_is_no_evidence(moment: float) -> None:
    assert evidence_time(moment, RUN) is None
    assert evidence_lastmod(moment, RUN) is None


def test_a_time_up_to_the_run_and_its_clock_skew_is_evidence() -> None:
    assert evidence_lastmod(RUN.timestamp(), RUN) == "2026-11-26T20:00:00+00:00"
    assert evidence_time(RUN + CLOCK_SKEW, RUN) == RUN + CLOCK_SKEW
    assert evidence_time(RUN + CLOCK_SKEW + timedelta(seconds=1), RUN) is None
    assert evidence_lastmod(1_000_000_000, RUN) == "2001-09-09T01:46:40+00:00"


def test_an_aware_time_comes_back_in_utc() -> None:
    paris = datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=1)))
    assert evidence_time(paris, RUN) == datetime(2024, 1, 2, 2, 4, 5, tzinfo=UTC)
    assert evidence_time(datetime(9999, 12, 31, 23, 59, tzinfo=UTC), RUN) is None
    year_one_east = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))
    assert evidence_time(year_one_east, RUN) is None


def test_the_ceiling_sorts_as_the_check_decides() -> None:
    ceiling = evidence_ceiling(RUN)
    assert ceiling == "2026-11-26T20:05:00+00:00"
    assert "2026-11-26T20:05:00+00:00" <= ceiling < "2026-11-26T20:05:01+00:00"
    assert "2026-11-26" <= ceiling < "2026-11-27"
    assert ceiling < "9999-12-31"
