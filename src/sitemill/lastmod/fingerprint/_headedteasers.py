"""Teasers that are no article: a heading titled by a link (fingerprint version 6)."""
# fingerprint.teasers reads an ``<article>`` titled by a link to another page; a theme may write
# the same teaser as ``<div>``s (Hugo Ananke: a section label, an ``<h1>`` whose link leads to the
# post, its excerpt, and a "read more" link to it again). The marked text has no ``<div>``, so the
# block's own evidence bounds it: a heading (outside every article) whose link leads to another
# page of the site opens it, and the last link to that same page before the next heading, article
# or region marker closes it (under an ``<h1>`` title, its excerpt's lower headings are its own);
# what stands between is that page's words (its excerpt, its date). Text between two such teasers
# (one's closing link, the next one's heading, nothing else between) is theirs too (a list's own
# words do not stand between its entries). Anything else counts: a heading whose text has no
# second link to its page (a docs page's section) is the page's own. From version 7, a teaser
# stands for one page, and prose that mentions it is not one: a block in which the page is linked
# again before its closing link (an FAQ whose headline names the project's main page by a link and
# whose sentences link to it nine times) is the page's own words.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import (
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_END, ARTICLE_START
from sitemill.lastmod.fingerprint.targetmarks import LINK_END_MARK, MARK_EDGE

# An article's start or end, a heading's start (<h1>, <h2> to <h6>).
_OPENINGS: Final = re.compile("\x02[aAgk]\x03")
_CLOSES: Final = {"\x02g\x03": HEADLINE_END, "\x02k\x03": HEADING_END}
_LINK: Final = re.compile(f"{MARK_EDGE}H([^{MARK_EDGE}]*){MARK_EDGE}")
_MARKS: Final = re.compile(f"{MARK_EDGE}[^{MARK_EDGE}]*(?:{MARK_EDGE}|\\Z)|\x02[a-zA-Z]\x03")


def read_headed(text: str, url: str) -> str:
    """``text`` (a marked region) with each teaser (see above) outside its articles as its
    heading with the link to the page it teases and its title."""
    if "\x02" not in text:
        return text
    pieces: list[str] = []
    done = after_teaser = depth = 0
    for found in _OPENINGS.finditer(text):
        marker = found[0]
        if marker == ARTICLE_START:
            depth += 1
            continue
        if marker == ARTICLE_END:
            depth = max(depth - 1, 0)
            continue
        if depth or found.start() < done:
            continue
        teaser = _teaser(text, found.start(), marker, url)
        if teaser is None:
            continue
        end, replaced = teaser
        gap = text[after_teaser : found.start()]
        start = (
            after_teaser if pieces and "\x02" not in gap and MARK_EDGE not in gap else found.start()
        )
        pieces += (text[done:start], replaced)
        done = after_teaser = end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _limit(text: str, start: int, marker: str) -> int:
    """Where the next heading, article or region marker after ``start`` stands (none: the end);
    under an <h1> title (``marker``), the lower headings of its excerpt are no limit."""
    at = text.find("\x02", start)
    while (
        at >= 0 and marker == HEADLINE_START and text[at : at + 3] in (HEADING_START, HEADING_END)
    ):
        at = text.find("\x02", at + 3)
    return len(text) if at < 0 else at


def _teaser(text: str, start: int, marker: str, url: str) -> tuple[int, str] | None:
    """Where the teaser whose heading marker starts at ``start`` ends, and what it becomes
    (None: no teaser) on the page at ``url``."""
    close = text.find(_CLOSES[marker], start)
    if close < 0:
        return None
    link = _LINK.search(text, start, close)
    if link is None:
        return None
    target = link[1]
    found = targets.follow(target, url)
    if found is None or not found.startswith("/"):
        return None
    limit = _limit(text, close + len(HEADLINE_END), marker)
    closing = [m for m in _LINK.finditer(text, close, limit) if m[1] == target]
    if len(closing) != 1:
        return None
    end = text.find(LINK_END_MARK, closing[-1].end(), limit)
    if end < 0:
        return None
    stop = text.find(LINK_END_MARK, link.end(), close)
    words = text[link.end() : close if stop < 0 else stop]
    title = " ".join(_MARKS.sub(" ", words).split())
    replaced = f" {marker}{MARK_EDGE}H{target}{MARK_EDGE}{title}{LINK_END_MARK}{_CLOSES[marker]} "
    return end + len(LINK_END_MARK), replaced
