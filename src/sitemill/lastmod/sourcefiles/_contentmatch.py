"""The content match: the one source file whose text holds a built page's text."""
# Used when no convention says. The words of a source file with its markup crudely taken off
# (front matter, Markdown and reStructuredText syntax, template tags, comments) and of a built
# page's visible text (its main or article region, as the content fingerprint reads it). Word
# shingles of every candidate are indexed once; a page is matched by counting, per source, how many
# of its shingles the source holds (containment), and a source is named only when it holds most of
# the page and clearly more than the second best.

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE
from sitemill.lastmod.sourcefiles._cutspans import cut_spans
from sitemill.lastmod.sourcefiles._frontmatter import split_front_matter

_WORD: Final = re.compile(r"\w+")
# HTML comments and template tags (Liquid, Jinja, Nunjucks, Hugo), taken out first (spans).
_OPENERS: Final = re.compile(r"<!--|\{%|\{\{|\{\#")
_CLOSERS: Final = {"<!--": "-->", "{%": "%}", "{{": "}}", "{#": "#}"}
# Then the rest. No run may scan past where the next opening token of its kind begins (a
# target stops at "(", a tag at "<", a role's target at "`", a role's name is short): each
# character is read a bounded number of times, whatever the text.
_TAKEN_OFF: Final = re.compile(
    r"""\]\([^()\s]*+(?:\s++(?:"[^"]*+"|'[^']*+'))?\)  # a Markdown link's or image's target
    | ^[ \t]*+\[[^\]\n]++\]:[ \t]*+\S[^\n]*+         # a Markdown reference definition
    | ^\.\.[ \t]+[\w:-]+::[^\n]*                     # an rST directive line (its content stays)
    | :[\w:-]{1,64}:`[^`<]*+<[^>`]*+>`               # an rST role with a target: its target
    | <[^<>\n]++>                                     # inline HTML tags and autolinks
    | https?://\S++                                   # bare URLs
    """,
    re.M | re.X,
)


SHINGLE_WORDS: Final = 4
# About one shingle in SHINGLE_SAMPLE is kept (by its first word's hash), on the pages and the
# sources alike: the containment is estimated from a quarter of the shingles, in a quarter
# of the time and memory.
SHINGLE_SAMPLE: Final = 4
# A shingle that this many sources hold says nothing of which one a page came from (a
# licence footer, an include): it is left out of the index and of the page's count.
COMMON: Final = 8
MIN_SHINGLES: Final = 5  # a page with fewer kept shingles (about 20 words) is too short
MIN_CONTAINMENT: Final = 0.5  # the best source holds at least half of the page's shingles ...
MAX_RUNNER_UP: Final = 0.6  # ... and the second best at most 60 % of what the best holds


def shingles(words: Sequence[str]) -> set[int]:
    """The kept shingles of a text's words: a stable hash (CRC-32: the same in every run,
    unlike ``hash``) of each run of SHINGLE_WORDS words whose first word is kept (one word
    in SHINGLE_SAMPLE, by its own hash: a page and a source keep the same runs, and only the kept
    runs are hashed)."""
    first = {word for word in set(words) if _crc(word) % SHINGLE_SAMPLE == 0}
    last = len(words) - SHINGLE_WORDS + 1
    return {
        _crc(" ".join(words[at : at + SHINGLE_WORDS]))
        for at, word in enumerate(words[: max(last, 0)])
        if word in first
    }


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


class TextIndex:
    """The candidate sources' shingles, indexed once: shingle -> the source (or sources)."""

    def __init__(self, sources: Iterable[tuple[str, Sequence[str]]]) -> None:
        self.paths: list[str] = []
        self._one: dict[int, int] = {}  # a shingle one source holds -> that source
        self._some: dict[int, list[int]] = {}  # ... that several hold (up to COMMON)
        self._common: set[int] = set()
        for path, words in sources:
            number = len(self.paths)
            self.paths.append(path)
            for shingle in shingles(words):
                self._add(shingle, number)

    def _add(self, shingle: int, number: int) -> None:
        if shingle in self._common:
            return
        first = self._one.pop(shingle, None)
        if first is None and shingle not in self._some:
            self._one[shingle] = number
            return
        holders = self._some.setdefault(shingle, [] if first is None else [first])
        holders.append(number)
        if len(holders) >= COMMON:
            del self._some[shingle]
            self._common.add(shingle)

    def best(self, words: Sequence[str]) -> str | None:
        """The one source that holds the page's ``words``, or None (too short, too weak a
        match, or a near tie)."""
        kept = shingles(words) - self._common
        if len(kept) < MIN_SHINGLES:
            return None
        counts: Counter[int] = Counter()
        for shingle in kept:
            one = self._one.get(shingle)
            if one is not None:
                counts[one] += 1
            else:
                counts.update(self._some.get(shingle, ()))
        ranked = counts.most_common(2)
        if not ranked or ranked[0][1] < MIN_CONTAINMENT * len(kept):
            return None
        if len(ranked) > 1 and ranked[1][1] > MAX_RUNNER_UP * ranked[0][1]:
            return None
        return self.paths[ranked[0][0]]


def source_words(text: str) -> list[str]:
    """The words of a source file as a reader of its built page sees them, lower-cased."""
    body = split_front_matter(text)[1]
    body = cut_spans(body, _OPENERS, _CLOSERS)
    return _WORD.findall(_TAKEN_OFF.sub(" ", body).lower())


def page_words(data: bytes) -> list[str]:
    """The words of a built page's title and main region (or article), lower-cased: the
    content fingerprint's reduction with its link and image marks left out."""
    reduction = reduce_html(data, main=True)
    pieces = reduction.split(MARK_EDGE)
    return _WORD.findall(" ".join(pieces[::2]).lower())
