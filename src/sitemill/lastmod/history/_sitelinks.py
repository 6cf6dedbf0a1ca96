"""A part of links to the site's pages taken out or put in whole, named by its kind
(history.edits)."""

from __future__ import annotations

from collections import Counter
from typing import Final

from sitemill.lastmod.history._commonends import shared_ends
from sitemill.lastmod.history._targetmoves import site_target

_LINK_END: Final = "E"  # (the token of a link's end: fingerprint.targetmarks.LINK_END_MARK)

# A part taken out whole, or put in whole, whose every word stands in links to other pages of
# the site (glyphs aside: "←", "»"), is named by its kind, not by its links and words: a post's
# previous/next pager, its neighbours' titles, each post's own pair. Neighbours are furniture
# (fingerprint.reduction leaves a link out whose rel is prev or next, and a nav whole), but a
# pager without either counts, and a theme that moved it into a <nav> took out a part on every
# post that no two posts shared: each post's edit was its own, so no census found it template
# (issue 79, read97a F1: 26 of the 40 pages of a Frog blog's upgrade, 17 dated by it). Named by
# its kind, the part taken out of most pages of a commit is the template's; on fewer pages it is
# each page's own, as before, and so it is on a list page, whose links are what it lists. A
# part is two links or more: one link alone is what a page says
# as much as where it leads (a list's entry, the category an author gave each post: a Hexo blog
# whose commit put "学习" on nine posts and "实验" on five made each post's own edit), and a
# pager with one neighbour stands on the first and the last post only.
LINKS_OUT: Final = "2" + "0" * 31
LINKS_IN: Final = "3" + "0" * 31


def links_by_kind(older: list[str], newer: list[str]) -> str | None:
    """LINKS_OUT when the token sequence ``newer`` is ``older`` with one run of tokens taken
    out whole (all else kept, in order), LINKS_IN when with one put in whole, where that run
    is two or more links to other pages of the site (no scheme and host: names_host), each
    whole, words, images and nothing else inside them and no word outside them but one
    without a letter or digit (a glyph); else None."""
    if len(older) == len(newer) or not _one_way(Counter(older), Counter(newer)):
        return None
    longer, shorter = (older, newer) if len(older) > len(newer) else (newer, older)
    start, end = shared_ends(longer, shorter)
    if start + end != len(shorter):
        return None
    if not _site_links(longer[start : len(longer) - end]) or not _a_post(longer):
        return None
    return LINKS_OUT if longer is older else LINKS_IN


def _one_way(old: Counter[str], new: Counter[str]) -> bool:
    """Whether the tokens counted differently in ``old`` and ``new`` all fell, or all rose,
    a link's target among them: what a part of links taken out or put in whole changes (a
    cheap test before links_by_kind reads the sequences through)."""
    differing = {token for token, _ in old.items() ^ new.items()}
    fell = [old[token] > new[token] for token in differing]
    return any(token[:1] == "H" for token in differing) and (all(fell) or not any(fell))


def _a_post(tokens: list[str]) -> bool:
    """Whether the version whose token sequence is ``tokens`` is a post's: its words outside
    every link outnumber its links' words (as a block of links beside a post is told:
    fingerprint.linkblocks). On a list page, most of whose words are its links', the links
    put in or taken out are what it lists, its own (a category page given its posts' entries
    on most pages of a commit, each page its own: a Jigsaw blog's deploy, issue 79)."""
    inside = own = 0
    for token in tokens:
        if token[:1] == "H":
            inside = 1
        elif token == _LINK_END:
            inside = 0
        elif token[:1] == "w":
            own += -1 if inside else 1
    return own > 0


def _site_links(part: list[str]) -> bool:
    """Whether the tokens of ``part`` are two or more links to other pages of the site, each
    whole (its target, what it shows, its end), and glyphs between them (links_by_kind)."""
    inside = False
    links = 0
    for token in part:
        kind, value = token[:1], token[1:]
        if kind == "H":
            if inside or not value or not site_target(value):
                return False
            inside = True
            links += 1
        elif token == _LINK_END:
            if not inside:
                return False
            inside = False
        elif kind == "w":
            if not inside and any(char.isalnum() for char in value):
                return False
        elif not (inside and kind in "IS"):
            return False
    return links >= 2 and not inside
