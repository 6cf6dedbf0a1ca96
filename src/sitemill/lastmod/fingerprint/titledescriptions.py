"""What the fingerprint reads of a page besides its region: its title and descriptions."""
# Besides its region (fingerprint.regionselect): its title by its parts (fingerprint.titleparts),
# with its end marked (targetmarks.TITLE_END: history.templateedits reads the title apart), and its
# meta descriptions less an excerpt of the text kept (fingerprint.excerpts), before that text.

from __future__ import annotations

from sitemill.lastmod.fingerprint import excerpts, regionmarkers
from sitemill.lastmod.fingerprint.targetmarks import TITLE_END, descriptions
from sitemill.lastmod.fingerprint.titleparts import title_parts


def join_page(kept: str) -> str:
    """A page with no main region and no article of its own, ``kept`` its marked text less
    its furniture: its title, its descriptions, then the rest of its text (joined)."""
    title, kept = regionmarkers.cut_title(kept)
    said = descriptions(kept)
    for mark in said:
        kept = kept.replace(mark, " ", 1)
    return join_selection(title, said, kept)


def join_selection(title: str, said: list[str], body: str) -> str:
    """The title (by its parts, its end marked), the descriptions (an excerpt of the body
    left out) and the body of a page's selected text (see above), joined."""
    title = regionmarkers.unmark(title)
    if said:
        said = excerpts.own_descriptions(said, body, title)
    title = title_parts(title) + TITLE_END
    return regionmarkers.unmark(" ".join((title, *said, body)))
