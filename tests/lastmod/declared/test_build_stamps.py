"""Build stamps dropped from the declared dates of a run's first-seen pages; evidence kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sitemill.lastmod.declared.buildstamps import FUTURE, RUN_TIME, SHARED, drop_build_stamps
from sitemill.lastmod.declared.inpage import declared_dates
from sitemill.lastmod.declared.w3cdate import (
    JSON_LD,
    DeclaredDate,
    DeclaredPrecision,
    parse_declared,
)
from sitemill.writing.replaced import urlset_dates

FIXTURES = Path(__file__).parents[1] / "fixtures"
RUN = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def date(text: str) -> DeclaredDate:
    parsed = parse_declared(text, JSON_LD)
    assert parsed is not None
    return parsed


def spread(count: int) -> dict[str, list[DeclaredDate]]:
    """``count`` pages, each dated a different month of 2020 to 2023."""
    return {
        f"p{n}": [date(f"{2020 + n // 12}-{n % 12 + 1:02d}-15T10:00:00Z")] for n in range(count)
    }


def test_a_fake_build_declaring_one_instant_on_every_page_is_all_dropped() -> None:
    stamp = date("2025-05-31T08:00:00Z")  # the day before the run: not in its minutes
    check = drop_build_stamps({f"p{n}": [stamp] for n in range(20)}, RUN)
    assert check.accepted == {}
    assert check.dropped == {SHARED: 20}


def test_a_build_stamping_pages_as_it_goes_is_one_instant() -> None:
    first = datetime(2025, 5, 31, 8, 0, 50, tzinfo=UTC)
    stamps = [
        DeclaredDate(first + timedelta(seconds=13 * n), DeclaredPrecision.TIME, JSON_LD)
        for n in range(30)
    ]
    pages = {f"b{n}": [stamp] for n, stamp in enumerate(stamps)}  # 6.5 minutes of a build
    pages |= spread(10)  # the real dates of 10 other pages stay
    check = drop_build_stamps(pages, RUN)
    assert sorted(check.accepted) == sorted(spread(10))
    assert check.dropped == {SHARED: 30}


def test_one_date_on_most_pages_is_a_stamp() -> None:
    pages = {f"s{n}": [date("2025-05-20")] for n in range(6)} | spread(5)
    check = drop_build_stamps(pages, RUN)
    assert sorted(check.accepted) == sorted(spread(5))
    assert check.dropped == {SHARED: 6}


@pytest.mark.parametrize(
    ("shared", "others", "kept"),
    [
        (4, 0, 4),  # fewer than 5 pages: a small site may have been written in one go
        (5, 5, 10),  # half is not most
        (5, 4, 4),  # more than half, and 5: dropped
        (1, 3, 4),
    ],
)
def test_most_means_more_than_half_and_at_least_five(shared: int, others: int, kept: int) -> None:
    pages = {f"s{n}": [date("2024-02-02T02:02:02Z")] for n in range(shared)} | spread(others)
    assert len(drop_build_stamps(pages, RUN).accepted) == kept


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2025-06-01T12:05:01Z", FUTURE),  # past the clock skew (protocol.CLOCK_SKEW)
        ("2025-06-01T12:00:01Z", RUN_TIME),  # within it: the run's own minutes
        ("2030-01-01", FUTURE),
        ("2025-06-03", FUTURE),  # two days ahead: in the future everywhere
        ("2025-06-01T12:00:00Z", RUN_TIME),  # the run's start
        ("2025-06-01T11:55:00Z", RUN_TIME),
        ("2025-06-01T13:55:00+02:00", RUN_TIME),
        ("2025-06-01", RUN_TIME),  # the run's day may hold its minutes somewhere
        ("2025-06-02", RUN_TIME),  # tomorrow at UTC+14 is the run's evening
        ("2025-05-31", RUN_TIME),  # its end at UTC-12 is the run's noon
    ],
)
def test_dates_that_may_be_the_run_s_own_are_dropped(text: str, reason: str) -> None:
    check = drop_build_stamps({"p": [date(text)]}, RUN)
    assert check.accepted == {}
    assert check.dropped == {reason: 1}


@pytest.mark.parametrize("text", ["2025-06-01T11:49:59Z", "2025-05-30", "2001-09-09T01:46:40Z"])
def test_dates_before_the_run_s_minutes_are_kept(text: str) -> None:
    assert drop_build_stamps({"p": [date(text)]}, RUN).accepted == {"p": date(text)}


def test_a_page_keeps_its_first_candidate_that_is_no_stamp() -> None:
    pages = {"p": [date("2030-01-01"), date("2021-01-01"), date("2022-01-01")], "q": []}
    check = drop_build_stamps(pages, RUN)
    assert check.accepted == {"p": date("2021-01-01")}
    assert check.refused == {}
    assert check.dropped == {FUTURE: 1}


def test_a_page_that_keeps_no_date_says_why() -> None:
    pages = {"p": [date("2030-01-01"), date("2025-06-01")], "q": [date("2021-01-01")]}
    check = drop_build_stamps(pages, RUN)
    assert check.accepted == {"q": date("2021-01-01")}
    assert check.refused == {"p": (date("2030-01-01"), FUTURE)}
    assert check.dropped == {FUTURE: 1, RUN_TIME: 1}


def test_the_result_does_not_depend_on_the_order_of_pages() -> None:
    pages = {f"s{n}": [date("2024-02-02T02:02:02Z")] for n in range(7)} | spread(6)
    backwards = dict(reversed(pages.items()))
    assert dict(drop_build_stamps(pages, RUN).accepted) == dict(
        drop_build_stamps(backwards, RUN).accepted
    )


def test_a_page_counts_once_for_an_instant_it_declares_twice() -> None:
    stamp = date("2024-02-02T02:02:02Z")
    pages = {f"s{n}": [stamp, stamp, stamp] for n in range(4)} | spread(1)
    assert len(drop_build_stamps(pages, RUN).accepted) == 5  # 4 pages: fewer than 5


def test_real_mkdocs_sitemap_dated_the_build_s_day_is_dropped() -> None:
    # The real file lists 48 pages, all dated 2025-07-28 (its build's day); the fixture keeps 3.
    dates = urlset_dates((FIXTURES / "pymdown-mkdocs-sitemap.xml").read_bytes()).dates
    pages = {key: [value] for key, value in dates.items()}
    run = datetime(2025, 8, 1, tzinfo=UTC)
    assert drop_build_stamps(pages, run, min_pages=3).accepted == {}


def test_real_page_dates_are_kept() -> None:
    pages = {
        name: list(declared_dates((FIXTURES / name).read_bytes()))
        for name in ("hugegraph-docsy-blog.html", "geekdude-minimal-mistakes-post.html")
    }
    check = drop_build_stamps(pages, RUN)
    assert {name: value.w3c() for name, value in check.accepted.items()} == {
        "hugegraph-docsy-blog.html": "2022-03-21T10:55:33Z",
        "geekdude-minimal-mistakes-post.html": "2022-04-26T10:00:00Z",
    }


@pytest.mark.parametrize("text", ["9999-12-31T23:59:59Z", "9999-12-31T23:55:00+00:00"])
def test_a_date_at_the_calendar_s_end_is_in_the_future_and_raises_nothing(text: str) -> None:
    # The day after 9999-12-31 is no datetime: a date's span (36 hours past its midnight)
    # and a build's window (10 minutes past a time) once overflowed on such a date.
    pages = {f"s{n}": [date(text)] for n in range(6)} | spread(6)
    check = drop_build_stamps(pages, RUN)
    assert check.accepted == {page: dates[0] for page, dates in spread(6).items()}
    assert check.dropped == {FUTURE: 6}
    assert check.refused["s0"] == (date(text), FUTURE)


def test_a_publication_date_at_the_calendar_s_end_holds_nothing_back() -> None:
    from sitemill.lastmod.declared.checks import check_declared
    from sitemill.lastmod.declared.w3cdate import JSON_LD_PUBLISHED

    published = parse_declared("9999-12-31", JSON_LD_PUBLISHED)
    assert published is not None
    modified = date("2021-03-04T05:06:07Z")
    check = check_declared({"p": [published, modified]}, RUN)
    assert check.accepted == {"p": modified}
