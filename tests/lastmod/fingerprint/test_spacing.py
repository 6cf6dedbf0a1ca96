"""The white space a fingerprint leaves out (digest._SPACING): what its first spelling did."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint.digest import _BESIDE_UNSPACED, _SPACING, _UNSPACED, reduce_html

# The expression fingerprint versions 5 and 6 were written with (until issue 64): white space
# beside anything but a letter or a digit. digest._SPACING must leave out exactly what it does.
FIRST_SPELLING = re.compile(r"(?<![^\W_])\s+|\s+(?![^\W_])")
# White space of every kind, letters and digits of several scripts, the underscore (a word
# character that is no letter), punctuation, the reduction's marks and control characters.
PIECES = (
    *" \t\n\r\f\v\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000",
    *"aZé分かカ한ßИ1٣²½_",
    *"().,;:-–!?\"'/\u200b\x00\x01\x02\x03",
)
FIXTURES = Path(__file__).parent.parent / "fixtures"
# And the one of version 6 (digest._BESIDE_UNSPACED): white space beside Han and kana.
FIRST_BESIDE_UNSPACED = re.compile(rf"(?<=[{_UNSPACED}])\s+|\s+(?=[{_UNSPACED}])")


def both(text: str) -> tuple[str, str]:
    """What each spelling leaves of ``text``: _SPACING's, then _BESIDE_UNSPACED's of that."""
    old, new = FIRST_SPELLING.sub("", text), _SPACING.sub("", text)
    assert new == old
    return FIRST_BESIDE_UNSPACED.sub("", text), _BESIDE_UNSPACED.sub("", text)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_same_on_random_text(text: str) -> None:
    old, new = both(text)
    assert new == old


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_same_on_any_text(text: str) -> None:
    old, new = both(text)
    assert new == old


@pytest.mark.parametrize("shape", ["a {}", "{} a", "{}  a", "a {} b", "{}\t{}"])
def test_same_beside_every_character(shape: str) -> None:
    """Each code point (but surrogates) beside white space and beside letters, all in one text
    (each shape followed by a slash)."""
    points = (chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code < 0xE000)
    old, new = both("".join(shape.format(point, point) + "/" for point in points))
    assert new == old


@pytest.mark.parametrize("page", sorted(FIXTURES.glob("*.html")), ids=lambda page: page.name)
def test_same_on_real_pages(page: Path) -> None:
    """The text of real pages, as the fingerprint reduces it and as it is (raw markup)."""
    data = page.read_bytes()
    for main in (True, False):
        reduction = reduce_html(data, main=main, url="https://example.com/post/")
        assert FIRST_SPELLING.search(reduction)  # (there is white space to leave out)
        old, new = both(reduction)
        assert new == old
    old, new = both(data.decode("utf-8", "replace"))
    assert new == old
