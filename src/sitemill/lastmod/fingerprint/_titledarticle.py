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
#
# From version 13 a part of the title that is the site's name names no page: a part whose words are
# the words of a link, anywhere on the page, to a page above it (the site's home, or a section the
# page stands in: its path is an ancestor of the page's). Themes write the site's name in every
# title and link it to the home page from the banner; Hexo Sakura puts it in the author card after
# each post's article, inside ``<main>``, with the post's ``<h1>`` in a header before ``<main>``:
# read by the site's name, every post's article was a teaser beside the card, and the card counted.

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sitemill.lastmod.fingerprint import _regionmarkers as regionmarkers
from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import (
    HEADLINE_END,
    HEADLINE_START,
    own_article,
)
from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint.excerpts import letters
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE


def article_finder(page: str, url: str, version: int) -> Callable[[str], tuple[int, int] | None]:
    """Where the page's own article in a region is (from version 6): titled_article, by the
    <title> of the marked ``page`` (at ``url``) and, from version 13, the site's names it
    links to (see above)."""
    found = regionmarkers.between(page, *regionmarkers.TITLE_MARKERS)
    title = "" if found is None else regionmarkers.unmark(page[found[0] : found[1]])
    names = partial(site_names, page, url) if version >= 13 else None
    own = url if version >= 13 else None
    return partial(titled_article, title=title, site_names=names, url=own)


def titled_article(
    text: str,
    title: str,
    site_names: Callable[[], frozenset[str]] | None = None,
    url: str | None = None,
) -> tuple[int, int] | None:
    """Where the text of the page's own article in ``text`` (a region, or a page without
    one, less its furniture) is: own_article's, unless the page's ``title`` (the text of its
    <title>) names neither that article's <h1> nor any text in it, and names text beside it (see
    above); None: count the whole of ``text``. ``site_names``: the letters of the site's names
    the page links to (its parts that are one name no page; None: none are). ``url``: the
    page's, from version 13 (articles.own_article: an <h1> in a link to another page)."""
    found = own_article(text, url)
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
    if site_names is not None:  # (read only here: few pages come this far)
        names = site_names()
        parts = [words for words in parts if "".join(words) not in names]
        if not any(_stands(words, beside) for words in parts):
            return found
    inside = letters(regionmarkers.unmark(text[found[0] : found[1]]))
    return found if any(_stands(words, inside) for words in parts) else None


def site_names(page: str, url: str) -> frozenset[str]:
    """The words (as letters and digits) of each link of the marked ``page`` at ``url`` to a
    page above it: its path an ancestor of the page's (see above; no ``url``: none)."""
    return _link_names(page, url, homes=False)


def home_names(text: str, url: str) -> frozenset[str]:
    """site_names of the marked ``text`` (a part of the page at ``url``), and the words of each
    of its links to the home page of another host: a site's name too, read only where a heading
    is the link (fingerprint.titleblock; a page links other sites' homes by their names)."""
    return _link_names(text, url, homes=True)


def _link_names(page: str, url: str, *, homes: bool) -> frozenset[str]:
    """site_names, and with ``homes`` home_names, of the marked ``page`` at ``url``."""
    if not url or MARK_EDGE not in page:
        return frozenset()
    own = targets.spelled_page(url)
    parts = page.split(MARK_EDGE)  # (marks and text alternate: the marks are at odd places)
    names = set()
    for place in range(1, len(parts), 2):
        if parts[place][:1] != "H":
            continue
        followed = targets.follow(parts[place][1:], url)
        if not (_above(followed, own) or (homes and _home(followed))):
            continue
        words = [parts[place + 1] if place + 1 < len(parts) else ""]
        for after in range(place + 2, len(parts), 2):
            if parts[after][:1] in "EH":
                break
            words.append(parts[after + 1] if after + 1 < len(parts) else "")
        named = letters(regionmarkers.unmark(" ".join(words)))
        if named:
            names.add(named)
    return frozenset(names)


def _above(followed: str | None, own: str) -> bool:
    """Whether a link's target (``followed``: spelled by targets.follow) is a page above the
    page whose path is ``own``: on the site, no query, its path an ancestor of ``own``."""
    if followed is None or not followed.startswith("/"):
        return False
    path = followed.partition("#")[0]
    return "?" not in path and path != own and own.startswith(path.rstrip("/") + "/")


def _home(followed: str | None) -> bool:
    """Whether a link's target (``followed``) is the home page of another host: its root, no
    query (a fragment aside)."""
    if followed is None:
        return False
    scheme, _, rest = followed.partition("#")[0].partition("//")
    host, _, path = rest.partition("/")
    return scheme in ("", "http:", "https:") and bool(host) and "?" not in rest and not path


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
