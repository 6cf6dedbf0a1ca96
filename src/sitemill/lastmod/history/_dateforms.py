"""How a page may print a date: one grammar, for a commit's own stamps and for any date."""
# A date is its year, month and day numbers, in any order, with any separators (2024-03-09,
# 09.03.2024, 3/9/2024, 2024年3月9日, 2024. 3. 9.), or its month's name, English or as a CJK
# locale writes it in Han numerals (Mar 9, 2024, 9 March 2024, 19 十月 2013: glibc's and
# CLDR's zh months; ja and ko write a month's number, 10月, 10월); a time of day may follow it.
# history.stamps makes the forms of one known day (a commit's); history.datevalues finds any date
# a text holds and reads its value (a date is its value, not its spelling), with the same forms
# made of any year, month and day, and a weekday beside it (weekday_beside) as part of its
# spelling.

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
# A month's name in Han numerals (一月 … 十二月), not the end of a longer one (十一月 holds 一月).
_NUMERALS: Final = "一二三四五六七八九十"
_HAN_MONTH: Final = rf"(?<![〇{_NUMERALS}])(?:十[一二]?|[{_NUMERALS[:9]}])月"
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


# A weekday beside a date is part of its spelling (Sat 19 October 2013, 六 19 十月 2013,
# 2013年10月19日 星期六, 2013년 10월 19일 (토)): its English name, whole or cut (Sat, Tues.), or
# as a zh, ja or ko locale writes it (glibc's and CLDR's: 六, 周六, 週六, 星期六, 土, 土曜日, 토,
# 토요일), before the date or after it, and only where it is that date's weekday (weekday_of).
_WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ZH_DAYS: Final = "一二三四五六日"
_JA_DAYS: Final = "月火水木金土日"
_KO_DAYS: Final = "월화수목금토일"
_WEEKDAY: Final = (
    rf"(?:{'|'.join(_WEEKDAYS)}|Tues|Thurs?|{'|'.join(day[:3] for day in _WEEKDAYS)})\.?"
    rf"|(?:星期|礼拜|禮拜|周|週)[{_ZH_DAYS}天]|[{_JA_DAYS}](?:曜日|曜)?|[{_ZH_DAYS}]"
    rf"|[{_KO_DAYS}](?:요일)?"
)
# (no letter beside it, a digit may be: 星期六2013年; a few signs and spaces before the date)
_WEEKDAY_BEFORE: Final = re.compile(rf"(?<![^\W\d_])(?P<day>{_WEEKDAY})[,，、]?\s*\Z")
_WEEKDAY_AFTER: Final = re.compile(rf"\s*[,，、]?\s*[(（]?(?P<day>{_WEEKDAY})[)）]?(?![^\W\d_])")
# Characters before a date a weekday and its signs may take (星期六, , Wednesday, ).
_BEFORE_LONGEST: Final = 12
# A time of day after a date, behind a "T" or a few signs or spaces.
_TIME: Final = rf"(?:(?:T|[^\dA-Za-z\n]{{1,3}}){time_of_day()})?"
# Any year, month number, day number and month name (for forms of any date: any_date_forms).
_ANY_YEAR: Final = r"[12]\d{3}"
_ANY_MONTH: Final = r"(?:0?[1-9]|1[0-2])"
_ANY_DAY: Final = r"(?:0?[1-9]|[12]\d|3[01])"
_ANY_NAME: Final = "|".join([*(rf"{name}|{name[:3]}\.?" for name in MONTHS), _HAN_MONTH])


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
    spelled = rf"(?:{name}|{name[:3]}\.?|(?<![〇{_NUMERALS}]){_han_month(day.month)})"
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
    starts = f"[\\dJFMASOND{_NUMERALS}]"  # (what a date starts with)
    return re.compile(f"(?={starts})(?:{'|'.join(forms)})")


@lru_cache(maxsize=1)
def date_expressions() -> tuple[re.Pattern[str], list[re.Pattern[str]]]:
    """any_date and any_date_forms, compiled once in a process when a text first asks for them:
    tens of milliseconds (their CJK unit's ranges), which a run whose edits print no date, and
    the workers, never pay (history.datevalues reads a date's value with them, history.stamps
    whether it is a commit's day)."""
    return any_date(), any_date_forms()


def _han_month(number: int) -> str:
    """A month's name in Han numerals (十一月 for 11)."""
    tens, units = divmod(number, 10)
    return ("十" if tens else "") + (_NUMERALS[units - 1] if units else "") + "月"


def _month_number(name: str) -> int:
    """The number of the month a name (English, whole or its first three letters, or in Han
    numerals) names; 0 for none."""
    if name.endswith("月"):
        return next((n for n in range(1, 13) if _han_month(n) == name), 0)
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


def weekday_beside(text: str, span: tuple[int, int], floor: int) -> tuple[int, int, int, int]:
    """The weekdays (see above) before and after the date at ``span`` of ``text``, each as its
    number (Monday 0; -1 for none) and where it starts or ends: (the one before's number, its
    start or ``span[0]``, the one after's number, its end or ``span[1]``). The one before
    starts no sooner than ``floor`` (the end of the text's date before)."""
    start, end = span
    before = _WEEKDAY_BEFORE.search(text, max(floor, start - _BEFORE_LONGEST), start)
    after = _WEEKDAY_AFTER.match(text, end)
    return (
        -1 if before is None else weekday_of(before["day"]),
        start if before is None else before.start(),
        -1 if after is None else weekday_of(after["day"]),
        end if after is None else after.end(),
    )


def weekday_of(name: str) -> int:
    """The number (Monday 0) of the weekday a name _WEEKDAY found names."""
    if name[0] in _KO_DAYS:
        return _KO_DAYS.index(name[0])
    last = name.rstrip(".")[-1] if name[0] in "星礼禮周週" else name[0]
    if last in _ZH_DAYS[:6] or last == "天":
        return 6 if last == "天" else _ZH_DAYS.index(last)
    if last in _JA_DAYS:
        return _JA_DAYS.index(last)
    return next(n for n, day in enumerate(_WEEKDAYS) if day[:2] == name[:2])
