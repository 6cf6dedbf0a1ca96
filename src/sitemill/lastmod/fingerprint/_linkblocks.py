"""Blocks of links beside a post: a heading over links to other pages alone (fingerprint v7)."""
# Teasers beside a post (related, recent, previous/next) are furniture, wherever they stand, and
# so is a tag cloud: what another page says is that page's. fingerprint.teasers finds them as
# articles and headings titled by a link; a theme may write them as a plain list under a heading,
# beside the post and outside every article (Jekyll Chirpy's side panel: "Recent Update", five
# links to posts, and "Trending Tags", ten links to tag pages, in a ``<div>``; a page with no
# ``<main>`` or ``<article>``, so that its author's removing the cloud from one post by hand
# re-dated the post). The block's own evidence bounds it: a heading (``<h2>`` to ``<h6>``, no link
# in it) outside every article, then nothing but links until the next heading, article or region
# marker or the end (white space between them; what stands inside a link is the link's: a card's
# date and excerpt), at least two of them to other pages of the site and the others to the page
# itself; or a heading with nothing under it at the end of the text or before such a block (such
# a list emptied: what a heading over nothing says is no word of the post). Any word, image or
# link to another site between them, and the block is text (a post's own reading list, a
# sentence with links).
#
# Such a block is left out on a post: a page whose first ``<h1>`` its ``<title>`` names and whose
# own words (outside every link, without those blocks) outnumber the words of its links, letter
# for letter. On a list page (a tag or archive page: most of its words are its links' titles) the
# blocks are what it lists and stay, each link with its title, as any list's.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint import _titleblock as titleblock
from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import HEADING_END, HEADING_START, HEADLINE_START
from sitemill.lastmod.fingerprint._regionmarkers import ARTICLE_END, ARTICLE_START
from sitemill.lastmod.fingerprint.excerpts import count_letters
from sitemill.lastmod.fingerprint.targetmarks import (
    LINK_END_MARK,
    MARK_EDGE,
    spaced_out,
)
from sitemill.lastmod.fingerprint.targetmarks import (
    MARK_OR_MARKER as _TOKEN,
)

_WORD: Final = re.compile(r"\w")
# A link's words: from its mark to its end mark (one left open: to the end).
_LINKED: Final = re.compile(
    f"{MARK_EDGE}H[^{MARK_EDGE}]*{MARK_EDGE}(.*?)(?:{LINK_END_MARK}|\\Z)", re.DOTALL
)
_LEAST_LINKS: Final = 2


def leave_out_link_blocks(text: str, url: str, page: str, version: int) -> str:
    """``text`` (a page's marked text, its furniture and teasers read) without its blocks of
    links beside a post (see above). ``url``: the page's URL; ``page``: its whole marked text;
    ``version``: the fingerprint's (titleblock.titled_headline)."""
    if HEADING_START not in text:
        return text
    blocks = _blocks(text, url)
    if not blocks:
        return text
    rest = spaced_out(text, blocks)
    headline = text if HEADLINE_START in text else page
    if not titleblock.titled_headline(headline, page, version) or not _own_words_lead(rest):
        return text
    return rest


def _own_words_lead(text: str) -> bool:
    """Whether the letters of ``text`` outside its links outnumber those inside them."""
    inside = count_letters(_TOKEN.sub(" ", " ".join(_LINKED.findall(text))))
    return count_letters(_TOKEN.sub(" ", text)) - inside > inside


def _blocks(text: str, url: str) -> list[tuple[int, int]]:
    """Where each block of links of ``text`` (see above) starts (its heading's marker) and ends,
    in order."""
    found: list[tuple[int, int]] = []
    depth = done = 0
    linked = False
    empty: tuple[int, int] | None = None
    for token in _TOKEN.finditer(text):
        if token[1] is not None:
            linked = token[1][:1] == "H" or (linked and token[0] != LINK_END_MARK)
        elif token[0] == ARTICLE_START:
            depth += 1
        elif token[0] == ARTICLE_END:
            depth = max(depth - 1, 0)
        elif token[0] == HEADING_START and not (depth or linked) and token.start() >= done:
            end = _block_end(text, token.start(), url)
            if end is None:
                empty = None
            elif end < 0:  # (a heading over nothing: a block when one follows it)
                empty = (token.start(), -end)
            else:
                if empty is not None and empty[1] == token.start():
                    found.append(empty)
                found.append((token.start(), end))
                done, empty = end, None
    return found


def _block_end(text: str, start: int, url: str) -> int | None:
    """Where the block of links whose heading's marker starts at ``start`` ends (None: no
    such block; minus where it ends: a heading over nothing before the end of the text)."""
    close = text.find(HEADING_END, start)
    if close < 0 or MARK_EDGE in text[start:close]:
        return None
    at = close + len(HEADING_END)
    linked = linked_once = False
    others: set[str] = set()
    end = len(text)
    for found in _TOKEN.finditer(text, at):
        between = text[at : found.start()]
        at = found.end()
        if not linked and _WORD.search(between):
            return None
        mark = found[1]
        if mark is None:
            if linked:
                continue
            end = found.start()
            break
        if mark[:1] == "H":
            linked = linked_once = True
            target = targets.follow(mark[1:], url)
            if target is not None:
                if not target.startswith("/"):
                    return None  # (another site, mailto:, data:)
                others.add(target)
        elif found[0] == LINK_END_MARK:
            linked = False
        elif not linked:
            return None  # (an image, a description: not a link)
    else:
        if not linked and _WORD.search(text[at:]):
            return None
    if len(others) >= _LEAST_LINKS or (not linked_once and end == len(text)):
        return end
    return -end if not linked_once else None
