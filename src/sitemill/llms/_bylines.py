"""What a blog's template writes around a post's text: its dateline, its contents, a skip link."""
# Left out of a page's Markdown by their shape, whatever the theme (docs/llms-full.md): a dateline
# under the headline with its byline pieces, a table of contents with its label, a skip link.

from __future__ import annotations

import re
from typing import Final

from bs4 import Tag
from bs4.element import NavigableString

from sitemill.llms._treewalk import short_text, tags_of

DATELINE_STRINGS: Final = 12
DATELINE_CHARS: Final = 160
_MONTH: Final = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE: Final = re.compile(
    r"(?:(?:posted|published|written|date[d]?)(?:\s+on)?\s*:?\s*)?"
    rf"(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}})(?![\w])",
    re.IGNORECASE,
)
_SENTENCE: Final = re.compile(r"[.!?]\s+\w")
_SEPARATORS: Final = r"[\s\-\u00b7|\u2022\u2013\u2014/,]*"
_PIECE: Final = re.compile(
    rf"{_SEPARATORS}(?:\d+\s*(?:min(?:ute)?s?|words?)(?:\s+read)?|by\s+[^.!?]{{1,40}}){_SEPARATORS}",
    re.IGNORECASE,
)
_NOT_A_LINE: Final = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "tr", "table", "pre", "ul", "ol"}
)
_CONTENTS_LABEL: Final = re.compile(
    r"(?:table\s+of\s+)?contents|on\s+this\s+page|in\s+this\s+(?:article|post|page)",
    re.IGNORECASE,
)
_LABEL_CHARS: Final = 40
_LISTS: Final = frozenset({"ul", "ol", "nav"})
_SKIP: Final = re.compile(r"skip\b", re.IGNORECASE)


def drop_datelines(part: Tag) -> None:
    """Leaves out ``part``'s dateline and the byline pieces beside it (see above)."""
    seen, line = 0, None
    for node in part.descendants:  # (the first texts only: no walk of the whole part)
        if not isinstance(node, NavigableString) or not node.strip():
            continue
        seen += 1
        if seen > DATELINE_STRINGS:
            return
        if _DATE.match(node.strip()) is not None and not _in_block(node, part):
            line = _dateline(node, part)
            if line is not None:
                break
    if line is not None:
        for element in [line, *_pieces_after(line)]:
            element.decompose()


def _in_block(text: NavigableString, part: Tag) -> bool:
    """Whether ``text`` stands in code, a list or a table, where a date is the page's own."""
    for element in text.parents:
        if element is part:
            return False
        if element.name in _NOT_A_LINE or element.name == "code":
            return True
    return False


def _dateline(text: NavigableString, part: Tag) -> Tag | None:
    found, element = None, text.parent
    while isinstance(element, Tag) and element is not part and element.name not in _NOT_A_LINE:
        words = short_text(element, DATELINE_CHARS)
        if words is None or _SENTENCE.search(words) or _DATE.match(words) is None:
            break
        if any(tag.name in _NOT_A_LINE for tag in tags_of(element)):
            break
        found, element = element, element.parent
    return found


def _pieces_after(line: Tag) -> list[Tag]:
    """The elements right after ``line`` that are byline pieces (a reading time, a word count,
    an author)."""
    pieces = []
    for sibling in line.next_siblings:
        if isinstance(sibling, NavigableString):
            if sibling.strip():
                break
            continue
        if not isinstance(sibling, Tag):
            continue
        words = short_text(sibling, DATELINE_CHARS)
        if words is None or not _PIECE.fullmatch(words):
            break
        pieces.append(sibling)
    return pieces


def drop_contents(root: Tag) -> None:
    """Leaves out each table of contents in ``root`` with its label (see above). Only the
    outermost lists are asked (disjoint: one walk of each), and an element around one is
    taken while its other text is a label, each step reading a bounded text."""
    lists: list[Tag] = []
    inside: set[int] = set()  # (bs4 compares elements by their markup: ids, not ``in``)
    for tag in tags_of(root):
        if tag.name in _LISTS and id(tag) not in inside:
            lists.append(tag)
            inside.update(id(node) for node in tag.descendants)
    blocks = [_with_label(found, root) for found in lists if _is_contents(found)]
    labels = [label for block in blocks if (label := _label_before(block)) is not None]
    gone: set[int] = set()
    for block in [*blocks, *labels]:  # (one may hold another: a label climbed to both)
        if id(block) not in gone:
            gone.add(id(block))
            gone.update(id(node) for node in block.descendants)
            block.decompose()


def _is_contents(element: Tag) -> bool:
    links = [tag for tag in tags_of(element) if tag.name == "a"]
    if len(links) < 2 or not all(str(link.get("href") or "").startswith("#") for link in links):
        return False
    inside = sum(len(link.get_text(strip=True)) for link in links)
    return len(element.get_text("", strip=True)) == inside


def _label_before(block: Tag) -> Tag | None:
    """The element right before ``block`` when its text is a contents label alone."""
    for sibling in block.previous_siblings:
        if isinstance(sibling, Tag):
            words = short_text(sibling, _LABEL_CHARS)
            return sibling if words and _CONTENTS_LABEL.fullmatch(words) else None
        if isinstance(sibling, NavigableString) and sibling.strip():
            return None
    return None


def _with_label(contents: Tag, root: Tag) -> Tag:
    """``contents`` or the outermost element around it whose other text is a contents label."""
    found, outside = contents, ""
    child, element = contents, contents.parent
    while isinstance(element, Tag) and element is not root:
        for sibling in element.children:
            if sibling is child:
                continue
            if isinstance(sibling, Tag):
                words = short_text(sibling, _LABEL_CHARS)
            else:
                words = sibling.strip() if isinstance(sibling, NavigableString) else ""
            if words is None:
                return found
            outside = f"{outside} {words}".strip()
            if len(outside) > _LABEL_CHARS:
                return found
        if _CONTENTS_LABEL.fullmatch(outside):
            found = element
        child, element = element, element.parent
    return found


def is_skip_link(link: Tag, words: str) -> bool:
    """Whether ``link`` (its text ``words``) leads within the page and says "Skip ..."."""
    return str(link.get("href") or "").startswith("#") and _SKIP.match(words) is not None
