"""A title's words that restate the page (history.edits names them by their kind)."""

from __future__ import annotations

from collections import Counter
from typing import Final

from sitemill.lastmod.history._targetmoves import REPEAT

# The title's words put in or taken out that restate the page (restated_title_words), named by
# their kind.
RESTATED: Final = "t" + REPEAT + "restated"


def restated_title_words(sequences: tuple[list[str], list[str]]) -> frozenset[str]:
    """The title's words (tokens) that one version's title holds and the other's does not, that
    restate the page (issue 79): those with a letter or a digit, in the order the title holds
    them, open a run of the page's text (a heading's or a block's first words, after a mark)
    in both versions. A title that came to name the page by its own headline, or ceased to, says
    nothing new (as an auto-excerpt description adds nothing beyond the text), so each page's
    words are named alike and a theme that put every page's headline in its <title> made one
    edit on all of them (a Pelican theme's sponsor pages titled "Activasoft - site", "Q2 -
    site", where all were titled by the site's name alone). A word the commit also put in or
    took out of the text is the page's own, and so are words the text says only within its
    runs (a blanked title restored whole, its site's part with it, restates no heading)."""
    older, newer = sequences
    found: set[str] = set()
    for this, other in ((newer, older), (older, newer)):
        title = [token for token in this if token[:1] == "t"]
        beyond = Counter(title) - Counter(token for token in other if token[:1] == "t")
        words = [token for token in title if beyond[token] and _lettered(token[1:])]
        run = ["w" + token[1:] for token in words]
        if run and _opens_run(run, this) and _opens_run(run, other):
            found.update(words)
    return frozenset(found)


def _lettered(word: str) -> bool:
    return any(character.isalnum() for character in word)


def _opens_run(run: list[str], sequence: list[str]) -> bool:
    """Whether the text's words ``run`` open a run of words between two marks (or the text's
    ends) in ``sequence`` (a reduction's tokens): a heading's or a block's first words."""
    size, at = len(run), 0
    while at < len(sequence):
        if sequence[at][:1] != "w":
            at += 1
            continue
        if sequence[at : at + size] == run:
            return True
        while at < len(sequence) and sequence[at][:1] == "w":
            at += 1
    return False
