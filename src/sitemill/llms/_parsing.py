"""A page's bytes as text to parse, bounded and decoded as the fingerprint decodes them."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Final

from sitemill.html.head import head_start_tags

# Bytes of a page read at most: a page past this is read to there (html.parser closes what is
# open), so a 100 MB file costs no more than a 4 MB one.
MAX_PARSED_BYTES: Final = 4 * 1024 * 1024
_UTF8_BOM: Final = b"\xef\xbb\xbf"
RAW_TEXT: Final = ("script", "style", "svg", "math", "template", "noscript", "textarea")
_RAW_START: Final = re.compile(rf"<!--|<({'|'.join(RAW_TEXT)})\b", re.IGNORECASE)
_RAW_END: Final = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in RAW_TEXT}


_HEAD_TAGS: Final = frozenset({"html", "base", "title"})
_MAIN_START: Final = re.compile(r"<main[\t\n\f\r />]", re.IGNORECASE)
_MAIN_END: Final = re.compile(r"</main[\t\n\f\r ]*>", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PageHead:
    """What a page's head says that its content region needs: its <title> (white space
    collapsed), its <html lang> (lower-cased) and its <base href> ("" when it has none)."""

    title: str = ""
    lang: str = ""
    base: str = ""


def page_head(data: bytes) -> PageHead:
    """The head of the page ``data`` (sitemill.html.head's scan: no parse of the body)."""
    found: dict[str, str] = {}
    for tag in head_start_tags(data[:MAX_PARSED_BYTES], _HEAD_TAGS):
        if tag.name == "title" and "title" not in found:
            found["title"] = " ".join(html.unescape(tag.text.decode("utf-8", "replace")).split())
        for name, value in tag.attributes():
            wanted = {"html": "lang", "base": "href"}.get(tag.name)
            if name == wanted and wanted not in found:
                found[wanted] = value.strip()
    return PageHead(found.get("title", ""), found.get("lang", "").lower(), found.get("href", ""))


def page_text(data: bytes) -> str:
    """A page's bytes (UTF-8, as the fingerprint decodes them; at most MAX_PARSED_BYTES) as text
    for the stdlib parser (no lxml: the same tree on every platform), its raw text and
    comments left out (without_raw_text)."""
    text = data[:MAX_PARSED_BYTES].removeprefix(_UTF8_BOM).decode("utf-8", "replace")
    return without_raw_text(text)


def main_slice(text: str) -> str | None:
    """The part of ``text`` from its first <main> to its last </main> (or its end): all a page
    with a <main> is parsed for (its navigation, sidebars and footer around it are furniture);
    None for a page without one."""
    start = _MAIN_START.search(text)
    if start is None:
        return None
    end = None
    for found in _MAIN_END.finditer(text, start.end()):
        end = found
    return text[start.start() : end.end() if end else len(text)]


def without_raw_text(text: str) -> str:
    """``text`` without its comments and the elements no reader reads as text (scripts,
    styles, drawings: RAW_TEXT), each to its first end tag, or to the end of the text as a
    browser reads one left open. One scan: html.parser spends half its time on a themed
    page's scripts and inline icons, which the region leaves out anyway."""
    pieces = []
    at = 0
    while found := _RAW_START.search(text, at):
        pieces.append(text[at : found.start()])
        if found[1] is None:
            end = text.find("-->", found.end())
            at = end + 3 if end >= 0 else len(text)
        else:
            closed = _RAW_END[found[1].lower()].search(text, found.end())
            at = closed.end() if closed else len(text)
    pieces.append(text[at:])
    return "".join(pieces)
