"""A page's main content region, for content fingerprints that ignore the site's furniture."""
# Google's lastmod is the last significant change of a page's main content; a theme upgrade that
# changes the navigation, a footer's copyright year or a "recent posts" sidebar is none. On real
# sites those moved most dates (444 of 504 pages of one MkDocs site carried the date of one theme
# upgrade whose articles did not change a word). The main region is, in this order: the first
# ``<main>`` (to its end tag), the first element whose ``role`` is ``main`` (to its matching end
# tag), or the page's only ``<article>``. A page with none keeps its whole body.
#
# The fingerprint's pass over the tags (fingerprint.digest) calls a ``Structure`` for each tag it
# replaces, in document order; the Structure leaves markers (never in the text) where the regions
# start and end, and ``select`` keeps the title, the meta descriptions and the region.

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final

# A marker is U+0002, a letter, U+0003; neither control character is left in the text, so
# a marker is found only where one was put.
REGION_MARKS: Final = ("\x02", "\x03")
_MAIN_START, _MAIN_END = "\x02m\x03", "\x02M\x03"
_ROLE_START, _ROLE_END = "\x02r\x03", "\x02R\x03"
_ARTICLE_START, _ARTICLE_END = "\x02a\x03", "\x02A\x03"
_TITLE_START, _TITLE_END = "\x02t\x03", "\x02T\x03"
_MARKERS: Final = re.compile("\x02[a-zA-Z]\x03")
# Any marker, its letter as group 1 (fingerprint.contentregion's furniture, fingerprint.titleblock's
# headers).
LETTERED: Final = re.compile("\x02([a-zA-Z])\x03")
_REGION_MARKERS: Final = re.compile("\x02([mMtT])\x03")
# role="main" (the first token of the value), as an attribute of the tag; a tag whose other
# attribute's value spells it is taken alike (rare; deterministic all the same).
_ROLE_MAIN: Final = re.compile(
    r"""[\t\n\f\r /]role[\t\n\f\r ]*=[\t\n\f\r ]*
    (?: "[\t\n\f\r ]*main(?:[\t\n\f\r ][^"]*)?" | '[\t\n\f\r ]*main(?:[\t\n\f\r ][^']*)?'
    | main(?=[\t\n\f\r />]|\Z) )""",
    re.IGNORECASE | re.ASCII | re.VERBOSE,
)


ROLE_MARKERS: Final = (_ROLE_START, _ROLE_END)
START_MARKERS: Final = {"main": _MAIN_START, "article": _ARTICLE_START, "title": _TITLE_START}
END_MARKERS: Final = {"main": _MAIN_END, "article": _ARTICLE_END, "title": _TITLE_END}


# Where a role attribute may start (one character before its name): found in the page's bytes
# lower-cased (ASCII only, as the patterns' IGNORECASE | ASCII), where "role" is a plain
# search; searching the text with a case-insensitive pattern is 4 to 15 times slower on real
# pages (measured on a Next.js export's 123 KB pages and a Docusaurus site).
_BEFORE_NAME: Final = frozenset(b"\t\n\f\r /")


def role_attributes(data: bytes) -> list[int]:
    """Where in ``data`` (a text's UTF-8) a role attribute may start: every position from
    which _ROLE_MAIN (or a pattern like it, in bytes: role_pattern) can match, in order."""
    lowered = data.lower()
    starts = []
    at = lowered.find(b"role")
    while at >= 0:
        if at and lowered[at - 1] in _BEFORE_NAME:
            starts.append(at - 1)
        at = lowered.find(b"role", at + 4)
    return starts


def role_pattern(pattern: re.Pattern[str]) -> re.Pattern[bytes]:
    """A role pattern of ``text`` for its UTF-8 bytes (role_attributes): the same matches,
    as no byte of a character outside ASCII is an ASCII one."""
    return re.compile(pattern.pattern.encode("ascii"), re.IGNORECASE | re.VERBOSE)


_ROLE_MAIN_BYTES: Final = role_pattern(_ROLE_MAIN)


def may_have_role_main(text: str) -> bool:
    """Whether a start tag in ``text`` may have role=main as flat_start finds it ("ole" in
    the tag and _ROLE_MAIN in it), cheapest test first: False is sure, True may be wrong."""
    if "ole" not in text:
        return False
    data = text.encode("utf-8", "surrogatepass")
    return any(_ROLE_MAIN_BYTES.match(data, at) for at in role_attributes(data))


