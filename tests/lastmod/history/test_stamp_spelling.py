"""A commit's stamps' expression (history.stamps): what its first spelling found (issue 64's
third session)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.lastmod.history._dateforms import day_forms
from sitemill.lastmod.history.stamps import CommitFacts, commit_stamps_of, stamp_pattern
from stampedit import is_stamp_edit

SHA = "47bff05a4d2f071e1163c02c98d7d39739d82167"
LETTERED = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"  # (a hash that starts with a letter)


def first_pattern(commits: Iterable[CommitFacts]) -> re.Pattern[str] | None:
    """stamp_pattern as it was spelt until issue 64's third session: the alternation alone."""
    forms: set[str] = set()
    for facts in commits:
        for seconds, offset in facts.times:
            for zone in {timezone(timedelta(seconds=offset)), UTC}:
                forms |= day_forms(datetime.fromtimestamp(seconds, zone).date())
        forms.update(re.escape(name) for name in facts.names)
        if facts.sha:
            lengths = range(len(facts.sha), 6, -1)
            hashes = "|".join(facts.sha[:n] for n in lengths)
            forms.add(r"(?<![0-9a-fA-F])(?:" + hashes + r")(?![0-9a-fA-F])")
    if not forms:
        return None
    return re.compile("|".join(sorted(forms, key=len, reverse=True)))


# Pieces of a page that a stamp's expression reads: digits, date signs, CJK units, month
# names and their first letters, the names' and the hash's pieces, letters, white space.
PIECES = (
    *"0123456789-/.,: \n\tT年月日일AaPpMmZ+x",
    *("2024", "2023", "03", "3", "09", "9", "11", "02", "Mar", "March", "Nov", "November"),
    *("Bo Chen", "Bo", "Chen", "47bff05", SHA[:12], SHA, "a4d2f0", "b", "th", "of", "UTC"),
    *("10:00", "23:30", "22:30:05", "PM", "\x00", "é", "分"),
)
TEXTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
ZONES = st.sampled_from([0, 3600, -18000, 19800, 32400, -43200, 50400])
# Times around the stamps' own (2024-03-09 and 2023-11-02) and anywhere from 1970 to 2100.
TIMES = st.one_of(
    st.sampled_from([1710027000, 1698919200, 1710000000, 1698800000]),
    st.integers(min_value=0, max_value=4102444800),
)
NAMES = st.lists(st.sampled_from(["Bo Chen", "adi1090x", "Ü. Nur", "[bot]", "a.b", "9lives"]))
FACTS = st.builds(
    lambda sha, times, names: CommitFacts(sha, times, tuple(names)),
    st.sampled_from(["", SHA, "0123456789abcdef0123456789abcdef01234567"]),
    st.lists(st.tuples(TIMES, ZONES), min_size=0, max_size=2).map(tuple),
    NAMES,
)


