"""W3C datetime formatting and parsing of lastmod values."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from sitemill.protocol import Precision, format_lastmod, format_priority, parse_lastmod


def test_format_lastmod() -> None:
    moment = datetime(2024, 5, 1, 23, 30, 5, tzinfo=timezone(timedelta(hours=-2)))
    assert format_lastmod(moment, Precision.DATETIME) == "2024-05-02T01:30:05+00:00"
    assert format_lastmod(moment, Precision.DATE) == "2024-05-02"
    assert format_lastmod(date(2024, 5, 1), Precision.DATETIME) == "2024-05-01"
    assert format_lastmod(datetime(2024, 5, 1, 1, 2, 3), Precision.DATETIME).endswith("+00:00")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01", "2024-05-01"),
        ("2024-05-01T10:00:00Z", "2024-05-01T10:00:00+00:00"),
        ("2024-05-01T10:00Z", "2024-05-01T10:00:00+00:00"),
        ("2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00+00:00"),
        ("2024-05-01T10:00:00.123456+00:00", "2024-05-01T10:00:00+00:00"),
        (" 2024-05-01T10:00:00+00:00 ", "2024-05-01T10:00:00+00:00"),
    ],
)
def test_parse_lastmod(text: str, expected: str) -> None:
    assert parse_lastmod(text, Precision.DATETIME) == expected


@pytest.mark.parametrize(
    "bad", ["yesterday", "2024-13-01", "2024-05", "2024-05-01 10:00", "1714557600"]
)
def test_parse_lastmod_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_lastmod(bad, Precision.DATETIME)


@pytest.mark.parametrize(
    ("value", "text"), [(0.0, "0.0"), (1, "1.0"), (0.85, "0.85"), (0.5, "0.5")]
)
def test_format_priority(value: float, text: str) -> None:
    assert format_priority(value) == text


def test_utc_is_utc() -> None:
    assert format_lastmod(datetime(2020, 1, 1, tzinfo=UTC), Precision.DATETIME) == (
        "2020-01-01T00:00:00+00:00"
    )
