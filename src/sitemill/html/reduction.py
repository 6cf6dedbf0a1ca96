"""The reduction of an HTML page that its content fingerprint hashes (html.fingerprint).

The page is reduced to its title and body text, its meta description and the targets of its
links and images, by a few regular-expression passes over the whole page (C speed, each
linear: every construct that is still open where the page ends runs to the end, so no
position is scanned twice). With ``main``, only the title, the description and the main region
(html.regions) count, where the page has one.
"""

from __future__ import annotations

import html
import re
from functools import partial
from typing import Final

from sitemill.html.regions import REGION_MARKS, Structure, select

# A query string on a URL whose path ends so is a cache buster (?v=123, ?h=abc): left out.
ASSET_EXTENSIONS: Final = frozenset(
    {"css", "js", "mjs", "map", "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico"}
    | {"woff", "woff2", "ttf", "eot"}
)

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_HTML_SPACE: Final = " \t\n\f\r"
# The reduction is text with marked tokens: a kind letter and a value between two _MARKs
# (a link's target, its end, an image's source, the first srcset candidate, the meta
# description). No _MARK is left in the text (it is replaced before the passes, and
# html.unescape never produces U+0001), so a reduction reads back one way only.
_MARK: Final = "\x01"
_LINK, _LINK_END, _IMAGE, _SRCSET, _DESCRIPTION = "H", "E", "I", "S", "D"
_LINK_END_MARK: Final = f"{_MARK}{_LINK_END}{_MARK}"

_SPACE = r"[\t\n\f\r ]"
_END = r"(?:>|\Z)"  # a tag cut off by the end of the page runs to it
_NAME_END = r"(?=[\t\n\f\r />]|\Z)"
_VALUE = r"""(?: "[^"]*+"?+ | '[^']*+'?+ | [^\t\n\f\r >]*+ )"""  # quoted: to its quote or the end
# A tag's attributes up to its ">". Quotes count only right after "=" (as the HTML tokenizer
# reads them). The two alternatives begin differently and stop only at ">" or at the end of
# the page, so a tag once started always matches: no position is scanned twice.
_ATTRS = rf"(?: [^>=]++ | = {_SPACE}*+ {_VALUE} )*+"
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


_INLINE_NAMES: Final = _trie(_INLINE_ELEMENTS.split("|"))


def _hidden_element(name: str) -> str:
    return (
        rf"(?ai:{name}){_NAME_END} {_ATTRS} {_END}"
        rf" (?: [^<]++ | <(?!/(?ai:{name}){_NAME_END}) )*+"
        rf" (?: </(?ai:{name}) {_ATTRS} {_END} | \Z )"
    )


# What is not text, but the start and end tags of links and the start tags of images and
# meta tags: a comment, a declaration or processing instruction, a hidden element with its
# content, another end or start tag (<link> and <title> among them). Each becomes a space.
# The alternatives after "<" begin differently, and each one that starts ends at ">" or at
# the end of the page. (The kept tags are skipped, not read: a raw "<" in one of their
# quoted values, which generators write as &lt;, may be read as markup. Deterministic all
# the same.)
_NOT_TEXT: Final = re.compile(
    rf"""< (?: (?P<inline> /?+ (?ai:{_INLINE_NAMES}){_NAME_END} {_ATTRS} {_END} )
    | !-- (?: -?> | (?: [^-]++ | -(?!-!?>) )*+ (?: --!?> | \Z ) )
    | [!?] [^>]*+ {_END}
    | {" | ".join(map(_hidden_element, _HIDDEN_ELEMENTS))}
    | / (?: (?!(?ai:a){_NAME_END}) (?P<end>[a-zA-Z][^\t\n\f\r />=]*+) {_ATTRS} {_END}
        | (?![a-zA-Z]) [^>]*+ {_END} )
    | (?!(?ai:{_KEPT_ELEMENTS}){_NAME_END}) (?P<start>[a-zA-Z][^\t\n\f\r />=]*+) {_ATTRS} {_END}
    )""",
    re.VERBOSE,
)


def _attribute_value(name: str, group: str) -> str:
    """A lookahead that captures, as ``group``, the raw value of the first attribute ``name``
    of the tag that follows (optional: the group is None where there is none)."""
    other = (
        rf"(?!(?ai:{name})(?:[\t\n\f\r /=>]|\Z)) [^\t\n\f\r />][^\t\n\f\r /=>]*+"
        rf" (?: {_SPACE}*+ = {_SPACE}*+ {_VALUE} )?+"
    )
    return (
        rf"(?= (?: [\t\n\f\r /]++ | {other} )*+"
        rf" (?ai:{name}) {_SPACE}*+ = {_SPACE}*+ (?P<{group}>{_VALUE}) )?+"
    )


