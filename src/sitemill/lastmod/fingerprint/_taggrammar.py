"""The grammar of the tags the reduction (fingerprint.reduction) reads, as regex pieces."""
# A tag's attributes and its end, and the first pass's pattern of all that is not text (tags,
# comments, declarations, hidden elements with their content). Every construct that is still open
# where the page ends runs to the end, so no position is scanned twice.

from __future__ import annotations

import re
from typing import Final

SPACE = r"[\t\n\f\r ]"
END = r"(?:>|\Z)"  # a tag cut off by the end of the page runs to it
NAME_END = r"(?=[\t\n\f\r />]|\Z)"
ATTRIBUTE_VALUE = (
    r"""(?: "[^"]*+"?+ | '[^']*+'?+ | [^\t\n\f\r >]*+ )"""  # quoted: to its quote or the end
)
# A tag's attributes up to its ">". Quotes count only right after "=" (as the HTML tokenizer
# reads them). The two alternatives begin differently and stop only at ">" or at the end of
# the page, so a tag once started always matches: no position is scanned twice.
ATTRS = rf"(?: [^>=]++ | = {SPACE}*+ {ATTRIBUTE_VALUE} )*+"
# Elements whose content no reader sees. An unclosed one runs to the end of the page.
_HIDDEN_ELEMENTS: Final = ("script", "style", "noscript", "template")
_KEPT_ELEMENTS = "a|img|source|meta"
# Phrasing elements that never separate words: a highlighter that wraps part of a token in a
# <span> (``127.0.0.1:<span>3000</span>`` becoming ``127.0.0.1<span>:</span><span>3000</span>``)
# changes no word. Their tags are removed; every other tag is a word boundary (a space).
_INLINE_ELEMENTS: Final = (
    "abbr|b|bdi|bdo|big|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|nobr|q|s|samp|small"
    "|span|strike|strong|sub|sup|time|tt|u|var|wbr"
)


def _trie(names: list[str]) -> str:
    """An alternation of ``names`` as a trie (``b(?:d(?:i|o)|ig)?``): the regex engine tries
    one branch per letter instead of every name, a fifth less time for the tag pass. It
    matches the same names; each use is followed by a name's end, so which one is the same."""
    branches: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        branches.setdefault(name[:1], []).append(name[1:])
    optional = "" in branches
    parts = [re.escape(first) + _trie(rest) for first, rest in branches.items() if first]
    if not parts:
        return ""
    if len(parts) == 1 and not optional:
        return parts[0]
    return "(?:" + "|".join(parts) + ")" + ("?" if optional else "")


INLINE_ELEMENTS: Final = frozenset(_INLINE_ELEMENTS.split("|"))
_INLINE_NAMES: Final = _trie(list(INLINE_ELEMENTS))


def _hidden_element(name: str) -> str:
    return (
        rf"(?ai:{name}){NAME_END} {ATTRS} {END}"
        rf" (?: [^<]++ | <(?!/(?ai:{name}){NAME_END}) )*+"
        rf" (?: </(?ai:{name}) {ATTRS} {END} | \Z )"
    )


# The pieces of the two patterns below, after "<": a comment, a declaration or processing
# instruction, a hidden element with its content, "</" with no name, a tag's name.
COMMENT: Final = r"!-- (?: -?> | (?: [^-]++ | -(?!-!?>) )*+ (?: --!?> | \Z ) )"
_DECLARATION: Final = rf"[!?] [^>]*+ {END}"
_HIDDEN: Final = " | ".join(map(_hidden_element, _HIDDEN_ELEMENTS))
_NO_NAME: Final = rf"(?![a-zA-Z]) [^>]*+ {END}"
_NAME: Final = r"[a-zA-Z][^\t\n\f\r />=]*+"
_NOT_A_LINK_END: Final = rf"(?!(?ai:a){NAME_END})"
_NOT_KEPT: Final = rf"(?!(?ai:{_KEPT_ELEMENTS}){NAME_END})"

# What is not text, but the start and end tags of links and the start tags of images and
# meta tags: a comment, a declaration or processing instruction, a hidden element with its
# content, another end or start tag (<link> and <title> among them). Each becomes a space.
# The alternatives after "<" begin differently, and each one that starts ends at ">" or at
# the end of the page. (The kept tags are skipped, not read: a raw "<" in one of their
# quoted values, which generators write as &lt;, may be read as markup. Deterministic all
# the same.)
NOT_TEXT: Final = re.compile(
    rf"""< (?: (?P<inline> /?+ (?ai:{_INLINE_NAMES}){NAME_END} {ATTRS} {END} )
    | {COMMENT}
    | {_DECLARATION}
    | {_HIDDEN}
    | / (?: {_NOT_A_LINK_END} (?P<end>{_NAME}) {ATTRS} {END}
        | {_NO_NAME} )
    | {_NOT_KEPT} (?P<start>{_NAME}) {ATTRS} {END}
    )""",
    re.VERBOSE,
)
