"""The content region of a page: its main region, furniture left out wherever it stands."""
# The main region (fingerprint.regionmarkers) of real themes holds furniture too: Material for
# MkDocs wraps its navigation and table-of-contents sidebars in ``<main class="md-main">``,
# Starlight ends ``<main>`` with a ``<footer>`` whose prev/next labels renumber when a chapter is
# inserted, Docusaurus puts its paginator (``nav``) in ``<main>``. Left out, inside the region and
# in a page without one alike:
#
# - ``<nav>`` and ``<aside>`` elements, and any element whose ``role`` is ``navigation``,
#   ``complementary``, ``search``, ``banner`` or ``contentinfo``; from version 13 not an aside in
#   the main region that leads to no other page of the site (fingerprint.asides: a page's note);
# - from version 13, a breadcrumb (a list of links to the page's ancestors) however a theme marks
#   it: an element whose ``aria-label`` names a breadcrumb, one of whose classes is a breadcrumb
#   (``breadcrumb``, ``breadcrumbs``, or such a word after a prefix: TypeDoc's ``tsd-breadcrumb``,
#   Read the Docs' ``wy-breadcrumbs``; not an item of one, ``breadcrumb-item``), or whose
#   ``itemtype`` is schema.org's BreadcrumbList (never ``<html>``, ``<body>`` or ``<main>``, whose
#   class may name a breadcrumb they hold): navigation, as a ``nav`` is, wherever it stands
#   (TypeDoc puts it beside the page's ``<h1>``; it lost its root crumb on every page alike);
# - a ``<header>`` or ``<footer>`` that belongs to the page, not to an article (one that is not
#   inside an ``<article>``), but one that holds the page's ``<h1>`` (its title block; outside the
#   region too, when the region holds no ``<h1>``: fingerprint.titleblock);
#
# and then a region (or a page without one) narrows to the page's own article
# (fingerprint.titledarticle). What only the page says is kept wherever it stands.
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
#
# The tags are told to a ``Structure`` in document order (fingerprint.reduction.in_order), which
# leaves markers (regionmarkers.REGION_MARKS, never in the text) where these elements start and
# end, and ``select`` reads them.

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final

from sitemill.lastmod.fingerprint import (
    _linkblocks as linkblocks,
)
from sitemill.lastmod.fingerprint import (
    _listpages as listpages,
)
from sitemill.lastmod.fingerprint import (
    _regionmarkers as regionmarkers,
)
from sitemill.lastmod.fingerprint import (
    _titleblock as titleblock,
)
from sitemill.lastmod.fingerprint import (
    _titledarticle as titledarticle,
)
from sitemill.lastmod.fingerprint import (
    excerpts,
)
from sitemill.lastmod.fingerprint._articles import (
    HEADING_MARKERS,
    HEADLINE_START,
    is_card,
)
from sitemill.lastmod.fingerprint._asides import own_note
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_START, REGION_MARKS
from sitemill.lastmod.fingerprint._teasers import read_teasers
from sitemill.lastmod.fingerprint._titleparts import title_parts
from sitemill.lastmod.fingerprint.targetmarks import TITLE_END, descriptions

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
# Each furniture start letter and its end letter; h and f only outside an article.
_CLOSES: Final = {"n": "N", "x": "X", "h": "H", "f": "F", "l": "L"}
_MARKERS: Final = regionmarkers.LETTERED
_ROLE_FURNITURE: Final = re.compile(
    r"""[\t\n\f\r /]role[\t\n\f\r ]*=[\t\n\f\r ]*
    (?: "[\t\n\f\r ]*(?:navigation|complementary|search|banner|contentinfo)(?:[\t\n\f\r ][^"]*)?"
    | '[\t\n\f\r ]*(?:navigation|complementary|search|banner|contentinfo)(?:[\t\n\f\r ][^']*)?'
    | (?:navigation|complementary|search|banner|contentinfo)(?=[\t\n\f\r />]|\Z) )""",
    re.IGNORECASE | re.ASCII | re.VERBOSE,
)


# A breadcrumb's marks (see above), as an attribute of the tag, its value read as a browser does.
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
    """Whether a start tag marks a breadcrumb (see above): its aria-label, one of its classes
    or its itemtype."""
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
    END_MARKERS, role=main's and a furniture role's or a breadcrumb's, see above) or a space.
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


def select(text: str, descriptions: Callable[[str], Iterable[str]], url: str, version: int) -> str:
    """The title, the meta descriptions (``descriptions`` finds their marks in a text) and the
    main region of ``text`` without its furniture, narrowed to the page's own article
    (fingerprint.titledarticle.article_finder); a page with no main region: its text without its
    furniture, or its title, descriptions and own article; read as join_page
    does. Teasers are read as the links to the pages they tease
    (fingerprint.teasers: ``url``, the page's), a post's blocks of links outside its article left
    out (fingerprint.linkblocks); the dates of the pages a list page lists and its pager's count
    are left out (_listed)."""
    if REGION_MARKS[0] not in text:
        return text
    found = regionmarkers.between(text, *regionmarkers.TITLE_MARKERS)
    title = "" if found is None else text[found[0] : found[1]]
    narrowed = titledarticle.article_finder(text, url, version)
    region = regionmarkers.region_of(text)
    if region is not None and version >= 13 and _card_region(text, region, url):
        region = None  # (the page's only article is a card: read as a page without one)
    if region is None:
        kept = without_furniture(text)
        if HEADLINE_START not in kept and titleblock.own_headline(text, version):
            # (its title block: fingerprint.titleblock)
            kept = without_furniture(text, headline=True)
        kept = read_teasers(kept, url, page=text, version=version)
        kept = linkblocks.leave_out_link_blocks(kept, url, text, version)
        region = narrowed(kept)
        if region is None:
            return join_page(_listed(kept, url), version)
        text, body = kept, kept[region[0] : region[1]]
    else:
        # (a region that is an article: its header and footer are the article's)
        within = text[region[0] - len(ARTICLE_START) : region[0]] == ARTICLE_START
        kept = without_furniture(
            text[region[0] : region[1]], article=int(within), headline=True, notes=version
        )
        headline = HEADLINE_START in kept
        kept = read_teasers(kept, url, own=within, page=text, version=version)
        if not within:
            kept = linkblocks.leave_out_link_blocks(kept, url, text, version)
        article = narrowed(kept)
        body = kept if article is None else kept[article[0] : article[1]]
        if not headline:
            header = titleblock.outside(text, region, version)
            if header:
                body = without_furniture(header, headline=True) + " " + body
    said = descriptions(text[: region[0]] + " " + text[region[1] :])
    title = listpages.read_pager(title, url)
    return join_selection(title, list(said), _listed(body, url), version)


