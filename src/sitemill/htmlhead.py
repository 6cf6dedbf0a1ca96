"""The start tags of an HTML page's head, as an HTML parser sees them, in one linear pass.

The page's first bytes are tokenized as the WHATWG tokenizer does (comments, raw text, script
escapes, quoted attribute values) and followed through the tree builder's "in head" and
"after head" modes just far enough to know where the head ends. The scan only moves forward:
a construct still open where the bytes end (a comment, a tag cut off by a prefix) ends it, as
the end of a file ends a parser's work, so the cost is linear in the input.
https://html.spec.whatwg.org/multipage/parsing.html#tokenization
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

# Start tags that the "in head" insertion mode keeps in the head; any other opens the body.
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
HEAD_TAGS: Final = frozenset(
    {"html", "head", "base", "basefont", "bgsound", "link", "meta"}
    | {"noframes", "noscript", "script", "style", "template", "title"}
)
# Elements whose content the tokenizer reads as text up to their end tag (<script> has more
# states, see _script_end). Googlebot renders with scripting on, so <noscript> is raw text and
# a meta inside it does not count. Those outside HEAD_TAGS matter only inside a <template>,
# whose content is tokenized but inert.
RAW_TEXT_TAGS: Final = frozenset(
    {"iframe", "noembed", "noframes", "noscript", "style", "textarea", "title", "xmp"}
)
HTML_SPACE: Final = " \t\n\f\r"

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_FIRST_LOOK: Final = 8 * 1024  # bytes scanned at first (see head_start_tags)
_SPACE = r"[\t\n\f\r ]"
_NAME_END = r"(?=[\t\n\f\r />])"
_TAG_NAME = r"[a-z][^\t\n\f\r />]*+"
# "<!-->" and "<!--->" are whole comments; "--!>" closes one too.
_COMMENT = r"<!--(?: -?> | (?: [^-]++ | -(?!-!?>) )*+ --!?> )"
# DOCTYPEs, CDATA outside foreign content, processing instructions, "</" without a name.
_BOGUS_COMMENT = r"<!(?!--)[^>]*+> | <\?[^>]*+> | </(?![a-z])[^>]*+>"
_TEXT_CONTENT: Final = RAW_TEXT_TAGS | {"plaintext", "script"}  # start tags that open text
_VOID_HEAD_TAGS: Final = HEAD_TAGS - _TEXT_CONTENT - {"template"}


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
_TOKEN: Final = _compile(
    rf"""{_SPACE}*+ (?: (?P<text> [^<]++ | <(?![a-z!/?]) ) | {_COMMENT} | {_BOGUS_COMMENT}
    | (?P<tag> <(?P<end>/?+)(?P<name>{_TAG_NAME}) {_ATTRS} > ) )"""
)
# Runs of tokens that change nothing (they neither end the head nor change the tokenizer's
# state), matched by one call each: most of a head needs no step in Python. Their
# alternatives begin differently too, so a run costs one pass over what it matches and
# what stops it.
_PLAIN_SCRIPT = (  # a script without "<!--" (the escapes are _script_end's)
    rf"<script{_NAME_END} {_ATTRS} > (?: [^<]++ | <(?!!--|/script{_NAME_END}) )*+"
    rf" </script{_NAME_END} {_ATTRS} >"
)
_STATE_CHANGERS = "|".join(sorted(_TEXT_CONTENT | {"template"}))
# Inside a <template>: all but the start tags that change the tokenizer's state, and the
# template's end tag.
_TEMPLATE_SKIPPER: Final = _compile(
    rf"""(?: [^<]++ | <(?![a-z!/?]) | {_COMMENT} | {_BOGUS_COMMENT}
    | <(?!(?:{_STATE_CHANGERS}){_NAME_END}|/template{_NAME_END})/?+{_TAG_NAME} {_ATTRS} > )*+"""
)


@functools.cache
def _head_skipper(
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


_RAW_TEXT_END: Final = {name: _compile(rf"</{name}{_NAME_END}") for name in RAW_TEXT_TAGS}
# Script data and its escaped states: after "<!--", a "<script" makes the next "</script"
# text ("double escaped"), until "-->" leaves both.
# https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state
_SCRIPT_DATA: Final = _compile(rf"(?P<escape><!--) | (?P<end></script{_NAME_END})")
_SCRIPT_ESCAPED: Final = _compile(
    rf"(?P<unescape>-->) | (?P<end></script{_NAME_END}) | (?P<double><script{_NAME_END})"
)
_SCRIPT_DOUBLE_ESCAPED: Final = _compile(rf"(?P<unescape>-->) | (?P<undouble></script{_NAME_END})")
_SCRIPT_STATES: Final = {
    "escape": _SCRIPT_ESCAPED,
    "unescape": _SCRIPT_DATA,
    "double": _SCRIPT_DOUBLE_ESCAPED,
    "undouble": _SCRIPT_ESCAPED,
}
# One attribute of a whole start tag (original case), with its value if it has one.
_ATTRIBUTE: Final = _compile(
    rf"""[\t\n\f\r /]*+ ([^\t\n\f\r />][^\t\n\f\r /=>]*+)
    (?: {_SPACE}*+ = {_SPACE}*+ (?: "([^"]*+)" | '([^']*+)' | ([^\t\n\f\r >]*+) ) )?+"""
)


