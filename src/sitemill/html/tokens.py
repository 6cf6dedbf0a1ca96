"""The regular expressions that read an HTML page's head as the WHATWG tokenizer does."""
# Tokens (comments, bogus comments, tags with their attribute states), the raw text and script data
# states, and the "skippers": runs of head markup that change nothing, matched by one call each so
# that most of a head needs no step in Python (see sitemill.html.head).
# https://html.spec.whatwg.org/multipage/parsing.html#tokenization

from __future__ import annotations

import functools
import re
from typing import Final

# Start tags that the "in head" insertion mode keeps in the head; any other opens the body.
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
HEAD_TAGS: Final = frozenset(
    {"html", "head", "base", "basefont", "bgsound", "link", "meta"}
    | {"noframes", "noscript", "script", "style", "template", "title"}
)
# Elements whose content the tokenizer reads as text up to their end tag (<script> has more
# states, see head._script_end). Googlebot renders with scripting on, so <noscript> is
# raw text and a meta inside it does not count (but for a refresh, which a crawler that runs
# no script follows: sitemill.html.facts reads the head's <noscript> for it). Those outside
# HEAD_TAGS matter only inside a <template>, whose content is tokenized but inert.
RAW_TEXT_TAGS: Final = frozenset(
    {"iframe", "noembed", "noframes", "noscript", "style", "textarea", "title", "xmp"}
)
HTML_SPACE: Final = " \t\n\f\r"

_SPACE = r"[\t\n\f\r ]"
_NAME_END = r"(?=[\t\n\f\r />])"
_TAG_NAME = r"[a-z][^\t\n\f\r />]*+"
# "<!-->" and "<!--->" are whole comments; "--!>" closes one too.
_COMMENT = r"<!--(?: -?> | (?: [^-]++ | -(?!-!?>) )*+ --!?> )"
# DOCTYPEs, CDATA outside foreign content, processing instructions, "</" without a name.
_BOGUS_COMMENT = r"<!(?!--)[^>]*+> | <\?[^>]*+> | </(?![a-z])[^>]*+>"
TEXT_CONTENT: Final = RAW_TEXT_TAGS | {"plaintext", "script"}  # start tags that open text
_VOID_HEAD_TAGS: Final = HEAD_TAGS - TEXT_CONTENT - {"template"}


def _attributes_pattern(marks: tuple[bytes, ...] = ()) -> str:
    """A tag's attributes up to its ">", as the tokenizer's attribute states read them.

    Quotes count only right after "=", a "/" not before ">" is ignored, and a quoted value
    runs to its closing quote or to the end of the bytes (where no ">" can follow: a tag cut
    off there never ends). With ``marks`` (that hold no space, "/", "=", ">" or quote, so
    that each lies inside one name or value): only attributes in which none of them occurs.
    """
    texts = [mark.decode("latin-1") for mark in marks]
    firsts = sorted({text[0] for text in texts})
    # A mark's first character is fine where the rest of no mark follows it.
    allowed = "".join(
        f" | {re.escape(first)}(?!{'|'.join(re.escape(t[1:]) for t in texts if t[0] == first)})"
        for first in firsts
    )
    avoided = "".join(map(re.escape, firsts))

    def chars(excluded: str, repeat: str) -> str:
        if not marks:
            return f"[^{excluded}]{repeat}"
        return f"(?: [^{excluded}{avoided}]{'++' if repeat else ''}{allowed} ){repeat}"

    space, separator = r"\t\n\f\r ", r"\t\n\f\r /"
    name = chars(separator + ">", "") + chars(separator + "=>", "*+")
    double, single, bare = chars('"', "*+"), chars("'", "*+"), chars(space + ">", "++")
    value = f"""(?: "{double}"?+ | '{single}'?+ | {bare} | (?=>) )"""
    return f"(?: [{separator}]++ | {name} (?: [{space}]*+ = [{space}]*+ {value} )?+ )*+"


_ATTRS = _attributes_pattern()


def _compile(pattern: str) -> re.Pattern[bytes]:
    return re.compile(pattern.encode("latin-1"), re.VERBOSE)


