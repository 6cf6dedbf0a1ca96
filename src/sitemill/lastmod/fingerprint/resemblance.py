"""A page's resemblance sketch: how much of its text two pages share, from 86 characters each."""
# The content fingerprint says whether a page is the same; the sketch says how nearly, so that a
# page moved to a new URL and edited a little on the way is still found (sitemill diff: a removed
# URL whose content a new page holds is "renamed"). It is a one-permutation MinHash (Li, Owen and
# Zhang, "One Permutation Hashing", NIPS 2012) of the word pairs of the page's reduction (what the
# fingerprint hashes: what a reader sees): each pair's CRC-32 falls in one of BINS bins by its top
# bits, each bin keeps the low byte of its smallest hash, and an empty bin borrows the next full
# one's (rotation densification, Shrivastava and Li, ICML 2014). The share of equal bytes of two
# sketches estimates the Jaccard resemblance of their pairs; a byte kept is 8 bits, so unrelated
# bins agree 1 time in 256, which the estimate takes out. Deterministic (no salted hash), and it
# names no text: a state beside the sitemaps may hold it. A word is what white space or one of the
# reduction's marks bounds, and each character of a script written without spaces (Han, kana) is
# a word of its own, so that a pair of them reads as a pair of words does (else a Chinese page is
# a few long "words" and one changed character hides a move).

from __future__ import annotations

import base64
import re
import zlib
from itertools import pairwise
from typing import Final, TypeGuard

from sitemill.lastmod.fingerprint._whitespace import UNSPACED

BINS: Final = 64
_SHIFT: Final = 32 - 6  # the top 6 bits of a pair's hash name its bin (2 ** 6 == BINS)
_LOW: Final = (1 << _SHIFT) - 1
_CHANCE: Final = 1 / 256  # two unrelated bins keep the same byte
MIN_PAIRS: Final = 20  # fewer word pairs than this: too little text to tell a near copy (a stub)
VERSION: Final = "1"  # the sketch's first character: how it was made
SKETCH_LENGTH: Final = 1 + 86  # the version, then BINS bytes in URL-safe base64 without padding
_EMPTY: Final = 1 << _SHIFT
_NONE: Final = 1 << 32  # a bin no pair's hash fell in (above every CRC-32)
# The white space str.split takes beyond bytes.split's (str.isspace beyond ASCII's space, tab, CR,
# LF, VT, FF: tests/lastmod/fingerprint/test_resemblance_spelling.py asks every code point): made a
# space, the words of the text's UTF-8 are the UTF-8 of its words (no UTF-8 sequence holds an
# ASCII byte).
_WIDE_SPACE: Final = re.compile(
    "[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
_MARK: Final = "\x01"  # (fingerprint.targetmarks.MARK_EDGE: around a mark's kind and value)
_UNSPACED_CHARACTER: Final = re.compile(f"[{UNSPACED}]")


def sketch_text(text: str) -> str | None:
    """The sketch of a reduction's text; None when it holds fewer than MIN_PAIRS word pairs
    (an empty page, a placeholder: only its fingerprint can say it moved)."""
    # Spelt for speed (a first run makes one per page; 30 % faster than the plain spelling,
    # the same bytes: test_resemblance_spelling.py holds them to it): the words are split from
    # the text's UTF-8 once, each pair is hashed as it is joined, a pair seen twice is hashed
    # twice (the same smallest hash), and a bin keeps the whole hash (in one bin, the smallest
    # whole hash has the smallest low bits).
    folded = text.casefold()
    if _MARK in folded:
        folded = folded.replace(_MARK, " ")
    if _UNSPACED_CHARACTER.search(folded):
        folded = _UNSPACED_CHARACTER.sub(r" \g<0> ", folded)
    if _WIDE_SPACE.search(folded):
        folded = _WIDE_SPACE.sub(" ", folded)
    words = folded.encode("utf-8", "surrogatepass").split()
    smallest = [_NONE] * BINS
    for hashed in map(zlib.crc32, map(b" ".join, pairwise(words))):
        place = hashed >> _SHIFT
        if hashed < smallest[place]:
            smallest[place] = hashed
    empty = smallest.count(_NONE)
    # (as many full bins as MIN_PAIRS are that many distinct pairs; fewer: count the pairs)
    if BINS - empty < MIN_PAIRS and len(set(pairwise(words))) < MIN_PAIRS:
        return None
    if empty:
        kept = _densified([_EMPTY if least == _NONE else least & _LOW for least in smallest])
    else:  # (the usual page: every bin full, each keeps its own low byte)
        kept = [least & 0xFF for least in smallest]
    return VERSION + base64.urlsafe_b64encode(bytes(kept)).decode("ascii").rstrip("=")


def _densified(smallest: list[int]) -> list[int]:
    """Each bin's byte: its smallest hash's low byte, an empty bin's from the next full bin
    to its right (circularly), offset by how far it looked so that copies are not equal
    by chance in two sketches that leave different bins empty."""
    kept = [0] * BINS
    for place in range(BINS):
        for step in range(BINS):
            found = smallest[(place + step) % BINS]
            if found != _EMPTY:
                kept[place] = (found + 131 * step) & 0xFF
                break
    return kept


def resemblance(one: str, other: str) -> float | None:
    """The estimated share of word pairs two sketches' pages have in common (0 to 1); None
    when either is not a sketch of this version."""
    first, second = _decoded(one), _decoded(other)
    if first is None or second is None:
        return None
    equal = sum(a == b for a, b in zip(first, second, strict=True)) / BINS
    return max(0.0, (equal - _CHANCE) / (1 - _CHANCE))


def _decoded(sketch: str) -> bytes | None:
    if len(sketch) != SKETCH_LENGTH or not sketch.startswith(VERSION):
        return None
    try:
        data = base64.urlsafe_b64decode(sketch[1:] + "==")
    except ValueError:
        return None
    return data if len(data) == BINS else None


def is_sketch(value: object) -> TypeGuard[str]:
    """Whether a value read from a state is a sketch of this version (checked, never trusted)."""
    return isinstance(value, str) and _decoded(value) is not None
