"""Text as llms.txt writes it: one line, and read back the same by the reference parser and by
CommonMark alike."""

# The reference parser (llms-txt's miniparse) reads every line raw with three regexes; a CommonMark
# reader renders it. Both read a text back as the page gave it only when it holds nothing either
# takes for structure, so what one of them would take is written as a character reference, which
# CommonMark decodes and a raw reader shows as a readable code: "[" "]" (the reference parser's
# link pattern ends a title at the first "]", and a CommonMark reader would see a link in a
# description), "`" and "<" (a code span or an HTML tag binds tighter than a link's brackets in
# CommonMark: a title "a`b" and a description "c`d" would hide the link; mistletoe's
# strikethrough "~~" too, which binds as tightly), "&" where it starts a reference (else the
# page's literal "&#91;" would read as "["), and "\" before punctuation (an escape in CommonMark)
# or at the text's end (before a title's closing "]"). Emphasis markers
# ("*", "_") are written as they are: a raw reader, an LLM, reads them as text, and escaping them
# would fill API titles such as "__init__" with codes.
# (https://spec.commonmark.org/0.31.2/#entity-and-numeric-character-references)

from __future__ import annotations

import re
from typing import Final
from urllib.parse import quote

_WHITE: Final = re.compile(r"\s+")
_ENTITY_START: Final = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]*;)")
_BACKSLASH_ESCAPE: Final = re.compile(r"\\(?=[!-/:-@\[-`{-~]|$)")
_INLINE: Final = {"[": "&#91;", "]": "&#93;", "`": "&#96;", "<": "&lt;", "~": "&#126;"}
_INLINE_CHARS: Final = re.compile(r"[\[\]`<]|~(?=~)|(?<=~)~")
# A line that starts with one of these opens a block (a heading, a quote, a list, a fence, a
# thematic break, an HTML block) where the text must be a paragraph's: "> # x" is a heading. An
# ordered list's marker is a number and "." or ")" before a space; mistletoe takes one with no
# number too ("> ) x").
_BLOCK_START: Final = re.compile(r"[#>\-*+_~]|[0-9]{0,9}[.)](?=\s|$)")
# An ATX heading's closing sequence: "# Foo #" reads "Foo" in CommonMark.
_CLOSING_HASHES: Final = re.compile(r"(?:^|\s)#+$")
# Characters a link destination may hold as they are (RFC 3986's, and "%" of an existing escape);
# "(" and ")" are not among them (the reference parser ends a URL at the first ")").
_URL_SAFE: Final = "!#$%&'*+,/:;=?@[]~"
NO_DESCRIPTION: Final = "None"  # what MkDocs writes in a page's description when it has none


def one_line(text: str | None) -> str:
    """``text`` on one line: runs of white space (newlines included) as one space, trimmed."""
    return _WHITE.sub(" ", text).strip() if text else ""


def real_description(text: str | None) -> str:
    """A description worth writing, on one line; "" for none, an empty one or MkDocs' "None"."""
    line = one_line(text)
    return "" if line == NO_DESCRIPTION else line


def inline_text(text: str) -> str:
    """A one-line text for the middle of a line (a link's title, a description): what either
    reading would take for structure written as a character reference."""
    text = _ENTITY_START.sub("&amp;", text)
    text = _BACKSLASH_ESCAPE.sub("&#92;", text)
    return _INLINE_CHARS.sub(lambda match: _INLINE[match.group()], text)


def block_text(text: str) -> str:
    """A one-line text that starts a paragraph (the summary, after "> "): as ``inline_text``,
    with a first character that would open another block written as a reference."""
    text = inline_text(text)
    match = _BLOCK_START.match(text)
    if match is None:
        return text
    last = match.end() - 1  # "#" → "&#35;"; "1." → "1&#46;"
    return f"{text[:last]}&#{ord(text[last])};{text[last + 1 :]}"


def heading_text(text: str) -> str:
    """A one-line text for a heading (the H1's name, a section's): as ``inline_text``, with a
    last "#" that CommonMark would take for a closing sequence written as a reference."""
    text = inline_text(text)
    if _CLOSING_HASHES.search(text):
        text = f"{text[:-1]}&#35;"
    return text


def link_url(url: str) -> str:
    """``url`` as a link's destination: "(" and ")" as "%28" and "%29", white space, controls,
    "<", ">", "\\", quotes and non-ASCII percent-encoded (a sitemap's <loc> holds none of them
    but the parentheses). An "&" stays as the sitemap lists it, even where CommonMark would
    read "&name;" as a character reference: "%26" would be another URL."""
    return quote(url, safe=_URL_SAFE)
