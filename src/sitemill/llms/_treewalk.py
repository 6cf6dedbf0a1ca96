"""Walks over a BeautifulSoup tree whose work stays bounded, however deep the tree nests."""
# An unclosed <p>, <li> or <div> nests every element after it: html.parser builds trees thousands
# of levels deep from a page of a few KB. bs4's own helpers then cost a walk of a subtree per
# call (find_all matches a filter at every element; ``descendants`` first finds the last one;
# ``decomposed`` on a Tag is a search, as any attribute it lacks), which repeated per element
# grows with the square of the page. These walk each element once, or at most a fixed number.

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from bs4 import Tag
from bs4.element import Comment, Declaration, Doctype, NavigableString, ProcessingInstruction

_SHORT_NODES: Final = 64  # (short_text: a short text in more nodes than this is none)
_NOT_WORDS: Final = (Comment, Declaration, Doctype, ProcessingInstruction)


def tags_of(root: Tag) -> list[Tag]:
    """The elements inside ``root``, in document order (one walk: bs4's find_all matches a
    filter at every element, several times slower)."""
    return [node for node in root.descendants if isinstance(node, Tag)]


def drop_each(tags: Iterable[Tag], wanted: Callable[[Tag], bool]) -> None:
    """Leaves out each of ``tags`` (in document order) that is ``wanted``, and what it holds;
    an element inside one left out is not asked about. (bs4's ``decomposed`` would tell, but an
    attribute a Tag lacks is a search of its subtree: ``tag._decomposed`` is ``tag.find(...)``.)"""
    gone: set[int] = set()
    for tag in tags:
        if id(tag) not in gone and wanted(tag):
            gone.update(id(node) for node in tag.descendants)
            tag.decompose()


def short_text(element: Tag, most: int) -> str | None:
    """The text of ``element`` as get_text(" ", strip=True) joins it, or None when it is
    longer than ``most`` characters or holds more than _SHORT_NODES nodes: work bounded
    whatever the element holds (bs4's ``descendants`` first finds the last one: a walk of all)."""
    words: list[str] = []
    length, count = 0, 0
    stack = [iter(element.contents)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        count += 1
        if count > _SHORT_NODES:
            return None
        if isinstance(node, Tag):
            stack.append(iter(node.contents))
        elif isinstance(node, NavigableString) and not isinstance(node, _NOT_WORDS):
            word = node.strip()
            if not word:
                continue
            length += len(word) + 1
            if length > most + 1:
                return None
            words.append(word)
    return " ".join(words)


class RegionTag(Tag):
    """A Tag whose ``find_parent`` by a name alone compares its parents' names: markdownify asks
    each element for a <pre> above it, and bs4 runs its filter at each parent up to the root (a
    third of a page's conversion). The same answer as bs4's: html.parser gives no tag a prefix."""

    def find_parent(self, name: Any = None, attrs: Any = None, **kwargs: Any) -> Tag | None:
        if not isinstance(name, str) or attrs or kwargs:
            return super().find_parent(name, attrs, **kwargs)
        parent = self.parent
        while parent is not None and parent.name != name:
            parent = parent.parent
        return parent
