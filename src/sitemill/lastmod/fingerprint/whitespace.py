"""White space as a reader sees it: any run of it is one space."""

from __future__ import annotations

import re
from typing import Final

# White space other than " " as str.isspace() saw it in Python 3.11, spelled out so that a
# newer Unicode database cannot change a fingerprint. U+00A0 (&nbsp;) is among it.
_OTHER_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_ASCII_WHITESPACE: Final = "".join(space for space in _OTHER_WHITESPACE if space.isascii())
_SPACES: Final = re.compile("  +")
# The scripts written without spaces between words (Han ideographs, hiragana, katakana): a reader
# reads their words without a space between them (Hangul, written with spaces, is not among them).
UNSPACED: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def collapse_whitespace(text: str) -> str:
    """Runs of white space as one space, none at either end. (str.replace runs at memchr
    speed, and a pattern with a literal prefix matches only where spaces pile up: several
    times faster than one re.sub with a class of these characters.)"""
    for space in _ASCII_WHITESPACE if text.isascii() else _OTHER_WHITESPACE:
        if space in text:
            text = text.replace(space, " ")
    return _SPACES.sub(" ", text).strip(" ")
