"""What fingerprint version 5 reads of a page besides its region: its title, descriptions."""
# Besides its region (fingerprint.contentregion): its title by its parts (fingerprint.titleparts),
# with its end marked (marks.TITLE_END: history.templateedits reads the title apart), and its meta
# descriptions less an excerpt of the text kept (fingerprint.excerpts), before that text.

from __future__ import annotations

from sitemill.lastmod.fingerprint import excerpts, regions
from sitemill.lastmod.fingerprint.marks import TITLE_END, descriptions
from sitemill.lastmod.fingerprint.titleparts import title_parts


def whole(kept: str) -> str:
    """A page with no main region and no article of its own, ``kept`` its marked text less
    its furniture: its title, its descriptions, then the rest of its text (joined)."""
    title, kept = regions.cut_title(kept)
    said = descriptions(kept)
    for mark in said:
        kept = kept.replace(mark, " ", 1)
    return joined(title, said, kept)


def joined(title: str, said: list[str], body: str) -> str:
    """The title (by its parts, its end marked), the descriptions (an excerpt of the body
    left out) and the body of a page's selected text (see above), joined."""
    title = regions.unmarked(title)
    if said:
        said = excerpts.authored(said, body, title)
    title = title_parts(title) + TITLE_END
    return regions.unmarked(" ".join((title, *said, body)))
