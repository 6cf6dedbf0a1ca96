"""How a page may print a date: one grammar, for a commit's own stamps and for any date."""
# A date is its year, month and day numbers, in any order, with any separators (2024-03-09,
# 09.03.2024, 3/9/2024, 2024年3月9日, 2024. 3. 9.), or its month's English name (Mar 9, 2024,
# 9 March 2024); a time of day may follow it. history.stamps makes the forms of one known day
# (a commit's); history.datevalues finds any date a text holds and reads its value (a date is
# its value, not its spelling), with the same forms made of any year, month and day.

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from functools import lru_cache
from typing import Final

MONTHS: Final = (
    *("January", "February", "March", "April", "May", "June"),
    *("July", "August", "September", "October", "November", "December"),
)
# What stands between a date's numbers: a few signs, spaces or CJK characters (年, 月), no
# digit or Latin letter.
_SEP: Final = r"[^\dA-Za-z\n]{1,3}"
# A CJK unit after the last number (日, 일).
_UNIT: Final = r"[\u3000-\u9fff\uac00-\ud7af]?"


def time_of_day(named: bool = False) -> str:
    """A time of day's expression: hours and minutes, seconds, fractions, AM/PM, a zone;
    ``named``: its hours, minutes, seconds and AM/PM as the groups h, min, s and half."""
    hours, minutes, seconds, half = (
        ("(?P<h>", "(?P<min>", "(?P<s>", "(?P<half>") if named else ("(?:",) * 4
    )
    return (
        rf"{hours}\d{{1,2}})[:时時시]{minutes}\d{{2}})(?:[:分分]{seconds}\d{{2}}))?(?:\.\d+)?"
        rf"(?:\s?{half}[AaPp])\.?[Mm]\.?)?(?:\s?(?:Z|UTC|GMT|[+-]\d{{2}}:?\d{{2}}))?"
    )


# A time of day after a date, behind a "T" or a few signs or spaces.
_TIME: Final = rf"(?:(?:T|[^\dA-Za-z\n]{{1,3}}){time_of_day()})?"
# Any year, month number, day number and month name (for forms of any date: any_date_forms).
_ANY_YEAR: Final = r"[12]\d{3}"
_ANY_MONTH: Final = r"(?:0?[1-9]|1[0-2])"
_ANY_DAY: Final = r"(?:0?[1-9]|[12]\d|3[01])"
_ANY_NAME: Final = "|".join(rf"{name}|{name[:3]}\.?" for name in MONTHS)


def date_forms(year: str, month: str, number: str, spelled: str) -> list[str]:
    """The forms a page may print a date in (see above), each with an optional time after it,
    from the expressions of its ``year``, ``month`` number, day ``number`` and ``spelled``
    month name: the numeric orders year-month-day, day-month-year, month-day-year, then the
    spelled ones (Mar 9, 2024; 9 March 2024; 2024 March 9)."""
    numeric = [(year, month, number), (number, month, year), (month, number, year)]
    forms = [_SEP.join(order) for order in numeric]
    ordinal = rf"{number}(?:st|nd|rd|th)?"
    forms += [
        rf"{spelled}\s{ordinal},?\s{year}",
        rf"{ordinal}\s(?:of\s)?{spelled},?\s{year}",
        rf"{year}\s{spelled}\s{ordinal}",
    ]
    # A form that starts with a number may follow a letter (inline markup is no word boundary:
    # a render time in its own <span> after "< 1 s" reads "s2026-06-12 01:16:15"), as a date
    # may be followed by one; a month's name may not (it would be the end of a word).
    behind = {True: r"(?<![\dA-Za-z.])", False: r"(?<![\d.])"}
    return [rf"{behind[form.startswith(spelled)]}{form}{_UNIT}(?!\d){_TIME}" for form in forms]


def day_forms(day: date) -> set[str]:
    """The forms ``day`` may be printed in (date_forms)."""
    name = MONTHS[day.month - 1]
    spelled = rf"(?:{name}|{name[:3]}\.?)"
    return set(date_forms(str(day.year), f"0?{day.month}", f"0?{day.day}", spelled))


def any_date_forms() -> list[re.Pattern[str]]:
    """The forms of any date (date_forms), each with its year, month, day and month name as
    the groups y, m, d and name, in date_forms' order."""
    year, month, day = f"(?P<y>{_ANY_YEAR})", f"(?P<m>{_ANY_MONTH})", f"(?P<d>{_ANY_DAY})"
    forms = date_forms(year, month, day, f"(?P<name>{_ANY_NAME})")
    return [re.compile(form) for form in forms]


def any_date() -> re.Pattern[str]:
    """One expression that finds any date (date_forms), a time of day after it included."""
    forms = date_forms(_ANY_YEAR, _ANY_MONTH, _ANY_DAY, f"(?:{_ANY_NAME})")
    return re.compile(f"(?=[\\dJFMASOND])(?:{'|'.join(forms)})")  # (what a date starts with)


@lru_cache(maxsize=1)
def date_expressions() -> tuple[re.Pattern[str], list[re.Pattern[str]]]:
    """any_date and any_date_forms, compiled once in a process when a text first asks for them:
    tens of milliseconds (their CJK unit's ranges), which a run whose edits print no date, and
    the workers, never pay (history.datevalues reads a date's value with them, history.stamps
    whether it is a commit's day)."""
    return any_date(), any_date_forms()


def _month_number(name: str) -> int:
    """The number of the month an English name (whole or its first three letters) names; 0
    for none."""
    return next((n for n, month in enumerate(MONTHS, 1) if month[:3] == name[:3]), 0)


def read_days(found: str) -> Iterator[date]:
    """The days a date any_date found may be (each form that reads it whole as a real day:
    03/09/2024 is March 9 and September 3), in date_forms' order, read as they are asked for."""
    for form in date_expressions()[1]:
        parts = form.fullmatch(found)
        if parts is None:
            continue
        fields = parts.groupdict()
        month = int(fields["m"]) if fields.get("m") else _month_number(fields.get("name") or "")
        try:
            day = date(int(fields["y"]), month, int(fields["d"]))
        except ValueError:
            continue
        yield day
