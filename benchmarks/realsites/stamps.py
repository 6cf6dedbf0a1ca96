"""Stamps: what a commit knows of itself, as a page prints it (the oracle's version 6).

The dates issue's principle: a date or time in a page equal to its commit's (a built site's
commit is its deploy), in any format, language or label, or none, is no content, wherever it
stands ("This book was built by CI on 2026-01-19.": bookdown). A careful reader compares two
versions of a page with each version's own commit date taken out of it. The date is the
commit time's calendar day in any time zone (the log gives the instant, not the zone: two days
or three), written as years, months and days in any order and separators, or with the month's
English name, a time of day after it taken with it (or, as C's asctime writes it, between the
day and the year). lxml-free, the standard library only.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import selfdates

# The earliest and latest zones: the calendar days an instant falls on somewhere.
ZONES = (timedelta(hours=-12), timedelta(hours=14))
MONTHS = (
    *("january", "february", "march", "april", "may", "june"),
    *("july", "august", "september", "october", "november", "december"),
)
SEP = r"[-/.\s]\s*"
TIME = r"\d{1,2}:\d{2}(?::\d{2})?"
CLOCK = r"(?:(?:T|\s*|\s+at\s+)\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:\s*[ap]\.?m\.?)?)?"
PLACEHOLDER = "\0stamp\0"
_made: dict[int, re.Pattern[str]] = {}


def days(time: int) -> list[tuple[int, int, int]]:
    """The calendar days (year, month, day) the instant ``time`` falls on in some zone."""
    moment = datetime.fromtimestamp(time, UTC)
    first, last = ((moment + zone).date() for zone in ZONES)
    count = (last - first).days + 1
    return [(d.year, d.month, d.day) for d in (first + timedelta(days=n) for n in range(count))]


def pattern(time: int) -> re.Pattern[str]:
    """One regular expression for the commit's date, each way a page may write it."""
    if time not in _made:
        ways = []
        for year, month, day in days(time):
            m, d = rf"0?{month}", rf"0?{day}"
            name = MONTHS[month - 1]
            short = rf"{name[:3]}(?:{name[3:]})?\.?"
            ways += [
                rf"{year}{SEP}{m}{SEP}{d}",
                rf"{d}{SEP}{m}{SEP}{year}",
                rf"{m}{SEP}{d}{SEP}{year}",
                rf"{year}\s*年\s*{m}\s*月\s*{d}\s*日",
                rf"{short}\s*{d}(?:st|nd|rd|th)?,?\s*{year}",
                rf"{d}(?:st|nd|rd|th)?\.?\s*{short},?\s*{year}",
                # C's asctime, as Ruby's Time#to_s and YARD's footer write it: the time of
                # day between the day and the year ("Thu Aug 30 11:17:25 2018").
                rf"{short}\s*{d}\s*{TIME}\s*{year}",
            ]
        either = "|".join(ways)
        _made[time] = re.compile(
            rf"(?<!\d){selfdates.WEEKDAY}(?:{either}){CLOCK}(?!\d)", re.IGNORECASE
        )
    return _made[time]


def unstamped(text: str, time: int) -> str:
    """``text`` with each date of the commit at ``time`` made one placeholder."""
    return pattern(time).sub(PLACEHOLDER, text)


def beside(
    swaps: frozenset[tuple[str, str]], old: tuple[str, int], new: tuple[str, int]
) -> frozenset[tuple[str, str]]:
    """The ``swaps`` (a word, the word that replaced it) that stand outside the stamps of
    ``old`` and ``new`` (each a text and its commit's time): a stamp's own parts, swapped alike
    on every page ("Jun" made "Aug", "15" made "30"), are the stamp's, and replaced inside other
    words of the text ("141516", a listing's line numbers) they would make it another text."""
    before = "\0".join(found[0] for found in pattern(old[1]).finditer(old[0]))
    after = "\0".join(found[0] for found in pattern(new[1]).finditer(new[0]))
    return frozenset((word, put) for word, put in swaps if word not in before and put not in after)