def has_role_main(tag: str) -> bool:
    """Whether a start tag has role=main (the first token of its role)."""
    return _ROLE_MAIN.search(tag) is not None


def has_role_main_at(data: bytes, at: int) -> bool:
    """Whether role=main (as has_role_main finds it) starts at ``at`` in ``data``, a text's
    UTF-8 (role_attributes)."""
    return _ROLE_MAIN_BYTES.match(data, at) is not None


def flat_start(name: str, tag: str) -> str | None:
    """What a start tag becomes when no element of the page has role=main: a marker for
    every <main>, <article> and <title>, else a space. ``select`` then takes the same region
    as from Structure's markers (the first <main> to the next </main>; the other markers are
    spaces), and each tag's replacement depends on that tag alone. None for a role=main
    element: its page is read in order (Structure)."""
    marker = START_MARKERS.get(name)
    if marker is not None:
        return marker
    return None if "ole" in tag and _ROLE_MAIN.search(tag) else " "


def flat_end(name: str) -> str:
    """What an end tag becomes when no element has role=main (flat_start)."""
    return END_MARKERS.get(name, " ")


def region_sequence(text: str, letters: dict[int, int]) -> str:
    """The markers of <main>, </main>, <title> and </title> in ``text``, in order: m, M, t,
    T translated by ``letters`` (flat_start writes one for every such tag, Structure for the
    first <main> and the first </main> after it)."""
    if REGION_MARKS[0] not in text:
        return ""
    return "".join(_REGION_MARKERS.findall(text)).translate(letters).replace(" ", "")


class Structure:
    """Told each start and end tag the fingerprint removes (by its lower-case name and its
    text), in document order; returns what the tag becomes: a marker or a space."""

    __slots__ = ("_main", "_role", "_role_depth", "_role_state")

    def __init__(self) -> None:
        self._main = 0  # 0: none seen, 1: open, 2: closed
        self._role: str | None = None  # the element name of the role=main element
        self._role_depth = 0
        self._role_state = 0

    def start(self, name: str, tag: str) -> str:
        if name == "main" and not self._main:
            self._main = 1
            return _MAIN_START
        if name == "article":
            return _ARTICLE_START
        if name == "title":
            return _TITLE_START
        if self._role_state == 1 and name == self._role:
            self._role_depth += 1
        elif not self._role_state and "ole" in tag and _ROLE_MAIN.search(tag):
            self._role, self._role_state, self._role_depth = name, 1, 1
            return _ROLE_START
        return " "

    def end(self, name: str) -> str:
        if name == "main" and self._main == 1:
            self._main = 2
            return _MAIN_END
        if name == "article":
            return _ARTICLE_END
        if name == "title":
            return _TITLE_END
        if self._role_state == 1 and name == self._role:
            self._role_depth -= 1
            if not self._role_depth:
                self._role_state = 2
                return _ROLE_END
        return " "


TITLE_MARKERS: Final = (_TITLE_START, _TITLE_END)


def region_of(text: str, *, nested: bool = False) -> tuple[int, int] | None:
    """Where the main region of a marked ``text`` is: its first <main>, else its role=main
    element, else its only <article> (None: none). The first <main> runs to the next </main>,
    or with ``nested`` (fingerprint version 5) to its own end tag, past the <main> elements
    nested in it (a home page that nests one per section)."""
    region = (matching if nested else between)(text, _MAIN_START, _MAIN_END)
    region = region or between(text, _ROLE_START, _ROLE_END)
    if region is None and text.count(_ARTICLE_START) == 1:
        region = between(text, _ARTICLE_START, _ARTICLE_END)
    return region


def unmarked(text: str) -> str:
    """``text`` with every marker a space."""
    return _MARKERS.sub(" ", text)


def select(text: str, descriptions: Callable[[str], Iterable[str]]) -> str:
    """The title, the meta descriptions (``descriptions`` finds their marks in a text) and the
    main region of ``text`` when it has one; else ``text``; markers removed either way."""
    if REGION_MARKS[0] not in text:
        return text
    region = region_of(text)
    if region is not None:
        start, end = region
        title = between(text, _TITLE_START, _TITLE_END)
        outside = text[:start] + " " + text[end:]
        text = " ".join(
            (
                "" if title is None else text[title[0] : title[1]],
                *descriptions(outside),
                text[start:end],
            )
        )
    return _MARKERS.sub(" ", text)


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
