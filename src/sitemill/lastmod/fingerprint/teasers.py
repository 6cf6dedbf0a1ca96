"""Teasers: what another page says is that page's (fingerprint version 6)."""
# A teaser is an ``<article>`` that is not the page's own and whose first heading (``<h1>`` to
# ``<h6>``) is a link to another page of the site (not the page itself): a composition titled as
# that page, as a blog's list, tag, archive and home pages and a post's "related", "recent posts"
# and "You may also enjoy" blocks write them. Its excerpt, its date, its tags and its reading time
# are that page's words, which carry that page's own date; they change whenever that page is edited
# or a generator re-cuts its excerpts (22 of 46 pages of a Minimal Mistakes blog were re-dated by
# other posts' teasers). So:
#
# - on a list page (no article of its own), a teaser counts as the link to the page it teases with
#   its title (the heading link's words): the page moves when it lists a page more or less,
#   reorders them or retitles one, or when its own text changes, not when a teased post's excerpt,
#   date or tags do;
# - beside a post (the page has an article of its own: the one outermost article that holds the
#   page's ``<h1>``, or its one outermost article when it has no ``<h1>``), a teaser outside that
#   article is furniture, left out; a teaser inside it (a home page's article that lists the
#   recent posts) counts as its link and title. The text beside the page's article still counts
#   where it did (version 5 narrows to one outermost article only: fingerprint.articles).
#
# The shape is the evidence: a page alone cannot prove that an excerpt is another page's words, so
# a block that is not an article titled by a link to another page counts whole, as before (a list
# of ``<li>`` links with dates and excerpts may date its page later, never earlier).

from __future__ import annotations

import re
from typing import Final, NamedTuple

from sitemill.lastmod.fingerprint import selflinks, targets
from sitemill.lastmod.fingerprint.articles import (
    ARTICLE_START,
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint.marks import LINK_END_MARK, MARK
from sitemill.lastmod.fingerprint.regions import END_MARKERS

ARTICLE_END: Final = END_MARKERS["article"]
_ARTICLE, _HEADLINE, _HEADING = ARTICLE_START[1], HEADLINE_START[1], HEADING_START[1]
_TREE: Final = re.compile(
    f"\x02([{_ARTICLE}{_ARTICLE.upper()}{_HEADLINE}{HEADLINE_END[1]}{_HEADING}{HEADING_END[1]}])\x03"
)
_MARKS: Final = re.compile(f"{MARK}[^{MARK}]*(?:{MARK}|\\Z)|\x02[a-zA-Z]\x03")
_HEADING_CLOSE: Final = re.compile(f"\x02[{HEADLINE_END[1]}{HEADING_END[1]}]\x03")
_LINK: Final = re.compile(f"{MARK}H([^{MARK}]*){MARK}")


class _Article(NamedTuple):
    """An article of a marked text: where its start marker starts and its end marker ends, whether
    an <h1> stands in it, and the articles nested in it at their outermost level."""

    start: int
    end: int
    holds_headline: bool
    inner: list[_Article]


def read_teasers(text: str, url: str, *, own: bool = False) -> str:
    """``text`` (a page's marked region, its furniture left out) with each teaser (see above) as
    the link to the page it teases and its title, or left out beside the page's own article.
    ``url``: the page's URL (its links resolve from it); ``own``: ``text`` is the inside of the
    page's own article (the region is its only article), so no teaser in it stands beside it."""
    if ARTICLE_START not in text:
        return text
    articles, headline_outside = _articles(text)
    mine = None if own else _own(text, articles, headline_outside, url)
    pieces: list[str] = []
    done = 0
    for article in articles:
        if article is mine or own:
            replaced = _nested(text, article, url)
        else:
            replaced = _replaced(text, article, url, beside=mine is not None)
        if replaced is not None:
            pieces += (text[done : article.start], replaced)
            done = article.end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _nested(text: str, article: _Article, url: str) -> str | None:
    """An article (the page's own, or one that is no teaser) with the teasers nested in it as
    their links and titles (None: none)."""
    pieces: list[str] = []
    done = article.start
    for inner in article.inner:
        replaced = _replaced(text, inner, url, beside=False)
        if replaced is not None:
            pieces += (text[done : inner.start], replaced)
            done = inner.end
    if not pieces:
        return None
    pieces.append(text[done : article.end])
    return "".join(pieces)


def _replaced(text: str, article: _Article, url: str, *, beside: bool) -> str | None:
    """What an article that is not the page's own becomes: a teaser its link and title, or
    nothing ``beside`` the page's own article; any other article its nested teasers' (None:
    unchanged)."""
    link = _teaser_link(text, article, url)
    if link is None:
        return _nested(text, article, url)
    if beside:  # (an empty article: the page narrows to its own as it did with the teaser)
        return f" {ARTICLE_START}{ARTICLE_END} "
    target, title = link
    return f" {MARK}H{target}{MARK}{title}{LINK_END_MARK} "


def _own(text: str, articles: list[_Article], headline_outside: bool, url: str) -> _Article | None:
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
    return None if _teaser_link(text, found, url) is not None else found


def _teaser_link(text: str, article: _Article, url: str) -> tuple[str, str] | None:
    """The target (as written) and the title (its words) of the link to another page of the site
    that the first heading of ``article`` holds (None: it is no teaser)."""
    start = _first_heading(text, article)
    if start < 0:
        return None
    heading = _HEADING_CLOSE.search(text, start, article.end)
    end = heading.start() if heading else article.end
    found = _LINK.search(text, start, end)
    if found is None or not _another_page(found[1], url):
        return None
    link_end = text.find(LINK_END_MARK, found.end(), end)
    words = text[found.end() : link_end if link_end >= 0 else end]
    return found[1], " ".join(_MARKS.sub(" ", words).split())


def _first_heading(text: str, article: _Article) -> int:
    """Where the text of the first heading (<h1> to <h6>) inside ``article`` starts (-1: none)."""
    for found in _TREE.finditer(text, article.start + len(ARTICLE_START), article.end):
        if found[1] in (_HEADLINE, _HEADING):
            return found.end()
    return -1


def _another_page(value: str, url: str) -> bool:
    """Whether a link's target ``value`` (as written) leads to another page of the site than
    the one at ``url``: on its origin, not to the page itself (fingerprint.targets spells both)."""
    origin, _, page = targets.split_url(url)
    spelled = targets.target(value, origin, page)
    if not spelled.startswith("/"):
        return False  # (another site, mailto:, data:)
    return not url or not selflinks.is_self_link(spelled, targets.spelled_path(page))


def _articles(text: str) -> tuple[list[_Article], bool]:
    """The outermost articles of a marked ``text`` (each with those nested in it), and whether an
    <h1> stands outside them all. One left open runs to the end."""
    stack: list[tuple[int, bool, list[_Article]]] = []
    outermost: list[_Article] = []
    outside = False
    for found in _TREE.finditer(text):
        letter = found[1]
        if letter == _ARTICLE:
            stack.append((found.start(), False, []))
        elif letter == _ARTICLE.upper():
            if stack:
                start, holds, inner = stack.pop()
                _close(stack, outermost, _Article(start, found.end(), holds, inner))
        elif letter == _HEADLINE:
            if stack:
                stack[-1] = (stack[-1][0], True, stack[-1][2])
            else:
                outside = True
    while stack:
        start, holds, inner = stack.pop()
        _close(stack, outermost, _Article(start, len(text), holds, inner))
    return outermost, outside


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
