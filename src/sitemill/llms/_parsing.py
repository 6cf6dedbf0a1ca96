"""A page's head, and its text for the parser without what no reader reads as text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from sitemill.html.head import head_start_tags

# Bytes of a page read at most: a page past this is read to there (html.parser closes what is
# open), so a 100 MB file costs no more than a 4 MB one.
MAX_PARSED_BYTES: Final = 4 * 1024 * 1024
RAW_TEXT: Final = ("script", "style", "svg", "math", "template", "noscript", "textarea")
_RAW_START: Final = re.compile(rf"<!--|<({'|'.join(RAW_TEXT)})\b", re.IGNORECASE)
_RAW_END: Final = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in RAW_TEXT}


_HEAD_TAGS: Final = frozenset({"html", "base"})


@dataclass(frozen=True, slots=True)
class PageHead:
    """What a page's head says that its content region needs: its <html lang> (lower-cased)
    and its <base href> ("" when it has none). (Its <title> is the fingerprint's to read:
    fingerprint.regionplan.)"""

    lang: str = ""
    base: str = ""


def page_head(data: bytes) -> PageHead:
    """The head of the page ``data`` (sitemill.html.head's scan: no parse of the body)."""
    found: dict[str, str] = {}
    for tag in head_start_tags(data[:MAX_PARSED_BYTES], _HEAD_TAGS):
        for name, value in tag.attributes():
            wanted = {"html": "lang", "base": "href"}.get(tag.name)
            if name == wanted and wanted not in found:
                found[wanted] = value.strip()
    return PageHead(found.get("lang", "").lower(), found.get("href", ""))


def without_raw_text(text: str) -> str:
    """``text`` without its comments and the elements no reader reads as text (raw_text_cuts)."""
    return "".join(raw_text_cuts(text, 0, len(text))[0])


def raw_text_cuts(text: str, start: int, end: int) -> tuple[list[str], list[int]]:
    """``text[start:end]`` without its comments and the elements no reader reads as text
    (scripts, styles, drawings: RAW_TEXT), each to its first end tag, or to the end as a
    browser reads one left open: the pieces kept, and where each starts in ``text``. One
    scan: html.parser spends half its time on a themed page's scripts and inline icons, which
    the region leaves out anyway."""
    pieces: list[str] = []
    sources: list[int] = []
    at = start
    while found := _RAW_START.search(text, at, end):
        pieces.append(text[at : found.start()])
        sources.append(at)
        if found[1] is None:
            closed = text.find("-->", found.end(), end)
            at = closed + 3 if closed >= 0 else end
        else:
            tag = _RAW_END[found[1].lower()].search(text, found.end(), end)
            at = tag.end() if tag else end
    pieces.append(text[at:end])
    sources.append(at)
    return pieces, sources
