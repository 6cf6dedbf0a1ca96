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
# The tags are told to a ``Structure`` in document order (fingerprint.reduction.in_order;
# fingerprint.structure: where an element left open ends, a breadcrumb's list), which leaves markers
# (regionmarkers.REGION_MARKS, never in the text) where these elements start and end, and
# ``select`` reads them.

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, TypedDict, Unpack

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
    HEADLINE_START,
    is_card,
)
from sitemill.lastmod.fingerprint._asides import own_note
from sitemill.lastmod.fingerprint._declaredroot import DeclaredRoot
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_START, REGION_MARKS
from sitemill.lastmod.fingerprint._teasers import lone_teaser, read_teasers
from sitemill.lastmod.fingerprint._titleparts import title_parts
from sitemill.lastmod.fingerprint.targetmarks import TITLE_END, descriptions

# Each furniture start letter and its end letter; h and f only outside an article.
_CLOSES: Final = {"n": "N", "x": "X", "h": "H", "f": "F", "l": "L"}
_MARKERS: Final = regionmarkers.LETTERED


def select(
    text: str,
    descriptions: Callable[[str], Iterable[str]],
    url: str,
    version: int,
    root: DeclaredRoot | None = None,
) -> str:
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
    if region is not None and version >= 13 and _card_region(text, region, url, root):
        region = None  # (the page's only article is a card or a teaser: read as a page without one)
    if region is None:
        kept = without_furniture(text)
        if HEADLINE_START not in kept and titleblock.own_headline(text, version, url):
            # (its title block: fingerprint.titleblock)
            kept = without_furniture(text, headline=True, url=url if version >= 13 else "")
        kept = read_teasers(kept, url, page=text, version=version, root=root)
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
        kept = read_teasers(kept, url, own=within, page=text, version=version, root=root)
        if not within:
            kept = linkblocks.leave_out_link_blocks(kept, url, text, version)
        article = narrowed(kept)
        body = kept if article is None else kept[article[0] : article[1]]
        if not headline:
            header = titleblock.outside(text, region, version, url)
            if header:
                body = without_furniture(header, headline=True) + " " + body
    said = descriptions(text[: region[0]] + " " + text[region[1] :])
    title = listpages.read_pager(title, url)
    return join_selection(title, list(said), _listed(body, url), version)


def _card_region(text: str, region: tuple[int, int], url: str, root: DeclaredRoot | None) -> bool:
    """Whether the main ``region`` of the marked ``text`` is the page's only article and a card
    that stands for other pages (from version 13: articles.is_card) or a teaser its <title> does
    not name (teasers.lone_teaser, its links read at the ``root`` the page declares): none of the
    page's own text, so the page is read as one without a region."""
    start = region[0] - len(ARTICLE_START)
    if text[start : region[0]] != ARTICLE_START:
        return False  # (a <main> or role=main region)
    return is_card(text[region[0] : region[1]], url) or lone_teaser(
        text[start : region[1]], url, text, root
    )


def _listed(text: str, url: str) -> str:
    """``text`` (what a page counts of its region, title aside) without the
    dates of the pages it lists and the pager's count (fingerprint.listpages)."""
    text = listpages.without_stray_ends(listpages.leave_out_listed_dates(text, url))
    return listpages.read_pager(text, url)


class Furniture(TypedDict, total=False):
    """How furniture_spans reads a text (see without_furniture)."""

    article: int
    headline: bool
    notes: int | None
    url: str


def without_furniture(text: str, **reading: Unpack[Furniture]) -> str:
    """``text`` without the furniture elements' spans, markers and all: nav, aside, the
    furniture roles, and a header or footer outside any article (with ``headline``, a header
    that holds the page's <h1> stays: Quarto's title block, its authors, date
    and DOI, is the page's own). One left open runs to the end of the text; furniture of the
    same kind nested in it closes with it. ``article``: 1 when the text is an article's.
    ``notes``: the fingerprint's version, for the main region's text: an aside there that is the
    page's own note stays (fingerprint.asides). ``url``: the page's, for a page without a region
    (from version 13): a header whose only <h1> is the site's name is the site's
    (fingerprint.titleblock)."""
    spans, left_open = furniture_spans(text, **reading)
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
    text: str,
    *,
    article: int = 0,
    headline: bool = False,
    notes: int | None = None,
    url: str = "",
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
            if (
                headline and letter == "h" and titleblock.holds_headline(text, found.end(), url)
            ) or (letter == "x" and notes is not None and own_note(text, found.end(), notes)):
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
