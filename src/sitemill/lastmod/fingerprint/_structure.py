"""Where a page's regions and furniture start and end: the markers the first pass leaves."""
# fingerprint.regionselect says what is furniture and what a region is; this module marks where
# each such element starts and ends as the first pass reads the tags in document order
# (fingerprint.reduction.in_order), a breadcrumb and a furniture role read from the start tag.
#
# From version 13 an ``<article>`` left open ends where an element that holds it ends, as a
# browser's parser reads it: the end tag of a ``<div>`` or ``<section>`` opened before the
# article closes the article too. yilia-plus leaves a list page's ``<article class="articles">``
# open and ends its ``<section class="outer">``: the site's ``<footer>`` after it is the page's,
# as on a post, not the article's (version 12 read it inside the article, its © year counted).
# From version 13 (amended, issue 79) so does furniture left open (a ``nav``, an ``aside``, a page's
# ``header`` or ``footer``, a furniture-role or breadcrumb element): it ends where a ``<div>`` or
# ``<section>`` opened before it ends, not at the end of the text, and the end tag of an element
# closes what was left open inside it, as a browser's parser pops them. And a breadcrumb is its list
# of crumbs: it ends where its first list (``<ol>``, ``<ul>``) ends, and what follows that list
# inside it is the page's. A Hugo port of HTML5 UP Editorial opens each tag page's ``<nav
# class="breadcrumb" aria-label="Breadcrumb">`` and never closes it: the tag's list of posts
# followed inside it, to the end of its ``<section>``, and no post added to a tag dated its page.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint import _regionmarkers as regionmarkers
from sitemill.lastmod.fingerprint._articles import HEADING_MARKERS

# Start and end markers of the furniture elements, by element name; "l"/"L": an element of
# a furniture role (tracked in order, like role=main: its end tag is found by its name).
_FURNITURE_START: Final = {"nav": "\x02n\x03", "aside": "\x02x\x03"}
_FURNITURE_END: Final = {"nav": "\x02N\x03", "aside": "\x02X\x03"}
_PAGE_START: Final = {"header": "\x02h\x03", "footer": "\x02f\x03"}
_PAGE_END: Final = {"header": "\x02H\x03", "footer": "\x02F\x03"}
_MAIN_START, _MAIN_END = regionmarkers.MAIN_MARKERS
_ROLE_MAIN_START, _ROLE_MAIN_END = regionmarkers.ROLE_MARKERS
_TITLE_START, _TITLE_END = regionmarkers.TITLE_MARKERS
# Start and end markers by the tag's name: the regions', the furniture's, and the page's headline
# (<h1>: which article is the page's) and other headings (a teaser's title: fingerprint.teasers).
START_MARKERS: Final = {
    **{"main": _MAIN_START, "article": regionmarkers.ARTICLE_START, "title": _TITLE_START},
    **_FURNITURE_START,
    **_PAGE_START,
    **HEADING_MARKERS[0],
}
END_MARKERS: Final = {
    **{"main": _MAIN_END, "article": regionmarkers.ARTICLE_END, "title": _TITLE_END},
    **_FURNITURE_END,
    **_PAGE_END,
    **HEADING_MARKERS[1],
}
_ROLE_START, _ROLE_END = "\x02l\x03", "\x02L\x03"
# The elements whose end tag closes an article left open inside them (version 13, see above).
_HOLDERS: Final = ("div", "section")
# The elements a holder's end tag closes when left open inside it (from version 13), besides the
# furniture-role element (_ROLE, its end found by depth).
_CLOSED_BY_HOLDERS: Final = frozenset(("article", "nav", "aside", "header", "footer"))
_ROLE: Final = "\x00role"
# A breadcrumb's list of crumbs (from version 13 the breadcrumb ends where its first list does).
_LISTS: Final = frozenset(("ol", "ul"))
# Elements that hold the whole page or its main region: never a breadcrumb, whatever their class
# says (``<body class="has-breadcrumbs">``).
_WHOLE: Final = frozenset(("html", "body", "main"))
# The tags whose marker depends on their name alone (every one but <main>'s).
_STARTS: Final = {name: mark for name, mark in START_MARKERS.items() if name != "main"}
_ENDS: Final = {name: mark for name, mark in END_MARKERS.items() if name != "main"}
_ROLE_FURNITURE: Final = re.compile(
    r"""[\t\n\f\r /]role[\t\n\f\r ]*=[\t\n\f\r ]*
    (?: "[\t\n\f\r ]*(?:navigation|complementary|search|banner|contentinfo)(?:[\t\n\f\r ][^"]*)?"
    | '[\t\n\f\r ]*(?:navigation|complementary|search|banner|contentinfo)(?:[\t\n\f\r ][^']*)?'
    | (?:navigation|complementary|search|banner|contentinfo)(?=[\t\n\f\r />]|\Z) )""",
    re.IGNORECASE | re.ASCII | re.VERBOSE,
)


