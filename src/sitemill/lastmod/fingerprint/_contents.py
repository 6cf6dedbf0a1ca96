"""A table of contents: links to the page's own headings say nothing new (fingerprint v11)."""
# A table of contents is furniture (docs/lastmod.md), wherever it stands: a block whose links go
# to the page's own fragments and whose words repeat the page's own headings says nothing the page
# does not say. A theme that puts one in (asciidoctor's and Jekyll's ``div#toc``, JSDoc's "Table of
# Contents") or renumbers it changes no word a reader reads in the page's own text.
#
# An entry is a link to the page itself with a fragment (``#part``, ``page.html#part``) whose
# words, a leading section number ("1.2") aside, are the words of one of the page's headings
# (``<h1>`` to ``<h6>``, letter case aside); a link inside a heading (its permalink) is the
# heading's. Each entry leaves the reduction with its words. A heading with nothing but entries
# under it (at least two: "Table of Contents", "On this page") is the table's title and leaves with
# it. A link to the page's own fragment whose words are no heading's (a footnote, "back to top", a
# glossary's term) is text, and so is prose around an entry.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint import targets
from sitemill.lastmod.fingerprint._articles import (
    HEADING_END,
    HEADING_START,
    HEADLINE_END,
    HEADLINE_START,
)
from sitemill.lastmod.fingerprint.targetmarks import LINK_END_MARK, MARK_EDGE
from sitemill.lastmod.fingerprint.targetmarks import MARK_OR_MARKER as _TOKEN

_HEADINGS: Final = re.compile(
    f"(?:{re.escape(HEADLINE_START)}|{re.escape(HEADING_START)})(.*?)"
    f"(?:{re.escape(HEADLINE_END)}|{re.escape(HEADING_END)})",
    re.DOTALL,
)
_LINK: Final = re.compile(
    f"{MARK_EDGE}H([^{MARK_EDGE}]*){MARK_EDGE}([^{MARK_EDGE}\x02]*?){re.escape(LINK_END_MARK)}"
)
_NUMBER: Final = re.compile(r"^\d+(?:\.\d+)*\.?(?=\s|$)")
_WORDS: Final = re.compile(r"\w+")
# A heading over nothing but entries: its title (no mark inside it), white space after it.
_TITLE: Final = re.compile(
    f"{re.escape(HEADING_START)}[^{MARK_EDGE}\x02]*{re.escape(HEADING_END)}\\s*\\Z"
)
_LEAST_ENTRIES: Final = 2


def leave_out_contents(text: str, url: str) -> str:
    """``text`` (a page's marked text, before its region is selected) without its table of
    contents (see above). ``url``: the page's URL."""
    if "#" not in text or (HEADING_START not in text and HEADLINE_START not in text):
        return text
    headings: set[str] = set()
    inside: list[tuple[int, int]] = []
    # (a heading ends at an end marker: none is sought past the last one, where each start
    # marker left open would be read to the page's end, a scan of the rest for each)
    last = max(text.rfind(HEADLINE_END), text.rfind(HEADING_END))
    for heading in _HEADINGS.finditer(text, 0, last + len(HEADING_END) if last >= 0 else 0):
        inside.append(heading.span())
        words = _words(_TOKEN.sub(" ", heading[1]))
        if words:
            headings.add(words)
    entries = [
        link.span()
        for link in _LINK.finditer(text)
        if "#" in link[1]
        and not link[1].endswith("#")
        and targets.follow(link[1], url) is None
        and _words(link[2]) in headings
        and not any(start <= link.start() < end for start, end in inside)
    ]
    if not entries:
        return text
    return _without(text, entries)


def _words(text: str) -> str:
    """The words of ``text``, a leading section number aside, in lower case, one space apart."""
    return " ".join(_WORDS.findall(_NUMBER.sub("", text.strip()).casefold()))


def _without(text: str, entries: list[tuple[int, int]]) -> str:
    """``text`` without its ``entries`` (a space each), and each run of at least two of them
    that only white space parts without the heading right before it."""
    kept: list[str] = []
    at = 0
    run_start, run = 0, 0
    for start, end in entries:
        between = text[at:start]
        if run and not between.strip():
            run += 1
        else:
            _close(kept, run_start, run)
            kept.append(between)
            run_start, run = len(kept), 1
        kept.append(" ")
        at = end
    _close(kept, run_start, run)
    kept.append(text[at:])
    return "".join(kept)


def _close(kept: list[str], run_start: int, run: int) -> None:
    """With a run of at least two entries, the heading right before it (in ``kept``'s piece
    before the run) left out."""
    if run >= _LEAST_ENTRIES and run_start:
        before = kept[run_start - 1]
        title = _TITLE.search(before)
        if title is not None:
            kept[run_start - 1] = before[: title.start()] + " "
