"""A post's neighbours: links to the page before and after it (fingerprint version 6)."""
# A link whose rel is "prev" or "next" (HTML's link types: the page is part of a sequence and
# the link leads to the one before or after it) says which page stands beside this one: a post's
# "previous post"/"next post" links, whose words are the neighbour's title (its words, not this
# page's: a Gatsby blog re-dated 7 posts when a neighbour was published or retitled). What
# another page says is that page's: version 6 leaves such a link out, its target and words, and
# keeps the markers inside it; version 5 reads the link as any other.

from __future__ import annotations

from sitemill.lastmod.fingerprint.regionmarkers import ANY_MARKER
from sitemill.lastmod.fingerprint.targetmarks import LINK_END_MARK, NEIGHBOUR_MARK


def read_neighbours(text: str, version: int) -> str:
    """``text`` (a reduction before its region is selected) with each link marked as a
    neighbour left out (``version`` 6; 5 leaves only the neighbour marks out). A link left
    open: only its mark."""
    if NEIGHBOUR_MARK not in text:
        return text
    if version < 6:
        return text.replace(NEIGHBOUR_MARK, "")
    pieces: list[str] = []
    done = 0
    at = text.find(NEIGHBOUR_MARK)
    while at >= 0:
        end = text.find(LINK_END_MARK, at)
        pieces.append(text[done:at])
        if end < 0:
            done = at + len(NEIGHBOUR_MARK)
            break
        pieces += (" ", *ANY_MARKER.findall(text, at, end), " ")
        done = end + len(LINK_END_MARK)
        at = text.find(NEIGHBOUR_MARK, done)
    pieces.append(text[done:].replace(NEIGHBOUR_MARK, ""))
    return "".join(pieces)
