"""Which article of a region is the page's (fingerprint.contentregion)."""
# Its one ``<article>``; from fingerprint version 4, of several, the one that holds the page's
# ``<h1>``.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint.regions import END_MARKERS, START_MARKERS

ARTICLE_START: Final = START_MARKERS["article"]
_ARTICLE_END: Final = END_MARKERS["article"]
# The markers of the page's headline (<h1>), which contentregion writes from version 3 on.
HEADLINE_START: Final = "\x02g\x03"
HEADLINE_END: Final = "\x02G\x03"
# The markers of the other headings (<h2> to <h6>), which contentregion writes from version 3 on
# (and versions before 6 read as spaces): a teaser's title (fingerprint.teasers).
HEADING_START: Final = "\x02k\x03"
HEADING_END: Final = "\x02K\x03"
HEADINGS: Final = (
    {"h1": HEADLINE_START} | dict.fromkeys(("h2", "h3", "h4", "h5", "h6"), HEADING_START),
    {"h1": HEADLINE_END} | dict.fromkeys(("h2", "h3", "h4", "h5", "h6"), HEADING_END),
)  # (the start and end markers by the tag's name)
_ARTICLE_MARKERS: Final = re.compile(
    "\x02([%s])\x03" % (ARTICLE_START[1] + _ARTICLE_END[1] + HEADLINE_START[1])
)


def one_article(text: str, version: int = 3) -> tuple[int, int] | None:
    """Where the text of the one <article> of ``text`` is (None: none, or more than one; from
    ``version`` 4, of several, the one that holds the headline: headline_article)."""
    start = text.find(ARTICLE_START)
    if start < 0:
        return None
    if text.find(ARTICLE_START, start + 1) >= 0:
        return headline_article(text) if version >= 4 else None
    start += len(ARTICLE_START)
    end = text.find(_ARTICLE_END, start)
    return start, len(text) if end < 0 else end


def headline_article(text: str) -> tuple[int, int] | None:
    """Where the text of the one outermost <article> of ``text`` that holds an <h1> is: the
    page's own, where the others are teasers (Minimal Mistakes' "You may also enjoy" beside a
    post). None when no article or several hold one, or an <h1> stands outside every article
    (a list page's headline over its teasers). One left open runs to the end."""
    found: tuple[int, int] | None = None
    depth = start = 0
    holds = False
    for marker in _ARTICLE_MARKERS.finditer(text):
        letter = marker[1]
        if letter == HEADLINE_START[1]:
            if not depth:
                return None
            holds = True
        elif letter == ARTICLE_START[1]:
            if not depth:
                start, holds = marker.end(), False
            depth += 1
        elif depth:
            depth -= 1
            if not depth and holds:
                if found is not None:
                    return None
                found = (start, marker.start())
    if depth and holds:
        return None if found is not None else (start, len(text))
    return found


def own_article(text: str) -> tuple[int, int] | None:
    """Where the text of the page's own article is, as version 5 reads it: the one outermost
    <article> of ``text`` (the articles nested in it are its own: comments, cards), when the
    page's <h1> is inside it or the page has none. None (count the whole region) when there are
    several outermost articles, or an <h1> stands outside the one: text beside a teaser, the
    teasers beside a home page's intro and a body beside its headline's article are what only
    this page says, and no rule may drop them."""
    found: tuple[int, int] | None = None
    depth = start = 0
    outside = False
    for marker in _ARTICLE_MARKERS.finditer(text):
        letter = marker[1]
        if letter == HEADLINE_START[1]:
            outside = outside or not depth
        elif letter == ARTICLE_START[1]:
            if not depth:
                if found is not None:
                    return None
                start = marker.end()
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                found = (start, marker.start())
    if depth:
        if found is not None:
            return None
        found = (start, len(text))
    if found is None or outside:
        return None
    return found
