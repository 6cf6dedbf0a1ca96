"""Whether a region's one article is the page's own, as its <title> tells (version 6)."""
# Version 5 (fingerprint.articles.own_article) narrows a region to its one outermost article when
# the page's <h1> is inside it, or when the region holds no <h1> at all. A theme whose list pages
# title themselves with an <h2> beside the one teaser they list (Hexo NexT 5.1.3 moved a category
# page's "<h1>name <small>Category</small></h1>" to an <h2> and made the site's motto the <h1>)
# then lost the page's own headline in one theme upgrade: what only this page says, dropped by a
# rule. Version 6 reads the page's headline from its <title> where no <h1> tells: when no part of
# the title (fingerprint.titleparts) stands in the one article and one stands beside it, in the
# region, that article is a teaser the page lists, not the page: the whole region counts. A part
# stands in a text when each of its words, as letters and digits, does (inline markup joins
# words: "name<small>Category</small>" holds "Category: name"'s two).

from __future__ import annotations

from sitemill.lastmod.fingerprint import regions
from sitemill.lastmod.fingerprint.articles import HEADLINE_START, own_article
from sitemill.lastmod.fingerprint.excerpts import letters
from sitemill.lastmod.fingerprint.titleparts import parts_of


def titled_article(text: str, title: str) -> tuple[int, int] | None:
    """Where the text of the page's own article in ``text`` (a region, or a page without
    one, less its furniture) is: own_article's, unless ``text`` holds no <h1> and the page's
    ``title`` (the text of its <title>) names text beside that article and none in it (see
    above); None: count the whole of ``text``."""
    found = own_article(text)
    if found is None or HEADLINE_START in text or not title:
        return found  # (an <h1> in ``text`` is in the article: own_article)
    parts = [words for words in (_words(part) for part in parts_of(title)) if words]
    inside = letters(regions.unmarked(text[found[0] : found[1]]))
    if not parts or any(_stands(words, inside) for words in parts):
        return found
    beside = regions.unmarked(_untitled(text[: found[0]]) + " " + _untitled(text[found[1] :]))
    if any(_stands(words, letters(beside)) for words in parts):
        return None
    return found


def _words(part: str) -> list[str]:
    """The words of a title's part, each as its letters and digits (excerpts.letters)."""
    return [word for word in map(letters, part.split()) if word]


def _stands(words: list[str], text: str) -> bool:
    """Whether each of ``words`` stands in ``text`` (both as letters and digits)."""
    return all(word in text for word in words)


def _untitled(text: str) -> str:
    """``text`` without its <title> (a page without a region holds it beside its article)."""
    found = regions.between(text, *regions.TITLE_MARKERS)
    if found is None:
        return text
    start = found[0] - len(regions.TITLE_MARKERS[0])
    return text[:start] + " " + text[found[1] + len(regions.TITLE_MARKERS[1]) :]
