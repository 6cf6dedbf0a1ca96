"""Teasers: what another page says is that page's (fingerprint version 6)."""
# A teaser is an ``<article>`` that is not the page's own and whose first heading (``<h1>`` to
# ``<h6>``) is a link to another page of the site (not the page itself), or stands inside one (a
# card that is one link: Jekyll Chirpy), or whose one link has no words and leads there (a link
# laid over the card: Hugo PaperMod): a composition titled as that page, on a blog's list, tag,
# archive and home pages and in a post's "related" or "You may also enjoy" block. Its excerpt,
# date, tags and reading time are that page's words, which carry that page's own date (22 of 46
# pages of a Minimal Mistakes blog were re-dated by other posts' excerpts). So:
# - a teaser counts as the link to the page it teases with its title (the heading link's words,
#   else the heading's): a list page moves when it lists a page more or less, reorders them or
#   retitles one, or when its own text changes, not when a teased post's excerpt or date does;
# - beside a post it is furniture, left out: the page's own article (the one outermost article
#   that holds the page's ``<h1>``, none outside it, or with no ``<h1>`` its one outermost
#   article, never a teaser) holds the headline the page's ``<title>`` names, and a heading
#   outside every article stands between it and the teaser (the teasers are a block of their
#   own). A home page's intro article beside its teasers (Hugo PaperMod's) is neither: its
#   teasers are its list.
# The shape is the evidence: a block that is no article titled by a link to another page (an
# ``<li>`` with a link, a date, an excerpt) counts whole (its page may be dated later, not earlier).
# From version 13 (amended, issue 79) a page's only article whose first heading leads to another
# page of the site is a teaser when the page's ``<title>`` does not name that heading: a list of
# one. Pelican's bootstrap3 theme lists a tag's one post as one ``<article>`` (no ``<main>``), its
# ``<h2>`` the link to the post, then the post's date, tags and excerpt; read as the page's own
# article (its region), the excerpt's truncation mark ("…" for "...") dated 39 tag pages. A post
# whose ``<h2>`` is its permalink leads to no other page, and a post's ``<title>`` names its
# headline: each stays its page's own article (fingerprint.regionselect reads the page as one
# without a region, as it reads a lone card: fingerprint.articles.is_card).
# From version 9, in a list of articles (two or more, outermost), a teaser may stand for a page on
# another host too: a site whose absolute links named its old host (a Zola list page before its
# custom domain was dropped: ``https://rust.azdevs.org/2019-03-27/``) listed teasers that version 8
# read whole, excerpts and dates, and read as teasers once the links named the new host, so the
# move of the site's host re-dated its six list pages.

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Final, NamedTuple

