"""What a page says already, against which its JSON-LD is read (fingerprint.structureddata)."""
# A JSON-LD value that restates the page says nothing new (version 7): its title or one of its
# parts, one of its descriptions, or a sentence's worth of its kept text (excerpts.MIN_LETTERS: an
# auto-excerpt, as a description that is one adds nothing). From version 10 a node every value of
# which the page shows is that part of the page as data (a post's byline written again as its
# author's node: the name and title the page shows, the link and picture it shows): a text value
# whose words stand together among the page's kept words, a target among its own link, image and
# srcset targets (spelled as the reduction spells them: fingerprint.targets). From version 12 a
# node that names the page by its title alone (fingerprint.structureddata) is read by ``titles``.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint.excerpts import MIN_LETTERS, letters
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE, TITLE_END, descriptions

_WORD: Final = re.compile(r"[^\W_]+")
_MARK: Final = re.compile(f"{MARK_EDGE}([^{MARK_EDGE}]*)(?:{MARK_EDGE}|\\Z)")
_TARGET_KINDS: Final = ("H", "I", "S")  # (a link's, an image's, a srcset's: targetmarks.py)


class Said:
    """What the page says already, from its reduction: its title's parts (``titled``) and
    descriptions as letters, its kept text's letters (version 7), and its words and targets
    (version 10), each read once when first asked."""

    def __init__(self, reduced: str) -> None:
        title, ended, rest = reduced.partition(TITLE_END)
        if not ended:
            title, rest = "", reduced
        self.titled = {letters(part) for part in (title, *split_title(title))}
        self.titled.discard("")
        self.short = self.titled | {letters(mark[2:-1]) for mark in descriptions(rest)}
        self.short.discard("")
        self._reduced = reduced
        self._letters: str | None = None
        self._words: str | None = None
        self._targets: frozenset[str] | None = None

    def titles(self, value: str) -> bool:
        """Whether the text ``value`` is the page's title or one of its parts (version 12:
        what names the page by its title alone)."""
        return letters(value) in self.titled

    def restates(self, value: str) -> bool:
        """Whether the text ``value`` is the page's title, a part of it, a description of it,
        or a sentence's worth of its kept text."""
        own = letters(value)
        if not own:
            return False
        if own in self.short:
            return True
        if len(own) < MIN_LETTERS:
            return False
        if self._letters is None:
            self._letters = letters(self._reduced)
        return own in self._letters

    def shows(self, value: str, *, target: bool) -> bool:
        """Whether the page shows ``value`` (version 10): a ``target`` among its own link, image
        and srcset targets, a text whose words (one at least) stand together among its kept
        words, whole (case folded, white space and punctuation between words ignored)."""
        if target:
            if self._targets is None:
                self._targets = frozenset(
                    mark[1:] for mark in _MARK.findall(self._reduced) if mark[:1] in _TARGET_KINDS
                )
            return value in self._targets
        words = _WORD.findall(value.casefold())
        if not words:
            return False
        if self._words is None:
            text = _MARK.sub(" ", self._reduced).casefold()
            self._words = " " + " ".join(_WORD.findall(text)) + " "
        return f" {' '.join(words)} " in self._words
