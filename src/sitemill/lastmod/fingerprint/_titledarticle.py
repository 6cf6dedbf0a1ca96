"""Whether a region's one article is the page's own, as its <title> tells (version 6)."""
# Version 5 (fingerprint.articles.own_article) narrows a region to its one outermost article when
# the page's <h1> is inside it, or when the region holds no <h1> at all. Hexo NexT's list pages
# title themselves beside the one teaser they list, and its upgrades swapped the ranks: an <h2>
# list title beside a teaser headed by an <h1>, then an <h1> list title beside an <h2> teaser,
# then an <h2> list title again with the site's motto as the <h1>. Each swap dropped or took back
# the page's own headline: what only this page says, dropped by a rule, and a date moved by a
# theme. Version 6 asks the page's <title> which text is its headline: when the article's <h1>
# (if it holds one) is not named by the title, no part of the title (fingerprint.titleparts)
# stands in the article and one stands beside it, in the region, that article is a teaser the
# page lists, not the page: the whole region counts. A part stands in a text when each of its
# words, as letters and digits, does (inline markup joins words: "name<small>Category</small>"
# holds "Category: name"'s two).

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sitemill.lastmod.fingerprint import _regionmarkers as regionmarkers
from sitemill.lastmod.fingerprint._articles import (
    HEADLINE_END,
    HEADLINE_START,
    own_article,
)
from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint.excerpts import letters


def article_finder(title: str) -> Callable[[str], tuple[int, int] | None]:
    """Where the page's own article in a region is (from version 6): titled_article
    (``title``: the text of the page's <title>)."""
    return partial(titled_article, title=title)


def titled_article(text: str, title: str) -> tuple[int, int] | None:
    """Where the text of the page's own article in ``text`` (a region, or a page without
    one, less its furniture) is: own_article's, unless the page's ``title`` (the text of its
    <title>) names neither that article's <h1> nor any text in it, and names text beside it (see
    above); None: count the whole of ``text``."""
    found = own_article(text)
    if found is None or not title:
        return found
    headline = regionmarkers.between(text, HEADLINE_START, HEADLINE_END)  # (in the article, if any)
    if headline is not None and _named(text[headline[0] : headline[1]], title):
        return found
    parts = [words for words in (_words(part) for part in split_title(title)) if words]
    # Its <title> out: a page without a region holds it beside its article.
    before, after = (
        regionmarkers.cut_title(text[: found[0]])[1],
        regionmarkers.cut_title(text[found[1] :])[1],
    )
    beside = letters(regionmarkers.unmark(before + " " + after))  # (most often little: read first)
    if not any(_stands(words, beside) for words in parts):
        return found
    inside = letters(regionmarkers.unmark(text[found[0] : found[1]]))
    return found if any(_stands(words, inside) for words in parts) else None


def _named(headline: str, title: str) -> bool:
    """Whether the marked text of an <h1> is named by ``title`` (its letters and digits stand
    in the title's): the page's headline (fingerprint.titleblock reads a banner's so)."""
    found = letters(regionmarkers.unmark(headline))
    return bool(found) and found in letters(title)


def _words(part: str) -> list[str]:
    """The words of a title's part, each as its letters and digits (excerpts.letters)."""
    return [word for word in map(letters, part.split()) if word]


def _stands(words: list[str], text: str) -> bool:
    """Whether each of ``words`` stands in ``text`` (both as letters and digits)."""
    return all(word in text for word in words)
