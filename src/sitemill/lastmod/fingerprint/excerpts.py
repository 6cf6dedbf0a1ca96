"""Meta descriptions that are the page's own text cut short (fingerprint version 5)."""
# Blog generators write a post's ``<meta name="description">`` from the start of its text when the
# author wrote none (Hexo, Hugo, Jekyll's excerpts), and re-cut and re-escape it when they are
# upgraded: a Hexo NexT upgrade changed about 42 of 185 descriptions on one real site, with no word
# of a post changed. Such a description says nothing the page does not say: it is left out when its
# words, read as letters and digits alone (case, punctuation, white space and a trailing ellipsis
# ignored), stand at the start of the page's kept text, and are a sentence's worth (MIN_LETTERS): a
# description an author wrote stays content, and so does a short one whose few words the page
# happens to hold ("More."). A description that is the page's title, or one of its parts
# (fingerprint.titleparts), as letters and digits (a theme that writes the title as the description
# when the author wrote none: Hexo Matery's "Category: x | Site") says nothing beyond the title
# either, which counts by its parts: a site renamed in every title moves no date through it.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE

_MARKS: Final = re.compile(f"{MARK_EDGE}[^{MARK_EDGE}]*(?:{MARK_EDGE}|\\Z)")
_NOT_LETTERS: Final = re.compile(r"[\W_]+")
_WORDS: Final = re.compile(r"[^\W_]+")
MIN_LETTERS: Final = 24  # (five or six words)
# An excerpt is the start of the page's text: it is looked for in the text's first this many
# letters and digits, besides twice its own (the title, a date and tags may come first;
# version 12 counted characters of the marked text, link targets too).
START_CHARS: Final = 2048


# An ASCII text's letters and digits: [^\W_] of ASCII, kept by one translate (C's speed; the
# pattern's sub tries each character): its other characters, deleted.
NOT_ASCII_LETTERS: Final = {code: None for code in range(128) if not chr(code).isalnum()}


def letters(text: str) -> str:
    """``text`` as its letters and digits alone, case folded (marks left out)."""
    if MARK_EDGE in text:
        text = _MARKS.sub(" ", text)
    if text.isascii():  # (case folded: lower case; letters and digits: [a-zA-Z0-9])
        return text.lower().translate(NOT_ASCII_LETTERS)
    return _NOT_LETTERS.sub("", text.casefold())


def words(text: str) -> str:
    """``text``'s words as letters and digits alone, case folded (marks left out), one space
    between each two."""
    if MARK_EDGE in text:
        text = _MARKS.sub(" ", text)
    return " ".join(_WORDS.findall(text.casefold()))


def count_letters(text: str) -> int:
    """How many letters and digits ``text`` (without marks) holds, case kept (an ASCII text's
    by one translate)."""
    if text.isascii():
        return len(text.translate(NOT_ASCII_LETTERS))
    return len(_NOT_LETTERS.sub("", text))


def is_excerpt(description: str, page_letters: str) -> bool:
    """Whether a description mark's value (``description``) is an excerpt of the page whose
    kept text reads ``page_letters`` (``letters``): every letter of it stands there in order."""
    own = letters(description)
    return len(own) >= MIN_LETTERS and own in page_letters


def own_descriptions(marks: list[str], body: str, title: str, version: int) -> list[str]:
    """The description ``marks`` (fingerprint.targetmarks: a MARK_EDGE, "D", the value, a MARK_EDGE)
    that are not excerpts of ``body``, the page's kept text (its start: START_CHARS and twice the
    description's length, read once for each such length, and only for a description long
    enough to be one), nor are the page's ``title`` or one of its parts (see above). From
    version 13 the start is counted in the body's letters and digits and the description's
    (marks out): version 12 counted the characters of the marked text, so the link targets of a
    rustdoc signature decided whether its docblock's first sentence was an excerpt."""
    starts: dict[int, str] = {}
    kept = []
    titled = {letters(part) for part in (title, *split_title(title))} - {""}
    for mark in marks:
        value = mark[2:-1]
        own = letters(value)
        if own in titled:
            continue
        if len(own) >= MIN_LETTERS:
            if version >= 13:
                size = START_CHARS + 2 * len(own)
                if size not in starts:
                    starts[size] = leading_letters(body, size)
            else:
                size = START_CHARS + 2 * len(value)
                if size not in starts:
                    starts[size] = letters(body[:size])
            if is_excerpt(value, starts[size]):
                continue
        kept.append(mark)
    return kept


def leading_letters(text: str, count: int) -> str:
    """The first ``count`` letters and digits of ``text`` (``letters``: marks left out, however
    long), read from as few of its characters as hold them (twice as many each time)."""
    size = count
    while True:
        found = letters(text[:size])
        if len(found) >= count or size >= len(text):
            return found[:count]
        size *= 2
