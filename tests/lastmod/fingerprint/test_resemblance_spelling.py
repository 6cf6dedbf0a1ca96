"""The resemblance sketch is spelt for speed (lastmod.fingerprint.resemblance): it makes the
bytes of its plain spelling (below, as it was first written) on every text, and its white
space is str.split's."""

from __future__ import annotations

import base64
import random
import re
import sys
import zlib
from itertools import pairwise

import pytest

from sitemill.lastmod.fingerprint import resemblance
from sitemill.lastmod.fingerprint._whitespace import UNSPACED
from sitemill.lastmod.fingerprint.resemblance import BINS, MIN_PAIRS, VERSION, sketch_text

_SHIFT = 32 - 6
_LOW = (1 << _SHIFT) - 1
_EMPTY = 1 << _SHIFT


def plain_sketch(text: str) -> str | None:
    """The sketch as first written: a set of word pairs, each hashed once (a mark bounds a
    word, each Han or kana character is one)."""
    folded = re.sub(f"[{UNSPACED}]", r" \g<0> ", text.casefold().replace("\x01", " "))
    words = folded.split()
    pairs = {a + " " + b for a, b in pairwise(words)}
    if len(pairs) < MIN_PAIRS:
        return None
    smallest = [_EMPTY] * BINS
    for hashed in map(zlib.crc32, (pair.encode("utf-8", "surrogatepass") for pair in pairs)):
        place, low = hashed >> _SHIFT, hashed & _LOW
        if low < smallest[place]:
            smallest[place] = low
    kept = [0] * BINS
    for place in range(BINS):
        for step in range(BINS):
            found = smallest[(place + step) % BINS]
            if found != _EMPTY:
                kept[place] = (found + 131 * step) & 0xFF
                break
    return VERSION + base64.urlsafe_b64encode(bytes(kept)).decode("ascii").rstrip("=")


SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
PIECES = [
    *SPACES,
    *"aAbB01.,\x01\x00",
    "ß",  # (casefolds to "ss")
    "İ",  # (casefolds to two code points)
    "ǅ",
    "中文",
    "ひらがなカタカナ",
    "한국어",
    "é",
    "\ud800",  # lone surrogates: kept as themselves
    "\udc00",
    "🙂",
    "word",
    "Word",
]


def test_the_wide_space_is_str_splits_beyond_ascii() -> None:
    # Every code point: bytes.split's white space is ASCII's space, tab, LF, CR, VT and FF.
    ascii_space = set(" \t\n\r\x0b\x0c")
    wide = "".join(map(chr, range(sys.maxunicode + 1)))
    found = set(resemblance._WIDE_SPACE.findall(wide))
    assert found == set(SPACES) - ascii_space
    assert ascii_space <= set(SPACES)


@pytest.mark.parametrize("seed", range(40))
def test_random_texts_have_the_plain_spellings_sketch(seed: int) -> None:
    chooser = random.Random(seed)
    words = [chooser.choice(PIECES) for _ in range(chooser.randint(0, 1_500))]
    text = "".join(words)
    assert sketch_text(text) == plain_sketch(text)


@pytest.mark.parametrize("count", [0, 1, 2, MIN_PAIRS - 1, MIN_PAIRS, MIN_PAIRS + 1, 40, 3_000])
@pytest.mark.parametrize("repeats", [1, 2, 30])
def test_few_or_repeated_pairs_have_the_plain_spellings_sketch(count: int, repeats: int) -> None:
    # Pairs seen again (a text said twice) are counted once; too few distinct ones: none.
    words = [f"w{n}" for n in range(count)] * repeats
    for separator in (" ", "\u3000", "\x1c", "\n\t "):
        text = separator.join(words)
        assert sketch_text(text) == plain_sketch(text)


def test_texts_that_leave_bins_empty_have_the_plain_spellings_sketch() -> None:
    for size in range(MIN_PAIRS, 130):
        text = " ".join(f"x{n}" for n in range(size + 1))
        assert sketch_text(text) == plain_sketch(text)