def both(commits: list[CommitFacts]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    return first_pattern(commits), stamp_pattern(commits)


@settings(max_examples=300, deadline=None)
@given(st.lists(FACTS, min_size=1, max_size=2), st.lists(TEXTS, min_size=1, max_size=5))
def test_the_stamps_expression_finds_what_the_first_did(
    commits: list[CommitFacts], texts: list[str]
) -> None:
    old, new = both(commits)
    assert (old is None) == (new is None)
    if old is None or new is None:
        return
    day = datetime.fromtimestamp(commits[0].times[0][0], UTC).date() if commits[0].times else None
    shown = [] if day is None else [str(day), f"{day:%b} {day.day}, {day.year}", f"{day:%d.%m.%Y}"]
    for text in [*texts, " ".join((*texts, *shown)), "".join(shown) + texts[0]]:
        assert new.sub("\x00", text) == old.sub("\x00", text), text
        assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(FACTS, FACTS, TEXTS, TEXTS, TEXTS, TEXTS)
def test_a_stamp_edit_is_what_it_was(
    newer_facts: CommitFacts, older_facts: CommitFacts, head: str, one: str, two: str, tail: str
) -> None:
    old_new, new_new = both([newer_facts])
    old_old, new_old = both([older_facts])
    if old_old is None or new_old is None:
        return
    filler = "x" * 200  # (beyond _differing's context)
    for newer, older in ((head + one + tail, head + two + tail), (filler + one, filler + two)):
        first = is_stamp_edit(newer, older, old_new, old_old)
        assert is_stamp_edit(newer, older, new_new, new_old) == first


def test_every_form_of_every_month_is_found_as_it_was() -> None:
    """A stamp of each month in each form, the names' and the hash's, beside letters, digits
    and signs: the expression finds each where the first one did."""
    for month in range(1, 13):
        when = int(datetime(2024, month, 9, 23, 30, tzinfo=UTC).timestamp())
        commits = [
            CommitFacts(SHA, ((when, 3600), (when - 86400, -18000)), ("Ü. Nur", "[bot]")),
            CommitFacts(LETTERED, ((when, 0),), ()),
        ]
        old, new = both(commits)
        assert old is not None and new is not None
        day = datetime(2024, month, 9, tzinfo=UTC)
        shown = [f"{day:%B} 9th, 2024", f"{day:%b}. 9, 2024 23:30", f"9 of {day:%B} 2024"]
        shown += [f"2024 {day:%b} 9", f"2024年{month}月9日", f"10/{month:02}/2024", "Ü. Nur"]
        shown += ["[bot]", SHA[:9], LETTERED[:8], f"x{SHA[:9]}", f"a{day:%B} 9, 2024"]
        shown.append(f"{day:%b}a 9, 2024")
        for text in (" ".join(shown), "".join(shown), "\n".join(shown)):
            assert new.sub("\x00", text) == old.sub("\x00", text)
        assert new.sub("\x00", " ".join(shown)).count("\x00") >= 8  # (most forms are stamps)


# A zero before a two-digit number: no page prints a day or month so (2024-010-020).
PADDED = re.compile(r"(?<!\d)0(?:1\d|2\d|3[01])(?!\d)")


def widest(commits: list[CommitFacts]) -> list[CommitFacts]:
    """``commits`` with a time at noon UTC on each day a history's stamps read them in
    (commit_stamps_of: any zone), so that stamp_pattern's one expression holds those days."""
    stamps = commit_stamps_of(commits)
    days = () if stamps is None else sorted(stamps.days)
    noons = tuple(
        (int(datetime(d.year, d.month, d.day, 12, tzinfo=UTC).timestamp()), 0) for d in days
    )
    return [CommitFacts(facts.sha, noons, facts.names) for facts in commits]


@settings(max_examples=600, deadline=None)
@given(st.lists(FACTS, min_size=1, max_size=2), st.lists(TEXTS, min_size=1, max_size=5))
def test_a_historys_stamps_found_by_value_are_those_its_expression_finds(
    commits: list[CommitFacts], texts: list[str]
) -> None:
    # Issue 79: a history's stamps are found by one expression of any date, compiled once, a
    # date being a stamp when its value is one of the commit's days (stamps.Stamps), where each
    # commit's expression of its days' forms was compiled (stamp_pattern): the same places.
    found, expression = commit_stamps_of(commits), stamp_pattern(widest(commits))
    assert (found is None) == (expression is None)
    if found is None or expression is None:
        return
    days = sorted(found.days)[:2]
    shown = [
        f"{d:%Y-%m-%d} {d:%b} {d.day}, {d.year} {d:%d.%m.%Y} {d.year}年{d.month}月" for d in days
    ]
    for text in [*texts, " ".join((*texts, *shown)), "".join(shown) + texts[0]]:
        if PADDED.search(text):
            continue  # (a day's forms read "020" as the 20th; a date's value reads none)
        assert found.sub("\x00", text) == expression.sub("\x00", text), text
