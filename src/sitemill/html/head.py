"""The start tags of an HTML page's head, as an HTML parser sees them, in one linear pass."""
# The page's first bytes are tokenized as the WHATWG tokenizer does (comments, raw text, script
# escapes, quoted attribute values) and followed through the tree builder's "in head" and "after
# head" modes just far enough to know where the head ends. The scan only moves forward: a construct
# still open where the bytes end (a comment, a tag cut off by a prefix) ends it, as the end of a
# file ends a parser's work, so the cost is linear in the input.
# https://html.spec.whatwg.org/multipage/parsing.html#tokenization

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from sitemill.html.tokens import (
    ATTRIBUTE,
    HEAD_TAGS,
    HTML_SPACE,
    RAW_TEXT_END,
    RAW_TEXT_TAGS,
    SCRIPT_DATA,
    SCRIPT_STATES,
    TEMPLATE_SKIPPER,
    TEXT_CONTENT,
    TOKEN,
    head_skipper,
)

# Re-exported: the page-fact readers and their tests know the head's vocabulary from here.
__all__ = ["HEAD_TAGS", "HTML_SPACE", "RAW_TEXT_TAGS", "StartTag", "head_start_tags"]

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_FIRST_LOOK: Final = 8 * 1024  # bytes scanned at first (see head_start_tags)


@dataclass(frozen=True, slots=True)
class StartTag:
    """A start tag of the head: its lower-case name and its bytes from "<" to ">"; for an
    element whose content is text (<title>), that text as written (up to its end tag)."""

    name: str
    source: bytes
    text: bytes = b""

    def attributes(self) -> list[tuple[str, str]]:
        """(name, value) pairs in order: names lower-cased, character references decoded."""
        inner = ATTRIBUTE.findall(self.source, len(self.name) + 1, len(self.source) - 1)
        return [
            (name.decode("utf-8", "replace").lower(), _text(double or single or bare))
            for name, double, single, bare in inner
        ]


def _text(value: bytes) -> str:
    return html.unescape(value.decode("utf-8", "replace")) if value else ""


def head_start_tags(
    data: bytes, names: frozenset[str], marks: tuple[tuple[bytes, ...], ...] = ()
) -> Iterator[StartTag]:
    """The start tags named in ``names`` that a parser puts in the head ``data`` begins with.

    The scan stops where the body surely begins (a tag, or text) or where ``data`` ends; a
    tag cut off at the end is not a tag. Tags in <template> content, comments and raw text
    are not the head's.

    ``marks`` are groups of lower-case byte strings such that every tag of interest holds,
    lower-cased and inside one attribute name or value, a string of each group. A tag that
    holds none of some group may be left out: such tags go by at the speed of re.
    """
    low, whole, pos = _first_look(data)
    skippers, margin = _skippers(names, marks)
    template_depth = 0
    after_head = False
    while True:
        skipper = TEMPLATE_SKIPPER if template_depth else skippers[after_head]
        skipped = skipper.match(low, pos)  # a run, maybe empty
        token = TOKEN.match(low, skipped.end() if skipped else pos)
        if token is None and whole:
            return  # the end, or a construct still open there
        tag = token.group("name").decode("latin-1") if token and token.group("name") else ""
        closing = bool(token and token.group("end"))
        end = token.end() if token else len(low)
        if tag in TEXT_CONTENT and not closing:
            end = _content_end(low, end, tag)  # and the text that it opens
        if token is None or (end > len(low) - margin and not whole):
            # Too near the end of the first look (patterns look up to ``margin`` bytes past
            # what they match) or into it: take this step again, on all the bytes.
            low, whole = data.lower(), True
            continue
        pos = end
        if token.lastgroup == "text":
            if template_depth or not _is_text(token.group("text")):
                continue
            return  # text that is not white space opens the body
        if not tag:
            continue  # a comment: nothing to build
        if closing:
            state = _after_end_tag(tag, template_depth, after_head)
            if state is None:
                return
            template_depth, after_head = state
            continue
        if template_depth:
            template_depth += 1 if tag == "template" else 0
        # After </head> the head still takes metadata tags, but no longer <noscript>.
        # https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode
        elif tag not in HEAD_TAGS or (after_head and tag == "noscript"):
            return
        elif tag == "template":
            template_depth = 1
        elif tag in names:
            text = data[token.end() : end] if tag in TEXT_CONTENT else b""
            yield StartTag(tag, data[token.start("tag") : token.end()], text)
        if tag == "plaintext":
            return  # the rest of the page is text


def _first_look(data: bytes) -> tuple[bytes, bool, int]:
    """The bytes to scan first, lower-cased; whether they are all of ``data``; where to start.

    Most heads end long before the bytes do: only the first few KiB are lower-cased (ASCII
    only, so offsets stay), and the rest only if a step of the scan comes near their end.
    """
    whole = len(data) <= _FIRST_LOOK
    low = (data if whole else data[:_FIRST_LOOK]).lower()
    return low, whole, len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0


@functools.cache
def _skippers(
    names: frozenset[str], marks: tuple[tuple[bytes, ...], ...]
) -> tuple[tuple[re.Pattern[bytes], re.Pattern[bytes]], int]:
    """The skippers before and after </head>, and how many bytes past a match patterns look
    (a mark's length at most)."""
    margin = 4 + max((len(mark) for group in marks for mark in group), default=0)
    return (head_skipper(names, marks, False), head_skipper(names, marks, True)), margin


def _after_end_tag(tag: str, template_depth: int, after_head: bool) -> tuple[int, bool] | None:
    """The tree builder's state after an end tag, or None where the tag ends the head."""
    if template_depth:
        return template_depth - (tag == "template"), after_head
    if tag in {"body", "html", "br"}:
        return None
    return 0, after_head or tag == "head"


def _content_end(low: bytes, pos: int, tag: str) -> int:
    """Where the text that a start tag ending at ``pos`` opens ends."""
    if tag == "plaintext":
        return len(low)
    if tag == "script":
        return _script_end(low, pos)
    closer = RAW_TEXT_END[tag].search(low, pos)
    return closer.start() if closer else len(low)


def _is_text(run: bytes) -> bool:
    """Whether character data holds more than white space (character references decoded)."""
    if not run.strip(HTML_SPACE.encode()):
        return False
    return b"&" not in run or bool(html.unescape(run.decode("latin-1")).strip(HTML_SPACE))


def _script_end(low: bytes, pos: int) -> int:
    """Where the "</script" that ends a script's content begins (the end of ``low`` if none)."""
    state = SCRIPT_DATA
    while (found := state.search(low, pos)) is not None:
        if found.lastgroup == "end":
            return found.start()
        state = SCRIPT_STATES[str(found.lastgroup)]
        # The "--" of "<!--" may also be the start of the "-->" that leaves the escaped state.
        pos = found.start() + 2 if found.lastgroup == "escape" else found.end()
    return len(low)
