"""A page's main content region, for content fingerprints that ignore the site's furniture."""
# Google's lastmod is the last significant change of a page's main content; a theme upgrade that
# changes the navigation, a footer's copyright year or a "recent posts" sidebar is none. On real
# sites those moved most dates (444 of 504 pages of one MkDocs site carried the date of one theme
# upgrade whose articles did not change a word). The main region is, in this order: the first
# ``<main>`` (to its own end tag), the first element whose ``role`` is ``main`` (to its matching
# end tag), or the page's only ``<article>``. A page with none keeps its whole body.
#
# The reduction's first pass leaves markers (never in the text) where these elements start and
# end (fingerprint.regionselect, which also marks the furniture); this module finds the regions
# between them.

from __future__ import annotations

import re
from typing import Final

# A marker is U+0002, a letter, U+0003; neither control character is left in the text, so
# a marker is found only where one was put.
REGION_MARKS: Final = ("\x02", "\x03")
_MAIN_START, _MAIN_END = "\x02m\x03", "\x02M\x03"
_ROLE_START, _ROLE_END = "\x02r\x03", "\x02R\x03"
ARTICLE_START, ARTICLE_END = "\x02a\x03", "\x02A\x03"
_TITLE_START, _TITLE_END = "\x02t\x03", "\x02T\x03"
ANY_MARKER: Final = re.compile("\x02[a-zA-Z]\x03")
# Any marker, its letter as group 1 (fingerprint.regionselect's furniture, fingerprint.titleblock's
# headers).
LETTERED: Final = re.compile("\x02([a-zA-Z])\x03")
# role="main" (the first token of the value), as an attribute of the tag; a tag whose other
# attribute's value spells it is taken alike (rare; deterministic all the same).
_ROLE_MAIN: Final = re.compile(
    r"""[\t\n\f\r /]role[\t\n\f\r ]*=[\t\n\f\r ]*
    (?: "[\t\n\f\r ]*main(?:[\t\n\f\r ][^"]*)?" | '[\t\n\f\r ]*main(?:[\t\n\f\r ][^']*)?'
    | main(?=[\t\n\f\r />]|\Z) )""",
    re.IGNORECASE | re.ASCII | re.VERBOSE,
)


MAIN_MARKERS: Final = (_MAIN_START, _MAIN_END)
ROLE_MARKERS: Final = (_ROLE_START, _ROLE_END)
TITLE_MARKERS: Final = (_TITLE_START, _TITLE_END)


def has_role_main(tag: str) -> bool:
    """Whether a start tag has role=main (the first token of its role)."""
    return _ROLE_MAIN.search(tag) is not None


def region_of(text: str) -> tuple[int, int] | None:
    """Where the main region of a marked ``text`` is: its first <main> to its own end tag, past
    the <main> elements nested in it (a home page that nests one per section), else its
    role=main element, else its only <article> (None: none)."""
    region = matching(text, _MAIN_START, _MAIN_END)
    region = region or between(text, _ROLE_START, _ROLE_END)
    if region is None and text.count(ARTICLE_START) == 1:
        region = between(text, ARTICLE_START, ARTICLE_END)
    return region


def unmark(text: str) -> str:
    """``text`` with every marker a space."""
    return ANY_MARKER.sub(" ", text)


def cut_title(text: str) -> tuple[str, str]:
    """The text of the <title> of a marked ``text`` ("": none) and ``text`` without it, its
    markers and all (a space in its place)."""
    found = between(text, _TITLE_START, _TITLE_END)
    if found is None:
        return "", text
    start, end = found[0] - len(_TITLE_START), found[1] + len(_TITLE_END)
    return text[found[0] : found[1]], text[:start] + " " + text[end:]


def matching(text: str, start_marker: str, end_marker: str) -> tuple[int, int] | None:
    """Where the text between the first ``start_marker`` and the ``end_marker`` that closes
    it is, the pairs of markers between them nested in it (one left open runs to the end)."""
    start = text.find(start_marker)
    if start < 0:
        return None
    start += len(start_marker)
    depth, at = 1, start
    while True:
        end = text.find(end_marker, at)
        if end < 0:
            return start, len(text)
        depth += text.count(start_marker, at, end) - 1
        if depth <= 0:
            return start, end
        at = end + len(end_marker)


def between(text: str, start_marker: str, end_marker: str) -> tuple[int, int] | None:
    """Where the text between the first ``start_marker`` and the next ``end_marker`` (or
    the end of the text) is."""
    start = text.find(start_marker)
    if start < 0:
        return None
    start += len(start_marker)
    end = text.find(end_marker, start)
    return start, len(text) if end < 0 else end