# A breadcrumb's marks (fingerprint.regionselect), as an attribute of the tag, its value read as a
# browser does.
_BREADCRUMB: Final = re.compile(
    r"""[\t\n\f\r /](class|aria-label|itemtype)[\t\n\f\r ]*=[\t\n\f\r ]*
    ("[^"]*"|'[^']*'|[^\t\n\f\r >]*)""",
    re.IGNORECASE | re.ASCII | re.VERBOSE,
)
_CRUMBS_CLASS: Final = re.compile(r"(?:^|[-_])breadcrumbs?$", re.IGNORECASE | re.ASCII)
_CRUMBS_LABEL: Final = re.compile(r"\bbreadcrumbs?\b", re.IGNORECASE | re.ASCII)
_CRUMBS_TYPE: Final = re.compile(r"/BreadcrumbList$", re.ASCII)


def has_furniture_role(tag: str) -> bool:
    """Whether a start tag has a furniture role (the first token of its role)."""
    return _ROLE_FURNITURE.search(tag) is not None


def is_breadcrumb(tag: str) -> bool:
    """Whether a start tag marks a breadcrumb (fingerprint.regionselect): its aria-label, one
    of its classes or its itemtype."""
    for found in _BREADCRUMB.finditer(tag):
        name, value = found[1].lower(), found[2].strip("\"'")
        if name == "class" and any(map(_CRUMBS_CLASS.search, value.split())):
            return True
        if name == "aria-label" and _CRUMBS_LABEL.search(value) is not None:
            return True
        if name == "itemtype" and _CRUMBS_TYPE.search(value.strip()) is not None:
            return True
    return False


