"""A declared date's text read into an aware UTC instant and its precision; garbage refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sitemill.lastmod.declared.w3cdate import (
    JSON_LD,
    DeclaredDate,
    DeclaredPrecision,
    parse_declared,
)

DAY, TIME = DeclaredPrecision.DAY, DeclaredPrecision.TIME


@pytest.mark.parametrize(
    ("text", "when", "precision"),
    [
        ("2022-04-26", datetime(2022, 4, 26, tzinfo=UTC), DAY),
        (" 2022-04-26\n", datetime(2022, 4, 26, tzinfo=UTC), DAY),
        ("2022-03-21T18:55:33+08:00", datetime(2022, 3, 21, 10, 55, 33, tzinfo=UTC), TIME),
        ("2022-04-26T06:00:00-04:00", datetime(2022, 4, 26, 10, tzinfo=UTC), TIME),
        ("2024-01-02T03:04Z", datetime(2024, 1, 2, 3, 4, tzinfo=UTC), TIME),
        ("2024-01-02T03:04:05.5Z", datetime(2024, 1, 2, 3, 4, 5, 500000, tzinfo=UTC), TIME),
        ("2024-01-02T03:04:05.123456789Z", datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=UTC), TIME),
        ("2024-01-02 03:04:05 +0100", datetime(2024, 1, 2, 2, 4, 5, tzinfo=UTC), TIME),
        ("2024-01-02T03:04:05+01", datetime(2024, 1, 2, 2, 4, 5, tzinfo=UTC), TIME),
        # A time without an offset is no instant: its date only.
        ("2024-01-02T23:30:00", datetime(2024, 1, 2, tzinfo=UTC), DAY),
    ],
)
def test_w3c_forms_read_into_utc(text: str, when: datetime, precision: DeclaredPrecision) -> None:
    assert parse_declared(text, JSON_LD) == DeclaredDate(when, precision, JSON_LD)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2024",  # a year or a month says too little
        "2024-05",
        "2024-02-30",
        "2024-13-01",
        "2024-01-02T25:00:00Z",
        "2024-01-02T10:61:00Z",
        "2024-01-02T10:00:00+15:00",
        "2024-01-02T10:00:00+01:75",
        "0001-01-01T00:00:00Z",  # before the web: a default, not a date
        "1970-01-01T00:00:00Z",
        "2024-01-02T03:04:05Zjunk",
        "2024-01-02T03:04:05" + "0" * 100,
        "9" * 10_000,
        "July 10, 2023",
        "2024-01-02T03:04:05Z\u0000",
        "２０２４-01-02",  # not ASCII digits
    ],
)
def test_garbage_is_refused(text: str) -> None:
    assert parse_declared(text, JSON_LD) is None


def test_a_date_may_mean_any_instant_of_its_day_anywhere() -> None:
    date = parse_declared("2024-01-02", JSON_LD)
    assert date is not None
    assert date.earliest() == datetime(2024, 1, 1, 10, tzinfo=UTC)  # its start at UTC+14
    assert date.latest() == datetime(2024, 1, 3, 12, tzinfo=UTC)  # its end at UTC-12
    assert date.w3c() == "2024-01-02"
    instant = parse_declared("2024-01-02T03:04:05+01:00", JSON_LD)
    assert instant is not None
    assert instant.earliest() == instant.latest() == instant.when
    assert instant.w3c() == "2024-01-02T02:04:05Z"
