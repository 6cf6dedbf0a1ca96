"""Where an HTML page's head surely ends, found in its bytes before any parsing."""

from __future__ import annotations

import re
from typing import Final

# Start tags that the HTML "in head" insertion mode keeps in the head; any other opens the body.
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
HEAD_TAGS: Final = frozenset(
    {"html", "head", "base", "basefont", "bgsound", "link", "meta"}
    | {"noframes", "noscript", "script", "style", "template", "title"}
)
# In the head their content is text, not markup. Googlebot renders with scripting on, so
# <noscript> is raw text too and a meta inside it does not count.
RAW_TEXT_TAGS: Final = frozenset({"noframes", "noscript", "script", "style", "title"})
HTML_SPACE: Final = " \t\n\f\r"
_HTML_SPACE_BYTES: Final = HTML_SPACE.encode()
_NAME_END_BYTES: Final = frozenset(bytes([byte]) for byte in b" \t\n\f\r/>")

# The byte-level pre-check below works on lower-cased bytes. It never answers "noindex" itself:
# it bounds the head from above, and only a robots meta tag holding "noindex" or "none" inside
# that bound is handed to the parser. Every regex follows the HTML tokenizer closely enough to
# err only towards a longer head. Known limits, each needing odd markup: a name or rule spelled
# with character references (&#110;oindex), and an attribute value holding tag-like text (see
# _not_in_tag here and _may_hold_noindex in sitemill.noindex).
_SPACE = r"[\t\n\f\r ]"
_NAME_END = r"[\t\n\f\r />]"
# html.parser also takes \x0b, \x1c-\x1f, \x85 and \xa0 as space around "=" (latin-1 text).
_WIDE_SPACE = r"[\t\n\x0b\f\r \x1c-\x1f\x85\xa0]"
# Attributes up to the closing ">": quotes count only after "=", as in the HTML tokenizer.
_ATTRS = rf"""(?: [^>"'=]++ | ={_WIDE_SPACE}*+ (?: "[^"]*+" | '[^']*+' | (?!["'])) | ["'] )*+"""
_HEAD_NAMES = "|".join(sorted(HEAD_TAGS))
_RAW_NAMES = "|".join(sorted(RAW_TEXT_TAGS))
_VOID_HEAD_NAMES = "|".join(sorted(HEAD_TAGS - RAW_TEXT_TAGS - {"template"}))
# A raw-text element whole, to the first end tag that closes it for every parser. (One
# alternative per name: a backreference inside a possessive repeat trips Python 3.11's re.)
_RAW_ELEMENTS = " | ".join(
    rf"<{name}(?={_NAME_END}) {_ATTRS} > (?: [^<]++ | <(?!/{name}{_SPACE}*+>) )*+"
    rf" </{name}{_SPACE}*+>"
    for name in sorted(RAW_TEXT_TAGS)
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
    name.encode(): _compile(rf"</{name}{_SPACE}*+>") for name in sorted(RAW_TEXT_TAGS)
}
# A whole <meta> start tag: sitemill.noindex reads a robots name and its rule inside one.
META_TAG: Final = _compile(rf"<meta(?={_NAME_END}) {_ATTRS} >")


def bound_head(data: bytes, start: int) -> tuple[bytes, int]:
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