class Structure:
    """Told each start and end tag the fingerprint removes (by its lower-case name and its
    text), in document order; returns what the tag becomes: a marker (START_MARKERS and
    END_MARKERS, role=main's and a furniture role's or a breadcrumb's: fingerprint.regionselect)
    or a space.
    One dict lookup for most tags. ``version``: the fingerprint's (from 13 a breadcrumb, ending
    with its list of crumbs, and an article or furniture element closed by an element that holds
    it)."""

    __slots__ = (
        "_crumb",
        "_crumbs",
        "_depth",
        "_furniture",
        "_held",
        "_lists",
        "_main",
        "_name",
        "_opened",
        "_role_depth",
        "_state",
    )

    def __init__(self, version: int) -> None:
        self._crumbs = version >= 13
        # The <div>s and <section>s open (none counted before 13), and each article or furniture
        # element open (_CLOSED_BY_HOLDERS, or _ROLE: the furniture-role element), innermost
        # last: its name and how many holders were open where it started, None once its end
        # marker is written (a breadcrumb ended by its list).
        self._held: dict[str, int] = dict.fromkeys(_HOLDERS, 0) if self._crumbs else {}
        self._opened: list[_Opened] = []
        self._crumb: _Opened | None = None  # (the breadcrumb open, its list not yet ended)
        self._lists = 0  # (the lists open inside it)
        self._main = 0  # 0: none seen, 1: open, 2: closed
        self._name, self._role_depth, self._state = "", 0, 0  # the role=main element (as main)
        self._furniture, self._depth = "", 0  # the furniture-role element open, its depth

    def start(self, name: str, tag: str) -> str:
        marker = _STARTS.get(name)
        if marker is not None:
            if self._crumbs and name in _CLOSED_BY_HOLDERS:
                opened = _Opened(name, dict(self._held))
                self._opened.append(opened)
                if name == "nav" and self._crumb is None and "rumb" in tag and is_breadcrumb(tag):
                    self._crumb, self._lists = opened, 0
            return marker
        if name == "main":
            if not self._main:
                self._main = 1
                return _MAIN_START
            # Every later <main> is marked as well: regionmarkers.region_of finds the end tag of
            # the first.
            replaced = self._start(name, tag)
            return _MAIN_START if replaced == " " else _MAIN_START + replaced
        return self._start(name, tag)

    def _start(self, name: str, tag: str) -> str:
        held = self._held
        if name in held:
            held[name] += 1
        elif self._crumb is not None and name in _LISTS:
            self._lists += 1
        if self._state == 1 and name == self._name:
            self._role_depth += 1
        if self._depth and name == self._furniture:
            self._depth += 1
        if "ole" in tag:
            if not self._state and regionmarkers.has_role_main(tag):
                self._name, self._role_depth, self._state = name, 1, 1
                return _ROLE_MAIN_START
            if not self._depth and has_furniture_role(tag):
                return self._role_start(name, tag)
        crumbs = self._crumbs and not self._depth and "rumb" in tag
        if crumbs and name not in _WHOLE and is_breadcrumb(tag):
            return self._role_start(name, tag)
        return " "

    def _role_start(self, name: str, tag: str) -> str:
        """A furniture-role or breadcrumb element starts (``name``, its start tag ``tag``)."""
        self._furniture, self._depth = name, 1
        if self._crumbs:
            before = dict(self._held)
            if name in before:
                before[name] -= 1  # (its own start counted in _start)
            opened = _Opened(_ROLE, before)
            self._opened.append(opened)
            if self._crumb is None and name not in _LISTS and "rumb" in tag and is_breadcrumb(tag):
                self._crumb, self._lists = opened, 0
        return _ROLE_START

    def end(self, name: str) -> str:
        marker = _ENDS.get(name)
        if marker is not None:
            if self._crumbs and name in _CLOSED_BY_HOLDERS:
                return self._named_end(name, marker)
            return marker
        replaced = self._holder_end(name) if name in self._held else " "
        if self._crumb is not None and name in _LISTS and self._lists:
            self._lists -= 1
            if not self._lists:  # (the breadcrumb's list of crumbs ends: so does the breadcrumb)
                replaced = _joined(replaced, self._close(self._crumb))
        if name == "main" and self._main:  # (every one: see start)
            self._main = 2
            replaced = _MAIN_END
        if self._state == 1 and name == self._name:
            self._role_depth -= 1
            if not self._role_depth:
                self._state = 2
                replaced = _joined(replaced, _ROLE_MAIN_END)
        if self._depth and name == self._furniture:
            self._depth -= 1
            if not self._depth:
                replaced = _joined(replaced, self._role_end())
        return replaced

    def _role_end(self) -> str:
        """The furniture-role element's own end tag: its end marker, unless written already."""
        opened = self._opened
        if not self._crumbs:
            return _ROLE_END
        for place in range(len(opened) - 1, -1, -1):
            if opened[place].name == _ROLE:
                return self._closed_to(place)
        return ""

    def _named_end(self, name: str, marker: str) -> str:
        """The end tag of an article or a furniture element (``name``, its end ``marker``):
        the end markers of what it closes, innermost first, as a browser's parser pops them;
        the marker alone when none of its name is open (a stray end tag)."""
        opened = self._opened
        for place in range(len(opened) - 1, -1, -1):
            if opened[place].name == name:
                return self._closed_to(place) or " "
        return marker

    def _closed_to(self, place: int) -> str:
        """Close the elements open from ``place`` on (what each holds closes with it): their
        end markers not yet written, innermost first."""
        opened = self._opened
        closed = ""
        while len(opened) > place:
            last = opened.pop()
            closed += self._close(last)
            self._held.update(last.held)
            if last.name == _ROLE:  # (its own end tag, if any, is no longer looked for)
                self._furniture, self._depth = "", 0
        return closed

    def _close(self, opened: _Opened) -> str:
        """``opened``'s end marker, once: "" when written already (see _Opened)."""
        if opened.ended:
            return ""
        opened.ended = True
        if opened is self._crumb:
            self._crumb = None
        return _ROLE_END if opened.name == _ROLE else _ENDS[opened.name]

    def _holder_end(self, name: str) -> str:
        """The end tag of a <div> or <section> (``name``): the end markers of the articles and
        furniture elements open inside the element it closes, when one was opened before the
        innermost of them (see above); " " else, and for an end tag that closes nothing."""
        held, opened = self._held, self._opened
        if not held[name]:
            return " "
        place = len(opened)
        while place and opened[place - 1].held[name] >= held[name]:
            place -= 1
        closed = self._closed_to(place) if place < len(opened) else ""
        held[name] -= 1
        return closed or " "


class _Opened:
    """An article or furniture element open (Structure): its name (_ROLE for a furniture-role
    or breadcrumb element), the holders open where it started, and whether its end marker is
    written (a breadcrumb ended by its list, its own end tag to come)."""

    __slots__ = ("ended", "held", "name")

    def __init__(self, name: str, held: dict[str, int]) -> None:
        self.name, self.held, self.ended = name, held, False


def _joined(replaced: str, marker: str) -> str:
    """What an end tag becomes: ``replaced`` (" " for nothing) and then ``marker``."""
    if not marker:
        return replaced
    return marker if replaced == " " else replaced + marker
