"""A page's title block outside its main region (fingerprint version 5, html.scope3): the
page-level header that holds the page's ``<h1>`` when the region holds none of its own, and
whose ``<h1>`` the page's ``<title>`` names (a Docusaurus home page's hero before ``<main>``:
its headline and tagline are what only this page says; a site's banner whose ``<h1>`` is its
motto, as Hexo NexT's list pages have it, is the site's)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from sitemill.html import regions
from sitemill.html.articles import HEADLINE_END, HEADLINE_START
from sitemill.html.marks import MARK

# The markers of a page-level header (html.scope3: "h", "H") and of the page's <h1>.
_HEADER_MARKERS: Final = re.compile(f"\x02([hH{HEADLINE_START[1]}])\x03")
_MARKERS: Final = re.compile("\x02([a-zA-Z])\x03")


def outside(text: str, region: tuple[int, int]) -> str:
    """The marked text of the page's title block outside its main ``region`` of ``text``: the
    first page-level header (outside any article) before or after the region that holds an
    <h1> the page's <title> names (see above); "" if none does."""
    for part in (text[: region[0]], text[region[1] :]):
        if HEADLINE_START not in part:
            continue
        article = 0
        for found in _MARKERS.finditer(part):
            letter = found[1]
            if letter == "a":
                article += 1
            elif letter == "A":
                article = max(0, article - 1)
            elif letter == "h" and not article and holds_headline(part, found.end()):
                header = part[found.end() : _header_end(part, found.end())]
                if titled_headline(header, text):
                    return header
    return ""


def headline_beside(text: str, pieces: Iterable[str]) -> bool:
    """Whether an <h1> marker of ``text`` stands outside its ``pieces`` (a page's region,
    title and descriptions, html.furniture.region_key): its title block may be there."""
    return text.count(HEADLINE_START) > sum(piece.count(HEADLINE_START) for piece in pieces)


def titled_headline(text: str, page: str) -> bool:
    """Whether the first <h1> of ``text`` is named by the <title> of ``page`` (its letters and
    digits, in lower case, stand in the title's): the page's headline, not a site's motto."""
    found = regions.between(text, HEADLINE_START, HEADLINE_END)
    title = regions.between(page, *regions.TITLE_MARKERS)
    if found is None or title is None:
        return False
    headline = _letters(text[found[0] : found[1]])
    return bool(headline) and headline in _letters(page[title[0] : title[1]])


def holds_headline(text: str, start: int) -> bool:
    """Whether the header whose start marker ends at ``start`` holds an <h1> (its marker)
    before its end marker (nested headers closing with it; one left open runs to the end)."""
    depth = 1
    for found in _HEADER_MARKERS.finditer(text, start):
        letter = found[1]
        if letter == HEADLINE_START[1]:
            return True
        depth += 1 if letter == "h" else -1
        if not depth:
            return False
    return False


def _header_end(text: str, start: int) -> int:
    """Where the header whose start marker ends at ``start`` ends (its end marker; nested
    headers close with it; one left open runs to the end of ``text``)."""
    depth = 1
    for found in _HEADER_MARKERS.finditer(text, start):
        letter = found[1]
        if letter == "h":
            depth += 1
        elif letter == "H":
            depth -= 1
            if not depth:
                return found.start()
    return len(text)


def _letters(text: str) -> str:
    """The letters and digits of a marked ``text`` (its marks' values left out), lower case."""
    words = regions.unmarked(" ".join(text.split(MARK)[::2]))
    return "".join(filter(str.isalnum, words.casefold()))