def _card_region(text: str, region: tuple[int, int], url: str) -> bool:
    """Whether the main ``region`` of the marked ``text`` is the page's only article and a card
    that stands for other pages (from version 13: articles.is_card): none of the page's own
    text, so the page is read as one without a region."""
    if text[region[0] - len(ARTICLE_START) : region[0]] != ARTICLE_START:
        return False  # (a <main> or role=main region)
    return is_card(text[region[0] : region[1]], url)


def _listed(text: str, url: str) -> str:
    """``text`` (what a page counts of its region, title aside) without the
    dates of the pages it lists and the pager's count (fingerprint.listpages)."""
    text = listpages.without_stray_ends(listpages.leave_out_listed_dates(text, url))
    return listpages.read_pager(text, url)


def without_furniture(
    text: str, *, article: int = 0, headline: bool = False, notes: int | None = None
) -> str:
    """``text`` without the furniture elements' spans, markers and all: nav, aside, the
    furniture roles, and a header or footer outside any article (with ``headline``, a header
    that holds the page's <h1> stays: Quarto's title block, its authors, date
    and DOI, is the page's own). One left open runs to the end of the text; furniture of the
    same kind nested in it closes with it. ``article``: 1 when the text is an article's.
    ``notes``: the fingerprint's version, for the main region's text: an aside there that is the
    page's own note stays (fingerprint.asides)."""
    spans, left_open = furniture_spans(text, article=article, headline=headline, notes=notes)
    if not spans:  # (nothing left out)
        return text
    kept: list[str] = []
    position = 0
    for start, end in spans:
        kept.append(text[position:start])
        position = end
    if not left_open:
        kept.append(text[position:])
    return " ".join(kept)


def furniture_spans(
    text: str, *, article: int = 0, headline: bool = False, notes: int | None = None
) -> tuple[list[tuple[int, int]], bool]:
    """Where the furniture elements without_furniture leaves out of ``text`` stand, each from
    its start marker to its end marker's end (in order, apart), and whether the last is left
    open (it then runs to the end of ``text``). fingerprint.regionplan reads them too."""
    spans: list[tuple[int, int]] = []
    if "\x02" not in text:
        return spans, False
    depth = start = 0
    skipping = closing = ""
    for found in _MARKERS.finditer(text):
        letter = found[1]
        if skipping:
            if letter == skipping:
                depth += 1
            elif letter == closing:
                depth -= 1
                if not depth:
                    skipping = ""
                    spans.append((start, found.end()))
            continue
        if letter == "a":
            article += 1
        elif letter == "A":
            article = max(0, article - 1)
        elif letter in _CLOSES and (letter not in "hf" or not article):
            if (headline and letter == "h" and titleblock.header_span(text, found.end())[0]) or (
                letter == "x" and notes is not None and own_note(text, found.end(), notes)
            ):
                continue  # (a title block; a page's own note, whose furniture is read as such)
            start = found.start()
            skipping, closing, depth = letter, _CLOSES[letter], 1
    if skipping:
        spans.append((start, len(text)))
    return spans, bool(skipping)


# What the fingerprint reads of a page besides its region: its title and descriptions.
# Besides its region (fingerprint.regionselect): its title by its parts (fingerprint.titleparts),
# with its end marked (targetmarks.TITLE_END: history.templateedits reads the title apart), and its
# meta descriptions less an excerpt of the text kept (fingerprint.excerpts), before that text.
def join_page(kept: str, version: int) -> str:
    """A page with no main region and no article of its own, ``kept`` its marked text less
    its furniture: its title, its descriptions, then the rest of its text (joined)."""
    title, kept = regionmarkers.cut_title(kept)
    said = descriptions(kept)
    for mark in said:
        kept = kept.replace(mark, " ", 1)
    return join_selection(title, said, kept, version)


def join_selection(title: str, said: list[str], body: str, version: int) -> str:
    """The title (by its parts, its end marked), the descriptions (an excerpt of the body
    left out) and the body of a page's selected text (see above), joined. The body's markers
    (a heading's start and end, an article's) are no letters of the text an excerpt is looked
    for in (from version 9: version 8 read the letter of each, ``<h2>`` as a "k", so no
    description that runs past a heading was ever found to be an excerpt)."""
    title = regionmarkers.unmark(title)
    if said:
        page = regionmarkers.unmark(body)
        said = excerpts.own_descriptions(said, page, title, version)
    title = title_parts(title) + TITLE_END
    return regionmarkers.unmark(" ".join((title, *said, body)))
