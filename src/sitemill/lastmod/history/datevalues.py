"""A date in an edit is its value, not its spelling; dates and numbers added are named by kind."""
# Naming an edit (history.edits) for the template census (history.templateedits): a theme or a
# generator that prints each page's own date on most pages of one commit ("Mar 22, 2018" under
# one page, "Jun 23, 2020" under the next), or re-spells it (Jan 23, 2018 made 2018年1月23日,
# 10:14 PM made 22:14), or a reading time ("13 min read"), made one edit on each of them, not as
# many edits as there are dates. So, in the text's words and the title's:
#
# - each date (any form history.dateforms reads: any order, separators, a CJK unit, an English
#   month name, a time of day after it) and each time of day alone is read as its value: the
#   day (a time after a date is part of its spelling), or the time's hours, minutes and seconds
#   on a 24-hour clock. A date re-spelled to the same day is no edit at all: an edit of
#   nothing else is named RESPELLED, one name on every page, which the census judges as any
#   edit (it changed words a reader sees: a list page whose teasers' dates were re-spelled on
#   fewer than half of the pages its commit changed is dated by it);
# - in an edit's name, each date it put in or took out is named "a date": a page's own date added
#   beside its text, or taken out, or replaced by another, is the theme's edit on every page
#   that made it, and the census judges it as any edit (on one page, or on fewer than half of
#   the pages its commit changed, a post re-dated is that page's own). A number ("13", "4.5")
#   put in, when the edit took out none, or taken out, when it put in none, is named "a
#   number" (a reading time added); a number replaced by another (a data page's figures
#   updated) keeps its value: it is that page's own edit, whatever the census.
#
# This names edits only: a page's fingerprint (what it hashes to) reads its dates as it did.

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Final

from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE, TITLE_END
from sitemill.lastmod.history._dateforms import (
    date_expressions,
    read_days,
    time_of_day,
    weekday_beside,
)
from sitemill.lastmod.history._respacing import unspaced

# The name of an edit that only re-spelled dates (history.edits.edit_of): of the kind that
# changed the text's words (its first digit 0 to 3), apart from every other name.
RESPELLED: Final = "1" + "0" * 31
VALUE_MARK: Final = "\x00"  # (starts a word read as a value: it stands in no reduction's text)
_YEAR: Final = re.compile(r"[12]\d{3}")  # (every date's form holds one: history.dateforms)
_TIME: Final = re.compile(rf"(?<![\d:.]){time_of_day(named=True)}(?![\d:])")
_NUMBER: Final = re.compile(r"\(?[+-]?\d+(?:[.,]\d+)*%?\)?[,.;:]?")
_HELD: Final = 8
# The text parts of the last reduction valued, and their values (_marked_parts).
_LAST_PARTS: Final[list[dict[str, str]]] = [{}]


def mark_date_values(text: str) -> str:
    """``text`` with each date and each time of day alone (see above) read as one word: VALUE_MARK
    and its value, spaces around it."""
    if _YEAR.search(text):
        text = _valued_dates(text)
    if ":" in text or "时" in text or "時" in text or "시" in text:
        text = _TIME.sub(_time_value, text)
    return text


@lru_cache(maxsize=_HELD)
def mark_reduction_dates(reduction: str) -> str:
    """A reduction (fingerprint.reduction) with its title's and its text's dates valued; its
    marks (targets, descriptions) as they are. The last few are held: an edit's two versions
    are read for each of its names (history.stopedits)."""
    title, marked, rest = reduction.partition(TITLE_END)
    if not marked:
        title, rest = "", reduction
    parts = rest.split(MARK_EDGE)
    parts[::2] = _marked_parts(parts[::2])
    return mark_date_values(title) + marked + MARK_EDGE.join(parts)


def _marked_parts(parts: list[str]) -> list[str]:
    """Each of ``parts`` valued, a part that the last reduction read held too (_LAST_PARTS:
    the newer version of a stop and the older share most of their text, and the same page's
    next stop the older's) taken from it, not read again (hugegraph: 3.6x faster over 8
    versions of a 238 KB page). What is held is one reduction's text parts, no more."""
    last, held = _LAST_PARTS[0], {}
    for part in parts:
        if part not in held:
            found = last.get(part)
            held[part] = mark_date_values(part) if found is None else found
    _LAST_PARTS[0] = held
    return [held[part] for part in parts]


def is_respelled(newer: str, older: str) -> bool:
    """Whether reduction ``older`` became ``newer`` by re-spelling dates or times of day to the
    same values alone (white space around them as it falls)."""
    if newer == older:
        return False
    new, old = mark_reduction_dates(newer), mark_reduction_dates(older)
    return new != newer and unspaced(new) == unspaced(old)


def named_by_kind(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """An edit's ``removed`` and ``added`` tokens (history.edits: "w" or "t" and a word) with
    their dates named by their kind, and the numbers of a side too when the other side has
    none (see above)."""
    removed, added = _kinds(removed, _is_value, "date"), _kinds(added, _is_value, "date")
    if any(map(_is_number, removed)) != any(map(_is_number, added)):
        removed, added = _kinds(removed, _is_number, "number"), _kinds(added, _is_number, "number")
    return removed, added


def _kinds(tokens: Iterable[str], of_kind: Callable[[str], bool], kind: str) -> list[str]:
    """``tokens`` with those ``of_kind`` named by ``kind`` alone."""
    return sorted({token[:1] + VALUE_MARK + kind if of_kind(token) else token for token in tokens})


def _is_value(token: str) -> bool:
    return token[:1] in "wt" and token[1:2] == VALUE_MARK and token[2:3].isdigit()


def _is_number(token: str) -> bool:
    return token[:1] in "wt" and _NUMBER.fullmatch(token, 1) is not None


def _valued_dates(text: str) -> str:
    """``text`` with each date any_date finds read as its value (its day: the first form that
    reads a real day in it), a weekday beside it that is that day's (dateforms.weekday_beside)
    read with it; a date no form reads a real day in as it stands."""
    pieces, done = [], 0
    for found in date_expressions()[0].finditer(text):
        days = read_days(found[0])
        first = next(days, None)
        if first is None or found.start() < done:  # (a date within a weekday read before)
            continue
        before, start, after, end = weekday_beside(text, found.span(), done)
        weekdays = {before, after} - {-1}
        day = first
        if weekdays and first.weekday() not in weekdays:  # (03/09/2024 Sat: March 9)
            day = next((other for other in days if other.weekday() in weekdays), first)
        start = start if before == day.weekday() else found.start()
        end = end if after == day.weekday() else found.end()
        pieces += [text[done:start], f" {VALUE_MARK}{day.isoformat()} "]
        done = end
    return "".join(pieces) + text[done:] if pieces else text


def _time_value(found: re.Match[str]) -> str:
    """The value of a time of day _TIME found (24-hour), or it as it stands if it is none."""
    hours, minutes, seconds = int(found["h"]), int(found["min"]), found["s"]
    half = (found["half"] or "").lower()
    if half and not 1 <= hours <= 12:
        return found[0]
    hours = hours % 12 + (12 if half == "p" else 0) if half else hours
    if hours > 23 or minutes > 59 or (seconds is not None and int(seconds) > 59):
        return found[0]
    return f" {VALUE_MARK}{hours:02}:{minutes:02}{'' if seconds is None else ':' + seconds} "
