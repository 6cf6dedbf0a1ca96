"""A text's letters (fingerprint.excerpts.letters) and their count (count_letters): an ASCII text's
read by one translate, the same letters as the pattern's (issue 79's cost)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint import excerpts

_PATTERN = re.compile(r"[\W_]+")
_TEXT = st.text(st.sampled_from([*map(chr, range(128)), "é", "ß", "İ", "中", "\u00a0", "Ⅻ"]))


def _by_pattern(text: str) -> str:
    if excerpts.MARK_EDGE in text:
        text = excerpts._MARKS.sub(" ", text)
    return _PATTERN.sub("", text.casefold())


@given(_TEXT)
def test_letters_are_the_patterns(text: str) -> None:
    assert excerpts.letters(text) == _by_pattern(text)
    plain = text.replace(excerpts.MARK_EDGE, " ")
    assert excerpts.count_letters(plain) == len(_PATTERN.sub("", plain))


class _Counted:
    """A compiled pattern whose sub calls are counted."""

    def __init__(self, pattern: re.Pattern[str], calls: list[int]) -> None:
        self.pattern, self.calls = pattern, calls

    def sub(self, *args: object) -> str:
        self.calls.append(1)
        return self.pattern.sub(*args)  # type: ignore[call-overload, no-any-return]


def test_an_ascii_text_is_read_without_the_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(excerpts, "_NOT_LETTERS", _Counted(excerpts._NOT_LETTERS, calls))
    text = "The page's own words, read_as letters: 12 of them!" * 200
    assert excerpts.letters(text).startswith("thepagesownwordsreadasletters12ofthem")
    assert excerpts.count_letters(text) == 37 * 200
    assert calls == []
    assert excerpts.letters("Ünïcode") == "ünïcode" and calls == [1]
