"""An ``<aside>`` in the main region that is the page's own note (fingerprint version 13)."""
# An aside is furniture wherever it stands (fingerprint.regionselect): a theme's menu, its related
# posts, its tags, a table of contents. But what only this page says is content wherever it stands,
# and docutils 0.18 writes a topic, a sidebar and every footnote as an ``<aside>`` (issue 79): a
# Sphinx upgrade took a Japanese blog post's topic out of its fingerprint, and the post was dated by
# that upgrade with no word of it changed; no edit of a footnote dated its page. So from version 13
# (amended) an aside inside the main region that leads to no other page of the site is the page's
# own note when it says a sentence's worth (MIN_LETTERS) outside its links: its words and targets
# count, and the furniture inside it (a ``nav``, a table of contents) is left out as anywhere. A
# table of contents' label beside its links ("此页内容", VuePress Theme Hope's ``<aside id=toc>``)
# is no note. An aside with a link to another page of the site (its target as the reduction spells
# one: ``/x``, not ``//host/x``, ``https://…`` or the page's own ``#part``; a link to the page
# itself is none already) navigates, teases or tags: the site's, as before; so is any aside outside
# the region (regionselect reads this only for the region).

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint.excerpts import MIN_LETTERS, count_letters
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE

FIRST_VERSION: Final = 13
# In an aside: a link's target (group 1) or an aside's start or end marker (group 2).
_PARTS: Final = re.compile(f"{MARK_EDGE}H([^{MARK_EDGE}]*)|\x02([xX])\x03")
# A link with its words, and any other mark or marker: no words of the note's own.
_LINKED: Final = f"{MARK_EDGE}H[^{MARK_EDGE}]*{MARK_EDGE}.*?{MARK_EDGE}E{MARK_EDGE}"
_NOT_SAID: Final = re.compile(
    f"{_LINKED}|{MARK_EDGE}[^{MARK_EDGE}]*(?:{MARK_EDGE}|\\Z)|\x02[a-zA-Z]\x03", re.DOTALL
)


def own_note(text: str, start: int, version: int) -> bool:
    """Whether the aside of the region's marked ``text`` whose start marker ends at ``start`` is
    the page's own note (see above) as fingerprint ``version`` reads it: no link in it, nested
    asides and furniture too, leads to another page of the site, and its words outside its links
    are a sentence's worth (excerpts.MIN_LETTERS)."""
    if version < FIRST_VERSION:
        return False
    depth = 1
    for found in _PARTS.finditer(text, start):
        target = found[1]
        if target is not None:
            if target.startswith("/") and not target.startswith("//"):
                return False
        elif found[2] == "x":
            depth += 1
        else:
            depth -= 1
            if not depth:
                return _says(text[start : found.start()])
    return _says(text[start:])


def _says(note: str) -> bool:
    """Whether ``note`` (an aside's marked text) holds a sentence's worth of words of its own,
    outside its links: a footnote, a topic; not a table of contents' label ("On this page")."""
    return count_letters(_NOT_SAID.sub(" ", note)) >= MIN_LETTERS