# One token after any white space. Its alternatives begin differently, so at most one gets
# past its first bytes; none matches only where a comment, a declaration or a tag is still
# open at the end of the bytes.
TOKEN: Final = _compile(
    rf"""{_SPACE}*+ (?: (?P<text> [^<]++ | <(?![a-z!/?]) ) | {_COMMENT} | {_BOGUS_COMMENT}
    | (?P<tag> <(?P<end>/?+)(?P<name>{_TAG_NAME}) {_ATTRS} > ) )"""
)
# Runs of tokens that change nothing (they neither end the head nor change the tokenizer's
# state), matched by one call each: most of a head needs no step in Python. Their
# alternatives begin differently too, so a run costs one pass over what it matches and
# what stops it.
_PLAIN_SCRIPT = (  # a script without "<!--" (the escapes are head._script_end's)
    rf"<script{_NAME_END} {_ATTRS} > (?: [^<]++ | <(?!!--|/script{_NAME_END}) )*+"
    rf" </script{_NAME_END} {_ATTRS} >"
)
_STATE_CHANGERS = "|".join(sorted(TEXT_CONTENT | {"template"}))
# Inside a <template>: all but the start tags that change the tokenizer's state, and the
# template's end tag.
TEMPLATE_SKIPPER: Final = _compile(
    rf"""(?: [^<]++ | <(?![a-z!/?]) | {_COMMENT} | {_BOGUS_COMMENT}
    | <(?!(?:{_STATE_CHANGERS}){_NAME_END}|/template{_NAME_END})/?+{_TAG_NAME} {_ATTRS} > )*+"""
)


@functools.cache
def head_skipper(
    names: frozenset[str], marks: tuple[tuple[bytes, ...], ...], after_head: bool
) -> re.Pattern[bytes]:
    """Inert head markup: all but what may end the head and the start tags in ``names``
    (but those of them that hold no mark of one of the groups in ``marks``)."""
    ends = "body|br|html" if after_head else "body|br|head|html"  # a second </head> is inert
    parts = [
        rf"{_SPACE}++",
        _COMMENT,
        _BOGUS_COMMENT,
        rf"</(?!(?:{ends}){_NAME_END}){_TAG_NAME} {_ATTRS} >",
    ]
    if "script" not in names:
        parts.append(_PLAIN_SCRIPT)
    if void := "|".join(sorted(_VOID_HEAD_TAGS - names)):
        parts.append(rf"<(?:{void}){_NAME_END} {_ATTRS} >")
    if marks and (wanted := "|".join(sorted(_VOID_HEAD_TAGS & names))):
        # One alternative per group (each tried from the tag's start: a constant factor).
        unmarked = " | ".join(f"{_attributes_pattern(group)} >" for group in marks)
        parts.append(rf"<(?:{wanted}){_NAME_END} (?: {unmarked} )")
    raw = (HEAD_TAGS & RAW_TEXT_TAGS) - names
    for name in sorted(raw - {"noscript"} if after_head else raw):  # it opens the body there
        parts.append(
            rf"<{name}{_NAME_END} {_ATTRS} > (?: [^<]++ | <(?!/{name}{_NAME_END}) )*+"
            rf" </{name}{_NAME_END} {_ATTRS} >"
        )
    return _compile(f"(?: {' | '.join(parts)} )*+")


RAW_TEXT_END: Final = {name: _compile(rf"</{name}{_NAME_END}") for name in RAW_TEXT_TAGS}
# Script data and its escaped states: after "<!--", a "<script" makes the next "</script"
# text ("double escaped"), until "-->" leaves both.
# https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state
SCRIPT_DATA: Final = _compile(rf"(?P<escape><!--) | (?P<end></script{_NAME_END})")
_SCRIPT_ESCAPED: Final = _compile(
    rf"(?P<unescape>-->) | (?P<end></script{_NAME_END}) | (?P<double><script{_NAME_END})"
)
_SCRIPT_DOUBLE_ESCAPED: Final = _compile(rf"(?P<unescape>-->) | (?P<undouble></script{_NAME_END})")
SCRIPT_STATES: Final = {
    "escape": _SCRIPT_ESCAPED,
    "unescape": SCRIPT_DATA,
    "double": _SCRIPT_DOUBLE_ESCAPED,
    "undouble": _SCRIPT_ESCAPED,
}
# One attribute of a whole start tag (original case), with its value if it has one.
ATTRIBUTE: Final = _compile(
    rf"""[\t\n\f\r /]*+ ([^\t\n\f\r />][^\t\n\f\r /=>]*+)
    (?: {_SPACE}*+ = {_SPACE}*+ (?: "([^"]*+)" | '([^']*+)' | ([^\t\n\f\r >]*+) ) )?+"""
)
