"""Tell whether an HTML page's robots meta tag keeps it out of search indexes (noindex)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Final, Protocol

from sitemill.errors import SourceError
from sitemill.htmlhead import HEAD_TAGS, HTML_SPACE, META_TAG, RAW_TEXT_TAGS, bound_head

BLOCK_SIZE: Final = 16 * 1024

# Meta names Google obeys for web search; other crawlers' names (bingbot, googlebot-news, ...)
# do not keep a page out of a sitemap meant for everyone.
# https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag
_ROBOTS_NAMES: Final = ("robots", "googlebot")
# "none" is documented as "noindex, nofollow"; "nofollow" alone still lets the page be indexed.
_NOINDEX_RULES: Final = ("noindex", "none")
_CONTENT_SEPARATORS: Final = re.compile(r"[\s,]+")
_UTF8_BOM: Final = b"\xef\xbb\xbf"


def head_is_noindex(data: bytes) -> bool:
    """Whether this HTML (or its first bytes) has a robots meta noindex in its head."""
    return _decide(data, complete=True) is True


def page_is_noindex(path: Path) -> bool:
    """Whether the HTML file at ``path`` says noindex; reads only until its head ends."""
    try:
        with open(path, "rb", buffering=0) as stream:
            return _stream_is_noindex(stream)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from exc


class _Reader(Protocol):
    def read(self, size: int, /) -> bytes | None: ...


def _stream_is_noindex(stream: _Reader) -> bool:
    data = b""
    want = BLOCK_SIZE
    while True:
        chunk = _read_fully(stream, want)
        data += chunk
        verdict = _decide(data, complete=len(chunk) < want)
        if verdict is not None:
            return verdict
        # Heads longer than a block are rare; doubling what we hold keeps re-checks linear.
        want = len(data)


def _read_fully(stream: _Reader, size: int) -> bytes:
    """``size`` bytes, or fewer at the end of the file (one raw read may return less)."""
    chunks: list[bytes] = []
    while size > 0 and (chunk := stream.read(size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _decide(data: bytes, *, complete: bool) -> bool | None:
    """The verdict on ``data``, or None when its head may go on past it."""
    start = len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0
    low, end = bound_head(data, start)
    if end < 0:
        end = len(data)
    elif not complete:
        complete = True  # the head ends before ``end``: what follows cannot change the verdict
    if _may_hold_noindex(low, start, end):
        return _parse_head(data[start:end].decode("latin-1"), complete=complete)
    return False if complete else None


def _may_hold_noindex(low: bytes, start: int, end: int) -> bool:
    """Whether ``low[start:end]`` may hold a robots meta noindex: a superset of the parser's."""
    for name in (b"robots", b"googlebot"):
        at = low.find(name, start, end)
        while at >= 0:
            # A meta tag holding the name decides by its own text; elsewhere (or if the tag is
            # unclear) the name may still belong to a meta, so any rule in the head counts.
            # (Fooled only by a "<meta" written inside the robots meta's own attribute value.)
            tag_start = low.rfind(b"<", start, at)
            tag = META_TAG.match(low, tag_start) if tag_start >= 0 else None
            text = low[tag_start : tag.end()] if tag and tag.end() > at else low[start:end]
            if b"noindex" in text or b"none" in text:
                return True
            at = low.find(name, at + len(name), end)
    return False


def _parse_head(text: str, *, complete: bool) -> bool | None:
    parser = _HeadParser()
    try:
        parser.feed(text)
        if complete:
            parser.close()
    except _Verdict as verdict:
        return verdict.noindex
    return False if complete else None


class _Verdict(Exception):
    """Raised by the parser to stop at the first decisive token."""

    def __init__(self, noindex: bool) -> None:
        super().__init__(noindex)
        self.noindex = noindex


class _HeadParser(HTMLParser):
    """Follows the HTML tree builder just far enough to know what belongs to the head."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._template_depth = 0  # template contents are inert, never part of the head
        self._after_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in RAW_TEXT_TAGS and tag not in self.CDATA_CONTENT_ELEMENTS:
            self.set_cdata_mode(tag)
        if self._template_depth:
            if tag == "template":
                self._template_depth += 1
            return
        # After </head> the head still takes metadata tags, but no longer <noscript>.
        # https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode
        if tag not in HEAD_TAGS or (self._after_head and tag == "noscript"):
            raise _Verdict(noindex=False)
        if tag == "template":
            self._template_depth = 1
        elif tag == "meta" and _is_noindex_meta(attrs):
            raise _Verdict(noindex=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # HTML ignores "/>" but on void elements: <script/> still opens raw text, <head/> a head.
        self.handle_starttag(tag, attrs)
        if tag in RAW_TEXT_TAGS:
            self.set_cdata_mode(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._template_depth:
            if tag == "template":
                self._template_depth -= 1
        elif tag in {"body", "html", "br"}:
            raise _Verdict(noindex=False)
        elif tag == "head":
            self._after_head = True

    def handle_data(self, data: str) -> None:
        # Text that is not whitespace, outside raw-text elements, opens the body.
        if self.cdata_elem is None and not self._template_depth and data.strip(HTML_SPACE):
            raise _Verdict(noindex=False)


def _is_noindex_meta(attrs: list[tuple[str, str | None]]) -> bool:
    values: dict[str, str] = {}
    for key, value in attrs:
        values.setdefault(key, value or "")  # HTML keeps the first of repeated attributes
    # A trailing "/" is the self-closing slash of an unquoted value (<meta content=noindex/>).
    name = values.get("name", "").strip(HTML_SPACE).rstrip("/").lower()
    if name not in _ROBOTS_NAMES:
        return False
    tokens = _CONTENT_SEPARATORS.split(values.get("content", "").lower())
    return any(token.rstrip("/") in _NOINDEX_RULES for token in tokens)
