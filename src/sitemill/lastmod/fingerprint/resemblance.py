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
# names no text: a state beside the sitemaps may hold it.

from __future__ import annotations

import base64
import zlib
from itertools import pairwise
from typing import Final, TypeGuard

BINS: Final = 64
_SHIFT: Final = 32 - 6  # the top 6 bits of a pair's hash name its bin (2 ** 6 == BINS)
_LOW: Final = (1 << _SHIFT) - 1
_CHANCE: Final = 1 / 256  # two unrelated bins keep the same byte
MIN_PAIRS: Final = 20  # fewer word pairs than this: too little text to tell a near copy (a stub)
VERSION: Final = "1"  # the sketch's first character: how it was made
SKETCH_LENGTH: Final = 1 + 86  # the version, then BINS bytes in URL-safe base64 without padding
_EMPTY: Final = 1 << _SHIFT


def sketch_text(text: str) -> str | None:
    """The sketch of a reduction's text; None when it holds fewer than MIN_PAIRS word pairs
    (an empty page, a placeholder: only its fingerprint can say it moved)."""
    words = text.casefold().split()
    pairs = {a + " " + b for a, b in pairwise(words)}
    if len(pairs) < MIN_PAIRS:
        return None
    smallest = [_EMPTY] * BINS
    for hashed in map(zlib.crc32, (pair.encode("utf-8", "surrogatepass") for pair in pairs)):
        place, low = hashed >> _SHIFT, hashed & _LOW
        if low < smallest[place]:
            smallest[place] = low
    kept = _densified(smallest)
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
