"""Tell whether an HTML page's robots meta tag keeps it out of search indexes (noindex)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Final, Protocol

from sitemill.errors import SourceError

BLOCK_SIZE: Final = 16 * 1024

# Meta names Google obeys for web search; other crawlers' names (bingbot, googlebot-news, ...)
# do not keep a page out of a sitemap meant for everyone.
# https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag
_ROBOTS_NAMES: Final = ("robots", "googlebot")
# "none" is documented as "noindex, nofollow"; "nofollow" alone still lets the page be indexed.
_NOINDEX_RULES: Final = ("noindex", "none")
# Start tags that the HTML "in head" insertion mode keeps in the head; any other opens the body.
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
_HEAD_TAGS: Final = frozenset(
    {"html", "head", "base", "basefont", "bgsound", "link", "meta"}
    | {"noframes", "noscript", "script", "style", "template", "title"}
)
# In the head their content is text, not markup. Googlebot renders with scripting on, so
# <noscript> is raw text too and a meta inside it does not count.
_RAW_TEXT_TAGS: Final = frozenset({"noframes", "noscript", "script", "style", "title"})
_HTML_SPACE: Final = " \t\n\f\r"
_HTML_SPACE_BYTES: Final = _HTML_SPACE.encode()
_NAME_END_BYTES: Final = frozenset(bytes([byte]) for byte in b" \t\n\f\r/>")
_CONTENT_SEPARATORS: Final = re.compile(r"[\s,]+")
_UTF8_BOM: Final = b"\xef\xbb\xbf"

# The byte-level pre-check below works on lower-cased bytes. It never answers "noindex" itself:
# it bounds the head from above, and only a robots meta tag holding "noindex" or "none" inside
# that bound is handed to the parser. Every regex follows the HTML tokenizer closely enough to
# err only towards a longer head. Known limits, each needing odd markup: a name or rule spelled
# with character references (&#110;oindex), and an attribute value holding tag-like text (see
# _not_in_tag and _may_hold_noindex).
_SPACE = r"[\t\n\f\r ]"
_NAME_END = r"[\t\n\f\r />]"
# html.parser also takes \x0b, \x1c-\x1f, \x85 and \xa0 as space around "=" (latin-1 text).
_WIDE_SPACE = r"[\t\n\x0b\f\r \x1c-\x1f\x85\xa0]"
# Attributes up to the closing ">": quotes count only after "=", as in the HTML tokenizer.
_ATTRS = rf"""(?: [^>"'=]++ | ={_WIDE_SPACE}*+ (?: "[^"]*+" | '[^']*+' | (?!["'])) | ["'] )*+"""
_HEAD_NAMES = "|".join(sorted(_HEAD_TAGS))
_RAW_NAMES = "|".join(sorted(_RAW_TEXT_TAGS))
_VOID_HEAD_NAMES = "|".join(sorted(_HEAD_TAGS - _RAW_TEXT_TAGS - {"template"}))
# A raw-text element whole, to the first end tag that closes it for every parser. (One
# alternative per name: a backreference inside a possessive repeat trips Python 3.11's re.)
_RAW_ELEMENTS = " | ".join(
    rf"<{name}(?={_NAME_END}) {_ATTRS} > (?: [^<]++ | <(?!/{name}{_SPACE}*+>) )*+"
    rf" </{name}{_SPACE}*+>"
    for name in sorted(_RAW_TEXT_TAGS)
)


def _compile(pattern: str) -> re.Pattern[bytes]:
    return re.compile(pattern.encode("latin-1"), re.VERBOSE)


# Everything the head may hold; <template> is left out (its inert content may hold anything).
_HEAD_MARKUP: Final = _compile(
    rf"""(?: {_SPACE}++ | <(?:{_VOID_HEAD_NAMES})(?={_NAME_END}) {_ATTRS} > | {_RAW_ELEMENTS}
    | <!--(?: [^-]++ | -(?!->) )*+--> | </(?!(?:body|html|br){_NAME_END})[a-z][^>]*+>
    | <!(?!--|\[)[^>]*+> | <\?[^>]*+> )*+"""
)
# What surely opens the body where _HEAD_MARKUP stops: a complete non-head start tag, an end
# tag the head does not ignore, or a "<" that starts no tag (it is text).
_BODY_START: Final = _compile(
    rf"""<(?: /(?:body|html|br){_NAME_END} | [^a-z!/?]
    | (?!(?:{_HEAD_NAMES}){_NAME_END})[a-z][^\t\n\f\r />]*+{_NAME_END} )"""
)
# Comments and raw-text elements, which may hide a "</head><body" that is only text.
_HIDING_OPENER: Final = _compile(rf"<(!--|!\[|(?:template|{_RAW_NAMES})(?={_NAME_END}))")
_RAW_CLOSER: Final = {
    name.encode(): _compile(rf"</{name}{_SPACE}*+>") for name in sorted(_RAW_TEXT_TAGS)
}
_META_TAG: Final = _compile(rf"<meta(?={_NAME_END}) {_ATTRS} >")


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
    low, end = _bound_head(data, start)
    if end < 0:
        end = len(data)
    elif not complete:
        complete = True  # the head ends before ``end``: what follows cannot change the verdict
    if _may_hold_noindex(low, start, end):
        return _parse_head(data[start:end].decode("latin-1"), complete=complete)
    return False if complete else None


def _bound_head(data: bytes, start: int) -> tuple[bytes, int]:
    """Lower-cased bytes and a position the head surely ends by (-1 if it may go on)."""
    # The usual "</head> <body": cheap to find, and real unless a comment or raw text hides it.
    body = data.find(b"<body", start)
    if body >= 0 and data[body + 5 : body + 6] in _NAME_END_BYTES:
        low = data[:body].lower()
        head_end = low.rfind(b"</head>", start)
        if (
            head_end >= 0
            and not low[head_end + 7 :].strip(_HTML_SPACE_BYTES)
            and _not_hidden(low, start, head_end)
            and _not_in_tag(low, start, head_end)
        ):
            return low, body
    low = data.lower()
    scanned = _HEAD_MARKUP.match(low, start)
    end = scanned.end() if scanned else start
    if end < len(low) and (low[end] != ord("<") or _BODY_START.match(low, end)):
        return low, end
    return low, -1


def _not_hidden(low: bytes, start: int, pos: int) -> bool:
    """Whether ``pos`` is outside every comment and raw-text element (walked in order)."""
    at = start
    while (opener := _HIDING_OPENER.search(low, at, pos)) is not None:
        kind = opener.group(1)
        if kind == b"!--":
            # "<!-->" and "<!--->" close at once for HTML but not for every html.parser
            if low.startswith((b">", b"->"), opener.end()):
                return False
            at = low.find(b"-->", opener.end(), pos) + 3
        elif kind in _RAW_CLOSER and (closer := _RAW_CLOSER[kind].search(low, opener.end(), pos)):
            at = closer.end()
        else:  # a template, a marked section, or an element still open at pos
            return False
        if at < opener.end():
            return False
    return True


def _not_in_tag(low: bytes, start: int, pos: int) -> bool:
    """Whether ``pos`` follows a whole tag, not a ">" inside a quoted attribute value.

    A cheap look at the last tag only: an attribute value holding a quote-free tag and then
    "</head> <body" would still pass, and end the head there (tested as a known limit).
    """
    tag_start = low.rfind(b"<", start, pos)
    tag_end = low.rfind(b">", start, pos)
    if tag_start > tag_end:
        return False
    tag = low[tag_start:tag_end] if tag_start >= 0 else b""
    return tag.count(b'"') % 2 == 0 and tag.count(b"'") % 2 == 0


def _may_hold_noindex(low: bytes, start: int, end: int) -> bool:
    """Whether ``low[start:end]`` may hold a robots meta noindex: a superset of the parser's."""
    for name in (b"robots", b"googlebot"):
        at = low.find(name, start, end)
        while at >= 0:
            # A meta tag holding the name decides by its own text; elsewhere (or if the tag is
            # unclear) the name may still belong to a meta, so any rule in the head counts.
            # (Fooled only by a "<meta" written inside the robots meta's own attribute value.)
            tag_start = low.rfind(b"<", start, at)
            tag = _META_TAG.match(low, tag_start) if tag_start >= 0 else None
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
        if tag in _RAW_TEXT_TAGS and tag not in self.CDATA_CONTENT_ELEMENTS:
            self.set_cdata_mode(tag)
        if self._template_depth:
            if tag == "template":
                self._template_depth += 1
            return
        # After </head> the head still takes metadata tags, but no longer <noscript>.
        # https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode
        if tag not in _HEAD_TAGS or (self._after_head and tag == "noscript"):
            raise _Verdict(noindex=False)
        if tag == "template":
            self._template_depth = 1
        elif tag == "meta" and _is_noindex_meta(attrs):
            raise _Verdict(noindex=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # HTML ignores "/>" but on void elements: <script/> still opens raw text, <head/> a head.
        self.handle_starttag(tag, attrs)
        if tag in _RAW_TEXT_TAGS:
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
        if self.cdata_elem is None and not self._template_depth and data.strip(_HTML_SPACE):
            raise _Verdict(noindex=False)


def _is_noindex_meta(attrs: list[tuple[str, str | None]]) -> bool:
    values: dict[str, str] = {}
    for key, value in attrs:
        values.setdefault(key, value or "")  # HTML keeps the first of repeated attributes
    # A trailing "/" is the self-closing slash of an unquoted value (<meta content=noindex/>).
    name = values.get("name", "").strip(_HTML_SPACE).rstrip("/").lower()
    if name not in _ROBOTS_NAMES:
        return False
    tokens = _CONTENT_SEPARATORS.split(values.get("content", "").lower())
    return any(token.rstrip("/") in _NOINDEX_RULES for token in tokens)
