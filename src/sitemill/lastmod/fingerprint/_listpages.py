"""A list page's content is which pages it lists: not their dates, not the pager's count (v9)."""
# What another page says is that page's, and a list page's content is its own text and which pages
# it lists, in which order, under which titles (fingerprint.teasers reads a teaser that is an
# article or a heading so). A list written as plain entries, each a link to another page of the site
# beside a date and nothing else (Nikola's tag, category and year pages: ``<li><time>2015-10-03
# 20:28</time><a href=…>title</a></li>``), shows each listed page's date: a post re-dated, or a
# theme that moves the date from after the link to before it or shows one per entry, re-dated 39 of
# a Nikola blog's list pages. From version 9:
#
# - **A listed page's date**: a date (fingerprint.selfdates' grammar: numbers in any order, an
#   English month's name, 2024年3月9日; a time of day after it) that stands alone between a link to
#   another page (of the site, or on another host: a site whose links named the host it moved
#   from) and the marks or markers around it (nothing but white space and signs
#   beside it: no word of a sentence) is that page's, and left out, on a list page: a text whose
#   words outside links and headings (those dates left out; a heading is the list's title) do not
#   outnumber, letter for letter, the words of its links to other pages. On a post, a
#   date beside a link stays its own words.
# - **The pager's count**: a paginated list page (its URL's last segment a number, as /page/2/ or
#   /page-list/1/) that writes itself as "N/M" (its number, then how many pages the list has: an
#   Eleventy blog's "Page List 1/5" → "1/6", in its <title> and headline, when a post was added to
#   the last page) counts as N alone: how many pages follow is the pager's, navigation.
# - **A link's end with no link open** (an ``<a>`` with no ``href``: Nikola's list entries gained an
#   empty one) is no word and no link: left out.

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final
from urllib.parse import urlsplit

from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import (
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint._selfdates import ANY_DATE
from sitemill.lastmod.fingerprint.excerpts import count_letters
from sitemill.lastmod.fingerprint.targetmarks import (
    LINK_END_MARK,
    MARK_EDGE,
    spaced_out,
)
from sitemill.lastmod.fingerprint.targetmarks import (
    MARK_OR_MARKER as _TOKEN,
)

# A piece of text that is one date and signs or white space beside it, no letter or digit.
_ALONE: Final = re.compile(rf"[\W_]*?(?P<date>{ANY_DATE})[\W_]*", re.IGNORECASE | re.VERBOSE)
_HEADINGS: Final = {
    HEADLINE_START: True,
    HEADING_START: True,
    HEADLINE_END: False,
    HEADING_END: False,
}
# A page's own number in its URL's last segment (index.html, a number's .html), and "N/M".
_NUMBERED: Final = re.compile(r"/(\d{1,4})(?:/(?:index\.html?)?|\.html?)?\Z", re.IGNORECASE)


def leave_out_listed_dates(text: str, url: str) -> str:
    """``text`` (a page's marked text, its region or article) without the dates of the pages it
    lists (see above) when it is a list page; as it is otherwise. ``url``: the page's URL."""
    if MARK_EDGE not in text:
        return text
    tokens = list(_TOKEN.finditer(text))
    listed: list[tuple[int, int]] = []  # (each such date's piece of text)
    own = linked = 0
    opened: bool | None = None  # (in a link: whether to another page)
    closed_other = False  # (the last token closed a link to another page)
    headed = False  # (in a heading: the list's title, neither its own words nor its links')
    done = 0
    for token in [*tokens, None]:
        start = len(text) if token is None else token.start()
        piece = text[done:start]
        letters = 0 if headed else count_letters(piece)
        if opened is not None:
            linked += letters if opened else 0
            own += 0 if opened else letters
        elif letters:
            following = None if token is None else token[1]
            if _alone(piece) and (closed_other or _leads_on(following, url)):
                listed.append((done, start))
            else:
                own += letters
        if token is None:
            break
        done = token.end()
        mark = token[1]
        closed_other = False
        if mark is None:
            if token[0] in _HEADINGS:
                headed = _HEADINGS[token[0]]
            continue
        if mark[:1] == "H":
            opened = _leads_on(mark, url)
        elif token[0] == LINK_END_MARK:
            closed_other = bool(opened)
            opened = None
    if not listed or own > linked:
        return text
    return spaced_out(text, listed)


def without_stray_ends(text: str) -> str:
    """``text`` without the end marks of links that close no link (see above)."""
    if LINK_END_MARK not in text:
        return text
    pieces: list[str] = []
    done = 0
    opened = False
    for token in _TOKEN.finditer(text):
        mark = token[1]
        if mark is None:
            continue
        if mark[:1] == "H":
            opened = True
        elif token[0] == LINK_END_MARK:
            if not opened:
                pieces += (text[done : token.start()], " ")
                done = token.end()
            opened = False
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _alone(piece: str) -> bool:
    """Whether ``piece`` is one date with nothing but white space and signs beside it."""
    return _ALONE.fullmatch(piece.strip()) is not None


@lru_cache(maxsize=1 << 14)  # (a page's links are its template's: the same on every version read)
def _leads_on(mark: str | None, url: str) -> bool:
    """Whether ``mark`` (a mark's kind and value) is a link to another page: of the site, or
    on another host (a site whose links named the host it moved from; a list of other sites'
    pages, their dates theirs too)."""
    if not mark or mark[:1] != "H":
        return False
    found = targets.follow(mark[1:], url)
    return found is not None and found.startswith(("/", "http://", "https://"))


def read_pager(text: str, url: str) -> str:
    """``text`` with the pager's count after the page's own number left out (see above): "N/M"
    as "N", where N is the number that ends the page's ``url``."""
    found = _NUMBERED.search(urlsplit(url).path) if "/" in text else None
    if found is None:
        return text
    number = str(int(found[1]))
    return re.sub(rf"(?<![\d/])0*{number}\s?/\s?\d{{1,4}}(?![\d/])", number, text)
