"""Two independent readings of an llms.txt, to hold what sitemill writes to: the reference parser
(llms-txt's miniparse, its regexes; never its networked functions) and a CommonMark reading
(mistletoe, which llms-txt brings). Each gives the same plain data: the name, the summary, and
the sections with their links, every text decoded as that reader shows it."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import mistletoe
from llms_txt.miniparse import parse_llms_txt
from mistletoe import block_token, span_token

# A complete character reference, as CommonMark reads one (the reference parser keeps it raw;
# a reader of its output decodes it).
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);")

Link = tuple[str, str, str | None]  # title, url, description


@dataclass(frozen=True)
class Reading:
    name: str
    summary: str | None
    sections: tuple[tuple[str, tuple[Link, ...]], ...]


def decoded(text: str) -> str:
    return _REFERENCE.sub(lambda match: html.unescape(match.group()), text)


def reference_reading(text: str) -> Reading:
    found = parse_llms_txt(text)
    summary = found["summary"]
    sections = tuple(
        (
            decoded(name),
            tuple(
                (
                    decoded(link["title"]),
                    link["url"],
                    decoded(link["desc"]) if link["desc"] else None,
                )
                for link in links
            ),
        )
        for name, links in found["sections"].items()
    )
    assert text.count("\n## ") == len(sections), "a section name given twice"
    return Reading(decoded(found["title"]), decoded(summary) if summary else None, sections)


# Spans whose text is their children's: emphasis ("*", "_" are written as they are; a CommonMark
# reading shows their text without the markers) and the link forms.
_CONTAINERS = (
    span_token.Link,
    span_token.AutoLink,
    span_token.Emphasis,
    span_token.Strong,
    span_token.Strikethrough,
    block_token.Heading,
    block_token.Paragraph,
)


def _text(token: span_token.SpanToken | block_token.BlockToken) -> str:
    if isinstance(token, span_token.RawText):
        return token.content
    if isinstance(token, span_token.InlineCode):  # (shown as the raw reader reads it)
        (code,) = token.children or ()
        assert isinstance(code, span_token.RawText)
        fence, padding = token.delimiter, token.padding
        return f"{fence}{padding}{code.content}{padding}{fence}"
    assert isinstance(token, _CONTAINERS) or not token.children, type(token)
    return "".join(_text(child) for child in token.children or ())


def _link(item: block_token.ListItem) -> Link:
    (paragraph,) = item.children
    assert isinstance(paragraph, block_token.Paragraph)
    link, *rest = paragraph.children
    assert isinstance(link, span_token.Link), "an item that does not start with a link"
    assert not any(isinstance(token, span_token.Link) for token in rest), "two links in an item"
    after = "".join(_text(token) for token in rest)
    assert after == "" or after.startswith(": "), after
    return _text(link), link.target, after[2:] or None


def commonmark_reading(text: str) -> Reading:
    document = mistletoe.Document(text)
    tokens = list(document.children or ())
    heading = tokens.pop(0)
    assert isinstance(heading, block_token.Heading) and heading.level == 1
    summary = None
    if isinstance(tokens[0], block_token.Quote):
        summary = _text(tokens.pop(0).children[0])
    info = tokens.pop(0)
    assert isinstance(info, block_token.Paragraph), "no info paragraph"
    sections: list[tuple[str, tuple[Link, ...]]] = []
    while tokens:
        section, items = tokens.pop(0), tokens.pop(0)
        assert isinstance(section, block_token.Heading) and section.level == 2, type(section)
        assert isinstance(items, block_token.List), type(items)
        sections.append((_text(section), tuple(_link(item) for item in items.children)))
    return Reading(_text(heading), summary, tuple(sections))