@dataclass(frozen=True, slots=True)
class StartTag:
    """A start tag of the head: its lower-case name and its bytes from "<" to ">"."""

    name: str
    source: bytes

    def attributes(self) -> list[tuple[str, str]]:
        """(name, value) pairs in order: names lower-cased, character references decoded."""
        inner = _ATTRIBUTE.findall(self.source, len(self.name) + 1, len(self.source) - 1)
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
    # Most heads end long before the bytes do: lower-case (ASCII only, so offsets stay) the
    # first few KiB, and the rest only if a step of the scan comes near their end. Patterns
    # look a few bytes past what they match (a mark's length at most): a step that ends
    # nearer than that, or that runs into the end, is taken again on all the bytes.
    whole = len(data) <= _FIRST_LOOK
    low = (data if whole else data[:_FIRST_LOOK]).lower()
    margin = 4 + max((len(mark) for group in marks for mark in group), default=0)
    skippers = (_head_skipper(names, marks, False), _head_skipper(names, marks, True))
    pos = len(_UTF8_BOM) if low.startswith(_UTF8_BOM) else 0
    template_depth = 0
    after_head = False
    while True:
        skipper = _TEMPLATE_SKIPPER if template_depth else skippers[after_head]
        skipped = skipper.match(low, pos)  # a run, maybe empty
        token = _TOKEN.match(low, skipped.end() if skipped else pos)
        if token is None and whole:
            return  # the end, or a construct still open there
        tag = token.group("name").decode("latin-1") if token and token.group("name") else ""
        closing = bool(token and token.group("end"))
        end = token.end() if token else len(low)
        if tag in _TEXT_CONTENT and not closing:
            end = _content_end(low, end, tag)  # and the text that it opens
        if token is None or (end > len(low) - margin and not whole):
            low, whole = data.lower(), True  # and take this step again, on all the bytes
            continue
        pos = end
        if token.lastgroup == "text":
            if template_depth or not _is_text(token.group("text")):
                continue
            return  # text that is not white space opens the body
        if not tag:
            continue  # a comment: nothing to build
        if closing:
            if template_depth:
                template_depth -= 1 if tag == "template" else 0
            elif tag in {"body", "html", "br"}:
                return
            elif tag == "head":
                after_head = True
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
            yield StartTag(tag, data[token.start("tag") : token.end()])
        if tag == "plaintext":
            return  # the rest of the page is text


def _content_end(low: bytes, pos: int, tag: str) -> int:
    """Where the text that a start tag ending at ``pos`` opens ends."""
    if tag == "plaintext":
        return len(low)
    if tag == "script":
        return _script_end(low, pos)
    closer = _RAW_TEXT_END[tag].search(low, pos)
    return closer.start() if closer else len(low)


def _is_text(run: bytes) -> bool:
    """Whether character data holds more than white space (character references decoded)."""
    if not run.strip(HTML_SPACE.encode()):
        return False
    return b"&" not in run or bool(html.unescape(run.decode("latin-1")).strip(HTML_SPACE))


def _script_end(low: bytes, pos: int) -> int:
    """Where the "</script" that ends a script's content begins (the end of ``low`` if none)."""
    state = _SCRIPT_DATA
    while (found := state.search(low, pos)) is not None:
        if found.lastgroup == "end":
            return found.start()
        state = _SCRIPT_STATES[str(found.lastgroup)]
        # The "--" of "<!--" may also be the start of the "-->" that leaves the escaped state.
        pos = found.start() + 2 if found.lastgroup == "escape" else found.end()
    return len(low)