# Where a link ends counts too (which words are linked): its end tag becomes a mark.
_LINK_END_TAG: Final = re.compile(rf"</(?ai:a){_NAME_END} {_ATTRS} {_END}", re.VERBOSE)
# A link, image or meta start tag, with the values it is kept for. Each lookahead reads the
# tag once more at most (the start tag's attributes: a constant factor).
_KEPT_TAG: Final = re.compile(
    rf"""< (?: (?ai:a) (?P<link>) {_NAME_END} {_attribute_value("href", "href")}
    | (?ai:img|source) (?P<image>) {_NAME_END}
      {_attribute_value("src", "src")} {_attribute_value("srcset", "srcset")}
    | (?ai:meta) {_NAME_END}
      {_attribute_value("name", "meta_name")} {_attribute_value("content", "content")} )
    {_ATTRS} {_END}""",
    re.VERBOSE,
)
_FIRST_CANDIDATE: Final = re.compile(r"[\t\n\f\r ,]*+([^\t\n\f\r ]++)")
# White space other than " " as str.isspace() saw it in Python 3.11, spelled out so that a
# newer Unicode database cannot change a fingerprint. U+00A0 (&nbsp;) is among it.
_OTHER_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_SPACES: Final = re.compile("  +")


def reduce_html(
    data: bytes, ignore: tuple[re.Pattern[str], ...], version: int, *, main: bool
) -> str:
    """What fingerprint_html hashes: the page's text with its marked link and image targets;
    with ``main`` (version 2), only the title, the meta description and the main region
    (sitemill.html.regions) when the page has one."""
    text = data.removeprefix(_UTF8_BOM).decode("utf-8", "replace")
    for pattern in ignore:
        text = pattern.sub("", text)
    if _MARK in text:
        text = text.replace(_MARK, " ")
    if version < 2:
        text = _NOT_TEXT.sub(" ", text)
    else:
        for mark in REGION_MARKS:
            if mark in text:
                text = text.replace(mark, " ")
        text = _NOT_TEXT.sub(partial(_not_text, Structure() if main else None), text)
    text = _LINK_END_TAG.sub(_LINK_END_MARK, text)  # (no "<" in a mark: read once)
    text = _KEPT_TAG.sub(_mark_targets, text)
    # After the tags are gone: a reference decoded before would be read as markup. Values in
    # the marks are still raw too, so this one pass decodes them with the text.
    text = html.unescape(text)
    if main and version >= 2:
        text = select(text, _descriptions)
    text = _collapse_whitespace(text)
    return text.replace(" " + _MARK, _MARK).replace(_MARK + " ", _MARK)


def _not_text(structure: Structure | None, found: re.Match[str]) -> str:
    """An inline element's tag is nothing; any other tag, comment or hidden element a space,
    or (``structure``) a marker where a main region starts or ends."""
    if found.start("inline") >= 0:
        return ""
    if structure is not None:
        name = found["start"]
        if name is not None:
            return structure.start(name.lower(), found[0])
        name = found["end"]
        if name is not None:
            return structure.end(name.lower())
    return " "


def _descriptions(text: str) -> list[str]:
    """The meta description marks of a reduction (marks and text alternate between _MARKs)."""
    marks = text.split(_MARK)[1::2]
    return [f"{_MARK}{mark}{_MARK}" for mark in marks if mark.startswith(_DESCRIPTION)]


def _collapse_whitespace(text: str) -> str:
    """Runs of white space as one space, none at either end. (str.replace runs at memchr
    speed, and a pattern with a literal prefix matches only where spaces pile up: several
    times faster than one re.sub with a class of these characters.)"""
    for space in _OTHER_WHITESPACE:
        if space in text:
            text = text.replace(space, " ")
    return _SPACES.sub(" ", text).strip(" ")


def _mark_targets(tag: re.Match[str]) -> str:
    """A kept tag as the marked targets it holds (a space if none)."""
    if tag["link"] is not None:
        marks = _mark(_LINK, _unquote(tag["href"]))
    elif tag["image"] is not None:
        srcset = _first_candidate(_unquote(tag["srcset"]))
        marks = _mark(_IMAGE, _unquote(tag["src"])) + _mark(_SRCSET, srcset)
    elif (_unquote(tag["meta_name"]) or "").strip(_HTML_SPACE).lower() == "description":
        marks = _mark(_DESCRIPTION, _unquote(tag["content"]))
    else:
        marks = ""
    return marks or " "


def _unquote(value: str | None) -> str | None:
    """An attribute's value as written: quoted (maybe unclosed at the end of the page) or not."""
    if not value:
        return value
    quote = value[0]
    if quote not in "\"'":
        return value
    return value[1:-1] if len(value) > 1 and value[-1] == quote else value[1:]


def _mark(kind: str, value: str | None) -> str:
    if value is None:
        return ""
    value = value.strip(_HTML_SPACE)
    path, question, _ = value.partition("?")
    if question and path.rpartition(".")[2].lower() in ASSET_EXTENSIONS:
        value = path
    return f"{_MARK}{kind}{value}{_MARK}"


def _first_candidate(srcset: str | None) -> str | None:
    """The URL of a srcset's first image candidate, as the HTML standard splits it (None if
    it has none). https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute"""
    found = _FIRST_CANDIDATE.match(srcset or "")
    return found[1].rstrip(",") if found else None
