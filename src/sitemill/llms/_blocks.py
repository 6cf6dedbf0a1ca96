"""The blocks a site repeats on most of its pages: found by counting, left out of the Markdown."""
# Furniture inside the region that no element name tells ("Edit this page", a licence line) is
# told by the site's own pages: an innermost block whose text stands at the same end of the region
# on more than half of a language's pages (and on at least REPEATED_MIN_PAGES) is the site's. Only
# the first and last EDGE_BLOCKS blocks count (a template opens or closes the region). A first pass
# keeps each page's edge-block hashes (8 bytes each), the count gives the repeated ones, the second
# pass leaves them out.

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from bs4 import Tag

from sitemill.llms._treewalk import tags_of

REPEATED_MIN_PAGES: Final = 4
EDGE_BLOCKS: Final = 6
BLOCKS: Final = frozenset(
    {
        "p", "li", "dt", "dd", "pre", "table", "blockquote", "figcaption", "div", "section",
        "header", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary", "address",
    }
)  # fmt: skip
_SPACES: Final = re.compile(r"\s+")


def edge_blocks(parts: Iterable[Tag]) -> Iterator[tuple[bytes, Tag]]:
    """The hash of each edge block of a region's ``parts`` (see above) with the block: the first
    and last EDGE_BLOCKS innermost blocks that hold text, each hashed with the end it stands at
    (a block that stands near both ends is given twice)."""
    blocks = [(block, text) for part in parts for block, text in _innermost(part)]
    for index, (block, text) in enumerate(blocks):
        if index < EDGE_BLOCKS:
            yield _hash("start", block.name, text), block
        if index >= len(blocks) - EDGE_BLOCKS:
            yield _hash("end", block.name, text), block


def _innermost(part: Tag) -> Iterator[tuple[Tag, str]]:
    """The blocks of ``part`` that hold no other block, in document order, with their text
    (white space collapsed, case folded), those with text only. One walk: a tree's elements
    in reverse document order see their descendants before themselves."""
    elements = [part, *tags_of(part)]
    holds_block: set[int] = set()
    for element in reversed(elements):
        if element.name in BLOCKS or id(element) in holds_block:
            parent = element.parent
            if parent is not None:
                holds_block.add(id(parent))
    for element in elements:
        if element.name in BLOCKS and id(element) not in holds_block:
            text = _SPACES.sub(" ", element.get_text(" ")).strip()
            if text:
                yield element, text.casefold()


def _hash(end: str, name: str, text: str) -> bytes:
    return hashlib.blake2b(f"{end}\0{name}\0{text}".encode(), digest_size=8).digest()


@dataclass(slots=True)
class BlockCount:
    """How many pages of each language hold each edge block (see above)."""

    pages: Counter[str] = field(default_factory=Counter)
    holding: dict[str, Counter[bytes]] = field(default_factory=dict)

    def add(self, lang: str, hashes: Iterable[bytes]) -> None:
        """Counts one page of language ``lang`` whose edge blocks hash to ``hashes``."""
        self.pages[lang] += 1
        self.holding.setdefault(lang, Counter()).update(set(hashes))

    def repeated(self) -> RepeatedBlocks:
        """The blocks each language's pages repeat: on more than half of them and on at least
        REPEATED_MIN_PAGES."""
        return RepeatedBlocks(
            {
                lang: frozenset(
                    key
                    for key, count in counter.items()
                    if count >= REPEATED_MIN_PAGES and 2 * count > self.pages[lang]
                )
                for lang, counter in sorted(self.holding.items())
            }
        )


@dataclass(frozen=True, slots=True)
class RepeatedBlocks:
    """The hashes of the blocks a site repeats, by language (see above)."""

    by_lang: dict[str, frozenset[bytes]] = field(default_factory=dict)

    def drop_from(self, parts: Iterable[Tag], lang: str) -> int:
        """Leaves out of ``parts`` the blocks the site's pages of ``lang`` repeat; how many."""
        repeated = self.by_lang.get(lang, frozenset())
        if not repeated:
            return 0
        blocks = {id(block): block for key, block in edge_blocks(parts) if key in repeated}
        for block in blocks.values():  # (innermost blocks: none holds another)
            block.decompose()
        return len(blocks)
