"""Which article of a region is the page's (fingerprint.regionselect), and the heading markers."""
# From fingerprint version 13 (amended, issue 79) an <h1> inside a link to another page is no
# headline of this page: the heading of a card that stands for that page (a teaser that is one
# link, the author card whose name, an <h1>, links to the site's home). Such a card beside a post's
# article no longer keeps the region from narrowing to the article, so the teasers and the
# sidebar beside it stay furniture (Hexo AnZhiYu writes the author card in the sidebar inside
# ``<main>``, after each post's ``<article>`` and its "related posts" cards: a new post among
# the cards re-dated the posts it stood beside).
#
# From version 13 (amended, issue 79) a lone article that is a card, links that all lead to one
# page of the site and no letter or digit outside them (a picture and its caption leading to that
# page; a list page's one teaser, read as its link), is none of the page's own text: no region
# (fingerprint.regionselect) and not the article a page narrows to. A Hugo port of HTML5 UP
# Editorial put a "miscellaneous" mini-post, one ``<article>``, in the sidebar of every page; no
# page held another, so each page narrowed to it and no edit of a post, a list or the home page
# dated its page (the page it leads to, ``/misc``, narrowed to it too: a card on the page it
# stands for is the same block).

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_END, ARTICLE_START
from sitemill.lastmod.fingerprint.targetmarks import LINK_END_MARK, MARK_EDGE

# The markers of the page's headline (<h1>), which regionselect writes.
HEADLINE_START: Final = "\x02g\x03"
HEADLINE_END: Final = "\x02G\x03"
# The markers of the other headings (<h2> to <h6>), which regionselect writes (and version 5
# reads as spaces): a teaser's title (fingerprint.teasers).
HEADING_START: Final = "\x02k\x03"
HEADING_END: Final = "\x02K\x03"
HEADING_MARKERS: Final = (
    {"h1": HEADLINE_START} | dict.fromkeys(("h2", "h3", "h4", "h5", "h6"), HEADING_START),
    {"h1": HEADLINE_END} | dict.fromkeys(("h2", "h3", "h4", "h5", "h6"), HEADING_END),
)  # (the start and end markers by the tag's name)
_MARKER: Final = re.compile("\x02[a-zA-Z]\x03")
_LETTER: Final = re.compile(r"[^\W_]")
_ARTICLE_MARKERS: Final = re.compile(
    "\x02([%s])\x03" % (ARTICLE_START[1] + ARTICLE_END[1] + HEADLINE_START[1])
)
# The same markers, and a link's mark (its target as group 2) and end mark (group 2 empty).
_LINKED_MARKERS: Final = re.compile(
    _ARTICLE_MARKERS.pattern + f"|{MARK_EDGE}(?:H([^{MARK_EDGE}]*)|E)(?:{MARK_EDGE}|\\Z)"
)


def own_article(text: str, url: str | None = None) -> tuple[int, int] | None:
    """Where the text of the page's own article is (fingerprint version 5): the one outermost
    <article> of ``text`` (the articles nested in it are its own: comments, cards), when the
    page's <h1> is inside it or the page has none. None (count the whole region) when there are
    several outermost articles, or an <h1> stands outside the one: text beside a teaser, the
    teasers beside a home page's intro and a body beside its headline's article are what only
    this page says, and no rule may drop them. With the page's ``url`` (from version 13), an
    <h1> inside a link to another page is none of the page's (see above): the links are read
    only where an <h1> stands outside the one article; and a card is no article of the page's
    (is_card)."""
    found, outside = _one_article(text, None)
    if outside and found is not None and url is not None:
        found, outside = _one_article(text, url)
    if outside or (found is not None and url is not None and is_card(text[slice(*found)], url)):
        return None
    return found


def is_card(text: str, url: str) -> bool:
    """Whether the marked text of an article is a card that stands for a page of the site (from
    version 13): its links all lead to that one page (another, or the page itself: the same
    block on the page it leads to), and it holds no letter or digit outside them (see above)."""
    led: str | None = None
    inside = False
    parts = text.split(MARK_EDGE)  # (text and marks alternate: the marks are at odd places)
    for place, part in enumerate(parts):
        if place % 2:
            if part[:1] == "H":
                inside = True
                page = _site_page(part[1:], url)
                if page is None or led not in (None, page):
                    return False  # (a link to no page of the site, or to a second page)
                led = page
            elif part == LINK_END_MARK[1:-1]:
                inside = False
        elif not inside and _LETTER.search(_MARKER.sub(" ", part)):
            return False
    return led is not None


def _one_article(text: str, url: str | None) -> tuple[tuple[int, int] | None, bool]:
    """The one outermost article of ``text`` (None: none, or several) and whether an <h1>
    stands outside it (with ``url``: and in no link to another page)."""
    found: tuple[int, int] | None = None
    depth = start = 0
    outside = elsewhere = False
    for marker in (_ARTICLE_MARKERS if url is None else _LINKED_MARKERS).finditer(text):
        letter = marker[1]
        if letter is None:  # (a link's mark or end)
            elsewhere = marker[0] != LINK_END_MARK and _elsewhere(marker[2], url or "")
        elif letter == HEADLINE_START[1]:
            outside = outside or not (depth or elsewhere)
        elif letter == ARTICLE_START[1]:
            if not depth:
                if found is not None:
                    return None, outside
                start = marker.end()
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                found = (start, marker.start())
    if depth:
        if found is not None:
            return None, outside
        found = (start, len(text))
    return found, outside


@lru_cache(maxsize=1 << 12)
def _site_page(value: str, url: str) -> str | None:
    """The path of the page of the site a link's target ``value`` on the page at ``url`` leads
    to, the page itself included (its fragment aside); None: no page of the site."""
    followed = targets.follow(value, url)
    if followed is None:
        return targets.spelled_page(url)
    if not followed.startswith("/"):
        return None
    return followed.partition("#")[0]


@lru_cache(maxsize=1 << 14)  # (a page's links are its template's: the same on every version read)
def _elsewhere(value: str, url: str) -> bool:
    """Whether a link's target ``value`` on the page at ``url`` leads to another page."""
    return targets.follow(value, url) is not None