from sitemill.lastmod.fingerprint import _titleblock as titleblock
from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import (
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint._declaredroot import DeclaredRoot, at_home
from sitemill.lastmod.fingerprint._headedteasers import read_headed
from sitemill.lastmod.fingerprint._regionmarkers import (
    ARTICLE_END,
    ARTICLE_START,
    TITLE_MARKERS,
    between,
    unmark,
)
from sitemill.lastmod.fingerprint.excerpts import letters
from sitemill.lastmod.fingerprint.targetmarks import LINK_END_MARK, MARK_EDGE

_ARTICLE, _HEADLINE, _HEADING = ARTICLE_START[1], HEADLINE_START[1], HEADING_START[1]
_TREE: Final = re.compile(
    f"\x02([{_ARTICLE}{_ARTICLE.upper()}{_HEADLINE}{HEADLINE_END[1]}{_HEADING}{HEADING_END[1]}])\x03"
)
_MARKS: Final = re.compile(f"{MARK_EDGE}[^{MARK_EDGE}]*(?:{MARK_EDGE}|\\Z)|\x02[a-zA-Z]\x03")
_HEADING_CLOSE: Final = re.compile(f"\x02[{HEADLINE_END[1]}{HEADING_END[1]}]\x03")
_MARK: Final = re.compile(f"{MARK_EDGE}([^{MARK_EDGE}]*)(?:{MARK_EDGE}|\\Z)")


class _Where(NamedTuple):
    """The page's URL, and whether a teaser may stand for a page on another host (version 9)."""

    url: str
    elsewhere: bool
    root: DeclaredRoot | None = None  # (the root the page declares: lone_teaser)


_LISTED: Final = 2  # (articles in a list: from version 9, teasers of pages on any host)
_WEB: Final = ("http://", "https://")


class _Article(NamedTuple):
    """An article: where its markers start and end, whether an <h1> is in it, those in it."""

    start: int
    end: int
    holds_headline: bool
    inner: list[_Article]


def read_teasers(
    text: str,
    url: str,
    *,
    own: bool = False,
    page: str = "",
    version: int,
    root: DeclaredRoot | None = None,
) -> str:
    """``text`` (a page's marked region, its furniture left out) with each teaser (see above) as
    the link to the page it teases and its title, or left out beside the page's own article.
    ``url``: the page's URL (its links resolve from it); ``own``: ``text`` is the inside of the
    page's own article (the region is its only article), so no teaser in it stands beside it;
    ``page``: the page's whole marked text (its <title>); ``version``: the fingerprint's;
    ``root``: the root the page's canonical declares, its links read at it (declaredroot). Each
    teaser stays an article, so that the region narrows to the page's article where version 5
    narrowed it. A teaser that is no article (fingerprint.headedteasers) counts as its heading's
    link and title."""
    text = read_headed(text, url)
    if ARTICLE_START not in text:
        return text
    articles, headline_outside, headings = _articles(text)
    where = _Where(url, elsewhere=len(articles) >= _LISTED, root=root)
    mine = None if own else _own(text, articles, headline_outside, where)
    post: bool | None = None  # (asked once, when a teaser stands beside the page's article)
    replacements: list[tuple[_Article, str | None]] = []
    for article in articles:
        if article is mine or own:
            replaced = _nested(text, article, where)
        else:
            if mine is not None and post is None and _grouped(headings, mine, article):
                post = titleblock.titled_headline(text[mine.start : mine.end], page, version)
            beside = bool(post) and mine is not None and _grouped(headings, mine, article)
            replaced = _replaced(text, article, where, beside=beside)
        replacements.append((article, replaced))
    return text if (spliced := _spliced(text, 0, len(text), replacements)) is None else spliced


def lone_teaser(article: str, url: str, page: str, root: DeclaredRoot | None = None) -> bool:
    """Whether the marked text of a page's only article (``article``, its markers in it) is a
    teaser (from version 13: see above): its first heading leads to another page of the site
    (as _teaser_link reads it) and the <title> of the marked ``page`` at ``url`` does not name
    that heading's words (a page with no title: none is). Its links are read at the ``root``
    the page's canonical declares, as its targets are (fingerprint.declaredroot): a page whose
    links and canonical name the site's old host leads to the site's pages all the same."""
    where = _Where(url, False, root)
    link = _teaser_link(article, _Article(0, len(article), False, []), where)
    if link is None or _another_heading_link(article, link[0], where):
        return False
    found = between(page, *TITLE_MARKERS)
    title = letters(unmark(page[found[0] : found[1]])) if found is not None else ""
    return bool(title) and letters(link[1]) not in title


def _another_heading_link(article: str, target: str, where: _Where) -> bool:
    """Whether a heading of ``article`` after its first holds a link to another page of the site
    than ``target``'s: the article is a list of several (a blog page that writes its posts,
    each under a linked ``<h2>``, in one ``<article>``), not one teaser."""
    led = targets.follow(target, where.url)
    heading = _HEADING_CLOSE.search(article)
    for found in _TREE.finditer(article, heading.end() if heading else len(article)):
        if found[1] not in (_HEADLINE, _HEADING):
            continue
        close = _HEADING_CLOSE.search(article, found.end())
        for _, value in _links(article, found.end(), close.start() if close else len(article)):
            if _another_page(value, where) and targets.follow(value, where.url) != led:
                return True
    return False


def _spliced(
    text: str, start: int, end: int, replacements: Iterable[tuple[_Article, str | None]]
) -> str | None:
    """``text[start:end]`` with each article of ``replacements`` put in as its replacement
    (None: kept), None when none is; the articles in order, inside it."""
    pieces: list[str] = []
    done = start
    for article, replaced in replacements:
        if replaced is not None:
            pieces += (text[done : article.start], replaced)
            done = article.end
    return "".join((*pieces, text[done:end])) if pieces else None


def _grouped(headings: list[int], mine: _Article, article: _Article) -> bool:
    """Whether a heading outside every article stands between the page's own article and
    ``article``: the teasers are a block of their own ("You may also enjoy")."""
    start, end = (
        (mine.end, article.start) if mine.end <= article.start else (article.end, mine.start)
    )
    return any(start <= at < end for at in headings)


def _nested(text: str, article: _Article, where: _Where) -> str | None:
    """An article (the page's own, or one that is no teaser) with the teasers nested in it as
    their links and titles (None: none)."""
    inner = ((one, _replaced(text, one, where, beside=False)) for one in article.inner)
    return _spliced(text, article.start, article.end, inner)


def _replaced(text: str, article: _Article, where: _Where, *, beside: bool) -> str | None:
    """What an article that is not the page's own becomes: a teaser an article of its link and
    title, or an empty one ``beside`` the page's own article; any other article its nested
    teasers' (None: unchanged)."""
    link = _teaser_link(text, article, where)
    if link is None:
        return _nested(text, article, where)
    if beside:
        return f" {ARTICLE_START}{ARTICLE_END} "
    target, title = link
    return f" {ARTICLE_START}{MARK_EDGE}H{target}{MARK_EDGE}{title}{LINK_END_MARK}{ARTICLE_END} "


def _own(
    text: str, articles: list[_Article], headline_outside: bool, where: _Where
) -> _Article | None:
    """The page's own article among the outermost ``articles``: the one that holds the page's
    <h1> (none standing outside them), or with no <h1> the only one; never a teaser."""
    if headline_outside:
        return None
    holding = [article for article in articles if article.holds_headline]
    if len(holding) == 1:
        found = holding[0]
    elif not holding and len(articles) == 1:
        found = articles[0]
    else:
        return None
    return None if _teaser_link(text, found, where) is not None else found


def _teaser_link(text: str, article: _Article, where: _Where) -> tuple[str, str] | None:
    """The target (as written) and the title (its words) of the page that ``article`` teases:
    the link to another page of the site that its first heading holds (its words the title), or
    that holds its first heading (a card that is one link), or its one link when that link has no
    words (a link laid over the card); then the heading's words are the title. None: no teaser."""
    start = _first_heading(text, article)
    if start < 0:
        return None
    heading = _HEADING_CLOSE.search(text, start, article.end)
    end = heading.start() if heading else article.end
    inside = _links(text, start, end, 1)
    target: str | None
    if inside:
        at, target = inside[0]
        close = text.find(LINK_END_MARK, at, end)
        words = text[_after_mark(text, at) : close if close >= 0 else end]
    else:
        target = _holding(text, _links(text, article.start, start), start)
        if target is None:
            links = _links(text, article.start, article.end, 2)
            if len(links) == 1 and not _words(_link_words(text, links[0][0])):
                target = links[0][1]
        words = text[start:end]
    if target is None or not _another_page(target, where):
        return None
    return target, _words(words)


def _links(text: str, start: int, end: int, most: int | None = None) -> list[tuple[int, str]]:
    """Where each link mark of ``text[start:end]`` starts (the first ``most``), and its target
    as written (marks read in turn from a place outside any: a value is never read as one)."""
    found = (
        (mark.start(), mark[1][1:])
        for mark in _MARK.finditer(text, start, end)
        if mark[1][:1] == "H"
    )
    return list(islice(found, most))


def _holding(text: str, links: list[tuple[int, str]], start: int) -> str | None:
    """The target of the link that holds the place ``start`` (no link end between them)."""
    if not links or LINK_END_MARK in text[links[-1][0] : start]:
        return None
    return links[-1][1]


def _link_words(text: str, at: int) -> str:
    """The text of the link whose mark starts at ``at``, to its end mark."""
    after = _after_mark(text, at)
    close = text.find(LINK_END_MARK, after)
    return text[after : close if close >= 0 else len(text)]


def _after_mark(text: str, at: int) -> int:
    """Where the text after the mark that starts at ``at`` starts (one left open: the end)."""
    return (text.find(MARK_EDGE, at + 1) + 1) or len(text)


def _words(text: str) -> str:
    """The words of a marked text, marks and markers left out."""
    return " ".join(_MARKS.sub(" ", text).split())


def _first_heading(text: str, article: _Article) -> int:
    """Where the text of the first heading (<h1> to <h6>) inside ``article`` starts (-1: none)."""
    for found in _TREE.finditer(text, article.start + len(ARTICLE_START), article.end):
        if found[1] in (_HEADLINE, _HEADING):
            return found.end()
    return -1


def _another_page(value: str, where: _Where) -> bool:
    """Whether a link's target ``value`` (as written) leads to another page of the site than
    the one at ``where``: on its origin, not to the page itself (fingerprint.targets spells both);
    with ``where.elsewhere`` (version 9, a list of articles), or on another host (see above)."""
    found = targets.follow(at_home(value, where.root), where.url)
    if found is None:
        return False
    return found.startswith("/") or (where.elsewhere and found.startswith(_WEB))


def _articles(text: str) -> tuple[list[_Article], bool, list[int]]:
    """The outermost articles of a marked ``text`` (each with those nested in it), whether an
    <h1> stands outside them all, and where the headings outside them all stand. One left open
    runs to the end."""
    stack: list[tuple[int, bool, list[_Article]]] = []
    outermost: list[_Article] = []
    outside = False
    headings: list[int] = []
    for found in _TREE.finditer(text):
        letter = found[1]
        if letter == _ARTICLE:
            stack.append((found.start(), False, []))
        elif letter == _ARTICLE.upper():
            if stack:
                start, holds, inner = stack.pop()
                _close(stack, outermost, _Article(start, found.end(), holds, inner))
        elif not stack:
            if letter in (_HEADLINE, _HEADING):
                headings.append(found.start())
            outside = outside or letter == _HEADLINE
        elif letter == _HEADLINE:
            stack[-1] = (stack[-1][0], True, stack[-1][2])
    while stack:
        start, holds, inner = stack.pop()
        _close(stack, outermost, _Article(start, len(text), holds, inner))
    return outermost, outside, headings


def _close(
    stack: list[tuple[int, bool, list[_Article]]], outermost: list[_Article], article: _Article
) -> None:
    """An article closed: nested in the one open around it (which then holds its <h1> too), or
    one of the outermost."""
    if not stack:
        outermost.append(article)
        return
    start, holds, inner = stack[-1]
    inner.append(article)
    stack[-1] = (start, holds or article.holds_headline, inner)
