"""White space as a reader sees it: any run of it is one space; what no reader sees, none."""

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
WHITESPACE: Final = " " + _OTHER_WHITESPACE
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


# What no reader sees (fingerprint version 7): control characters (C0 and C1, but white space and
# U+0001 to U+0003, the reduction's own marks: fingerprint.targetmarks, fingerprint.regionmarkers)
# and the characters of zero width that join nothing (the zero-width space, the word joiner, the
# byte order mark written inside a page, the soft hyphen). Docusaurus wrote a NUL before the
# zero-width space of each heading's permalink anchor, then stopped: two pages of a site were dated
# by that deploy alone. The joiners (U+200C, U+200D) and direction marks are left: they change how
# a word is drawn.
_INVISIBLE: Final = re.compile("[\x00\x04-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\xad\u200b\u2060\ufeff]+")


def drop_invisible(text: str) -> str:
    """``text`` without what no reader sees (see above): one search for a text with none."""
    if _INVISIBLE.search(text) is None:
        return text
    return _INVISIBLE.sub("", text)
