"""A page's title block outside its main region (fingerprint version 5)."""
# See fingerprint.regionselect: the page-level header that holds the page's ``<h1>`` when the
# region holds none of its own, and whose ``<h1>`` the page's ``<title>`` names (a Docusaurus home
# page's hero before ``<main>``: its headline and tagline are what only this page says; a site's
# banner whose ``<h1>`` is its motto, as Hexo NexT's list pages have it, is the site's).
#
# The title names the headline when the headline's letters stand in the title's, or (from
# version 13) when one of the title's parts (fingerprint.titleparts, a parenthesis a separator
# too) stands in the headline, word for word: a generator may name the page's kind in its
# ``<h1>`` and not in its title (odoc's "Module Connection_cache.Make" under the title "Make
# (cohttp-lwt.Cohttp_lwt.Connection_cache.Make)"; version 12 left that page's preamble, which
# odoc 2.2 moved into the header beside the ``<h1>``, out as a site's banner).
#
# A page without a main region has its body for its region, and a header there that holds the
# page's ``<h1>`` is the page's own (own_headline). The title tells a site's motto from the page's
# headline: a header whose ``<h1>`` the title does not name is the site's banner when the title
# names another heading of the page (Hexo NexT: the motto in the banner's ``<h1>``, the page's
# name in an ``<h2>``); from version 13 it is the page's own when the title names no other heading
# or the page has no ``<title>``: nothing tells its ``<h1>`` from a motto, and a page's one
# headline is its own. odoc's parameter pages have no region and title themselves "_ (pkg.M.F._)"
# over the ``<h1>`` "Parameter F._" in their preamble; a Hexo Sakura page without a ``<title>``
# holds its ``<h1>`` in its header. Version 12 left both headlines out.
#
# From version 13 (amended, issue 79) the title names a headline only through its own words, never
# through the site's name, the part of it most pages share: an <h1> whose words are the words of a
# link to a page above this one (fingerprint.titledarticle.site_names, read with the page's URL),
# or that is itself a link to a home page (the site's, or another host's: a site that moved host
# links its old one until it rebuilds), is the site's name: the page's headline is its first
# other <h1>, and a header whose only <h1> is the site's name is the site's (holds_headline, on a
# page without a region), as on the pages whose text holds an <h1> of its own. Pelican Pure
# writes the site's name as the ``<h1>`` of the sidebar's header beside its menu, linked to the
# home, and titles each page "Post // site //": read as the page's title block, a link put in the
# menu re-dated the posts with no ``<h1>`` in their text (their own header, the post's ``<h1>``,
# tags and date, stays their title block). A home page has no page above it and links to itself:
# its hero stays its own. A page's headline that names a program stays its own though the page
# links that program's home elsewhere: only the <h1>'s own link says it is a site's name.

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from sitemill.lastmod.fingerprint import _regionmarkers as regionmarkers
from sitemill.lastmod.fingerprint._articles import (
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint._titledarticle import home_names, site_names
from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint.excerpts import letters, words
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE

# The markers of a page-level header (fingerprint.regionselect: "h", "H") and of the page's <h1>.
_HEADER_MARKERS: Final = re.compile(f"\x02([hH{HEADLINE_START[1]}])\x03")
_PARENTHESIS: Final = re.compile(r"[()]")
# An <h2> to <h6> (fingerprint.articles), its text as group 1.
_HEADINGS: Final = re.compile(f"{HEADING_START}(.*?)(?:{HEADING_END}|\\Z)", re.DOTALL)


def outside(text: str, region: tuple[int, int], version: int, url: str = "") -> str:
    """The marked text of the page's title block outside its main ``region`` of ``text``: the
    first page-level header (outside any article) before or after the region that holds an
    <h1> the page's <title> names (see above; ``url``: the page's); "" if none does."""
    found = outside_span(text, region, version, url)
    return "" if found is None else text[found[0] : found[1]]


def outside_span(
    text: str, region: tuple[int, int], version: int, url: str = ""
) -> tuple[int, int] | None:
    """Where the text of outside's title block stands in ``text`` (after its start marker, to
    its end marker); None: the page has none."""
    inside = text[region[0] : region[1]]
    for offset, part in ((0, text[: region[0]]), (region[1], text[region[1] :])):
        if HEADLINE_START not in part:
            continue
        article = 0
        for found in regionmarkers.LETTERED.finditer(part):
            letter = found[1]
            if letter == "a":
                article += 1
            elif letter == "A":
                article = max(0, article - 1)
            elif letter == "h" and not article:
                holds, end = header_span(part, found.end())
                if holds and _headline_of_page(part[found.end() : end], text, inside, version, url):
                    return offset + found.end(), offset + end
    return None


def _headline_of_page(header: str, page: str, region: str, version: int, url: str) -> bool:
    """Whether the <h1> of a page-level ``header`` outside the main ``region`` of ``page`` (at
    ``url``) is the page's headline: its <title> names it (titled_headline), or, from version
    13 (amended, issue 79), it is not the site's name, the region says nothing (no heading, no
    word) and the title names no other heading of the page: the page's one headline is its
    own, with an empty region as without one (a Pelican theme's sponsor pages, titled by the
    site's name alone, hold their name, byline and blurb in a header before an empty article).
    A region with a heading or words of its own tells the page's name from a banner's motto
    (Hexo NexT's list pages; a Docusaurus home page whose hero's <h1> is a motto its title
    does not name)."""
    if titled_headline(header, page, version, url):
        return True
    if version < 13 or HEADING_START in region or letters(regionmarkers.unmark(region)):
        return False
    if _headline(header, page, version, url) is None:
        return False
    return not _title_names_a_heading(page, version)


def own_headline(text: str, version: int, url: str = "") -> bool:
    """Whether the page-level header that holds the page's <h1> in ``text`` (a page without a
    main region: its body is its region) is the page's title block: its <title> names that
    <h1> (titled_headline), or, from version 13, its <title> names no other heading of it (see
    above: no title tells a motto from the page's headline). From version 13, with the page's
    ``url``, the page's <h1> is its first that is not the site's name (see above)."""
    if titled_headline(text, text, version, url):
        return True
    if version < 13 or _headline(text, text, version, url) is None:
        return False
    return not _title_names_a_heading(text, version)


def _title_names_a_heading(page: str, version: int) -> bool:
    """Whether the <title> of ``page`` names one of its <h2> to <h6> (None of a page with no
    <title>: False)."""
    title = regionmarkers.between(page, *regionmarkers.TITLE_MARKERS)
    if title is None:
        return False
    named = regionmarkers.unmark(page[title[0] : title[1]])
    return any(
        _names(named, regionmarkers.unmark(found[1]), version) for found in _HEADINGS.finditer(page)
    )


def titled_headline(text: str, page: str, version: int, url: str = "") -> bool:
    """Whether the first <h1> of ``text`` is named by the <title> of ``page`` (see above): the
    page's headline, not a site's motto; from version 13, with the page's ``url``, the first
    <h1> that is not the site's name."""
    found = _headline(text, page, version, url)
    title = regionmarkers.between(page, *regionmarkers.TITLE_MARKERS)
    if found is None or title is None:
        return False
    headline = regionmarkers.unmark(text[found[0] : found[1]])
    named = regionmarkers.unmark(page[title[0] : title[1]])
    return _names(named, headline, version)


def holds_headline(text: str, start: int, url: str = "") -> bool:
    """Whether the header whose start marker ends at ``start`` in ``text`` (a page without a
    main region) holds an <h1>; with the page's ``url`` (from fingerprint version 13), an <h1>
    that is not the site's name (see above): a header that holds only the site's name is the
    site's."""
    holds, end = header_span(text, start)
    if not holds or not url:
        return holds
    return _headline(text, text, 13, url, (start, end)) is not None


def _headline(
    text: str, page: str, version: int, url: str, within: tuple[int, int] | None = None
) -> tuple[int, int] | None:
    """Where the text of the first <h1> of ``text`` (``within`` these bounds) is; from version
    13, with ``url``, of the first that is not the site's name (a link of ``page``, at ``url``,
    says it: see above). None: none is."""
    at, stop = within or (0, len(text))
    while (start := text.find(HEADLINE_START, at, stop)) >= 0:
        begin = start + len(HEADLINE_START)
        end = text.find(HEADLINE_END, begin, stop)
        end = stop if end < 0 else end
        if version < 13 or not url or not _site_named(text, (begin, end), page, url):
            return begin, end
        at = end
    return None


def _site_named(text: str, headline: tuple[int, int], page: str, url: str) -> bool:
    """Whether the <h1> whose text stands at ``headline`` in ``text`` is the site's name (see
    above): its words are those of a link of ``page`` (at ``url``) to a page above it, or it is
    a link to a home page (the link inside it, or it inside the link)."""
    named = letters(regionmarkers.unmark(text[headline[0] : headline[1]]))
    if not named:
        return False
    linked = text[_link_around(text, headline[0] - len(HEADLINE_START)) : headline[1]]
    return named in home_names(linked, url) or named in _site_names(page, url)


@lru_cache(maxsize=4)  # (one page's headers ask in turn: its text hashed once, str caches it)
def _site_names(page: str, url: str) -> frozenset[str]:
    """titledarticle.site_names of the marked ``page`` at ``url``."""
    return site_names(page, url)


def _link_around(text: str, start: int) -> int:
    """Where the mark of the link ``text``'s position ``start`` stands inside begins (``start``
    itself: in none). Marks and text alternate between MARK_EDGE (targetmarks)."""
    parts = text[:start].split(MARK_EDGE)
    at, opened = len(parts[0]), start
    for place in range(1, len(parts), 2):
        mark = parts[place]
        if mark[:1] == "H":
            opened = at
        elif mark[:1] == "E":
            opened = start
        at += len(mark) + 2 + (len(parts[place + 1]) if place + 1 < len(parts) else 0)
    return opened


def _names(named: str, headline: str, version: int) -> bool:
    """Whether the title ``named`` names the heading ``headline`` (both unmarked, see above)."""
    if not letters(headline):
        return False
    if letters(headline) in letters(named):
        return True
    if version < 13:
        return False
    spoken = f" {words(headline)} "
    parts = (piece for part in split_title(named) for piece in _PARENTHESIS.split(part))
    return any(f" {own} " in spoken for own in map(words, parts) if own)


def header_span(text: str, start: int) -> tuple[bool, int]:
    """Of the header whose start marker ends at ``start``: whether it holds an <h1> (its
    marker), and where it ends (its end marker; nested headers close with it; one left open
    runs to the end of ``text``)."""
    depth, holds = 1, False
    for found in _HEADER_MARKERS.finditer(text, start):
        letter = found[1]
        if letter == HEADLINE_START[1]:
            holds = True
        elif letter == "h":
            depth += 1
        else:
            depth -= 1
            if not depth:
                return holds, found.start()
    return holds, len(text)
