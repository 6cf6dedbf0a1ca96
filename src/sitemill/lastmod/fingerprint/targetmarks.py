"""Links, images and the meta description as marks in a page's reduction."""
# In fingerprint.reduction each is kept as a mark, a kind letter and a value between two MARKs (a
# link's target, its end, an image's source, the first srcset candidate, the description); the
# module also holds the regular-expression pieces of a tag that the reduction's passes share.

from __future__ import annotations

import html
import re
from typing import Final

from sitemill.lastmod.fingerprint._taggrammar import ATTRIBUTE_VALUE, ATTRS, END, NAME_END, SPACE

# A query string on a URL whose path ends so is a cache buster (?v=123, ?h=abc): left out.
ASSET_EXTENSIONS: Final = frozenset(
    {"css", "js", "mjs", "map", "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico"}
    | {"woff", "woff2", "ttf", "eot"}
)

_HTML_SPACE: Final = " \t\n\f\r"
# The reduction is text with marked tokens: a kind letter and a value between two MARKs
# (a link's target, its end, an image's source, the first srcset candidate, the meta
# description). No MARK_EDGE is left in the text (it is replaced before the passes, and
# html.unescape never produces U+0001), so a reduction reads back one way only.
MARK_EDGE: Final = "\x01"
_LINK, _LINK_END, _IMAGE, _SRCSET, _DESCRIPTION = "H", "E", "I", "S", "D"
LINK_END_MARK: Final = f"{MARK_EDGE}{_LINK_END}{MARK_EDGE}"
# A mark (its kind and value as group 1) or a marker (its letter as group 2), in marked text.
MARK_OR_MARKER: Final = re.compile(
    f"{MARK_EDGE}([^{MARK_EDGE}]*)(?:{MARK_EDGE}|\\Z)|\x02([a-zA-Z])\x03"
)
DESCRIPTION_START: Final = f"{MARK_EDGE}{_DESCRIPTION}"  # (or a mark's end and a "D")
# Before a link whose rel names the previous or next page of a sequence (HTML's "prev" and
# "next" link types: a post's neighbours); version 6 leaves such a link out
# (fingerprint.reduction.read_neighbours), the versions before it read the link alone.
NEIGHBOUR_MARK: Final = f"{MARK_EDGE}N{MARK_EDGE}"
# A srcset's first candidate where the picture is already shown by an image's src (fingerprint
# version 9): the srcset of a <picture>'s <source> (its <img> is the picture) and of an <img> with
# a src that is an address. The same picture at other sizes or in another format says nothing new
# (a gallery wrapped in <picture> elements with .640.webp copies: no picture changed for a reader).
# Its srcset mark follows COPIES_START, two region-marker characters that no marker writes side by
# side (regionmarkers: each holds a letter between them), so no text reads as it: the versions
# before 9 read the mark as any srcset's, 9 leaves it out (fingerprint.reduction.read_copies). A
# srcset alone (an <img> with no src) is the picture: its mark stays a srcset's.
COPIES_START: Final = "\x02\x03"
COPIES_MARK: Final = re.compile(f"\x02\x03(?:{MARK_EDGE}S[^{MARK_EDGE}]*+(?:{MARK_EDGE}|\\Z))?")
# Where the title ends (fingerprint version 5): what comes before this mark is the title's.
TITLE_END: Final = f"{MARK_EDGE}T{MARK_EDGE}"


def attribute_value(name: str, group: str) -> str:
    """A lookahead that captures, as ``group``, the raw value of the first attribute ``name``
    of the tag that follows (optional: the group is None where there is none)."""
    other = (
        rf"(?!(?ai:{name})(?:[\t\n\f\r /=>]|\Z)) [^\t\n\f\r />][^\t\n\f\r /=>]*+"
        rf" (?: {SPACE}*+ = {SPACE}*+ {ATTRIBUTE_VALUE} )?+"
    )
    return (
        rf"(?= (?: [\t\n\f\r /]++ | {other} )*+"
        rf" (?ai:{name}) {SPACE}*+ = {SPACE}*+ (?P<{group}>{ATTRIBUTE_VALUE}) )?+"
    )


# Where a link ends counts too (which words are linked): its end tag becomes a mark.
LINK_END_TAG: Final = re.compile(rf"</(?ai:a){NAME_END} {ATTRS} {END}", re.VERBOSE)
# A placeholder link (fingerprint version 13, amended): an <a> with no href, HTML's place for a
# link that is not relevant here (a pager's link to the page itself, disabled: Hugo's "««" on
# the first page of a list, "»»" on the last), with nothing but text inside it up to its end,
# no letter or digit but in character references (read decoded).
# Read as the tokenizer reads: a start tag runs to its ">" (or the page's end) and is read once,
# its text and end tag then matched where it ends (a page of unclosed "<a href=" stays linear).
_LINK_START: Final = re.compile(
    rf"<(?ai:a){NAME_END} {attribute_value('href', 'href')} {ATTRS} {END}", re.VERBOSE
)
_LINK_TEXT: Final = re.compile(
    rf"(?P<text> (?: [^<&\x01\x02\x03\w] | _ | &[^;<\s]*+;? )*+ ) {LINK_END_TAG.pattern}",
    re.VERBOSE,
)
# A link, image or meta start tag, with the values it is kept for. Each lookahead reads the
# tag once more at most (the start tag's attributes: a constant factor).
KEPT_TAG: Final = re.compile(
    rf"""< (?: (?ai:a) (?P<link>) {NAME_END} {attribute_value("href", "href")}
    | (?ai:img|source) (?P<image>) {NAME_END}
      {attribute_value("src", "src")} {attribute_value("srcset", "srcset")}
    | (?ai:meta) {NAME_END}
      {attribute_value("name", "meta_name")} {attribute_value("content", "content")} )
    {ATTRS} {END}""",
    re.VERBOSE,
)
_REL: Final = re.compile(rf"<(?ai:a) {NAME_END} {attribute_value('rel', 'rel')}", re.VERBOSE)
_FIRST_CANDIDATE: Final = re.compile(r"[\t\n\f\r ,]*+([^\t\n\f\r ]++)")
# The values of a reduction's marks, left to right (marks and text alternate between MARKs;
# one left open runs to the end): a description's whole, "" for any other.
_DESCRIPTION_MARKS: Final = re.compile(
    f"{MARK_EDGE}(?:({_DESCRIPTION}[^{MARK_EDGE}]*)|[^{MARK_EDGE}]*)(?:{MARK_EDGE}|\\Z)"
)


# A kept tag (fingerprint.taggrammar's first pass skips it, so what it holds is read as markup) with
# a raw "<" in a quoted value: VuePress Theme Hope writes ``content="… <script> 和 <style> …"`` in a
# description, and the first pass read a script from there to the page's end. Up to that "<"; quotes
# count only right after "=", as the tokenizer reads them. No alternative runs past a "<", so a
# search that fails at one tag fails there (linear: a page of unclosed tags).
_KEPT_WITH_LT: Final = re.compile(
    rf"""<(?i:a|img|source|meta){NAME_END}
    (?: [^<>="']++ | ={SPACE}*+ (?: "[^"<]*+" | '[^'<]*+' | (?!["'])[^\t\n\f\r ><]*+ )
      | ["'] )*+
    ={SPACE}*+ (?: "[^"<]*+< | '[^'<]*+< )""".encode(),
    re.VERBOSE,
)
_TAG: Final = re.compile(rf"<[^\t\n\f\r />]*+ {ATTRS} {END}".encode(), re.VERBOSE)


def escape_kept_values(data: bytes) -> bytes:
    """``data`` with each raw "<" inside a link, image or meta tag written ``&lt;``, as the
    tag's value reads (fingerprint version 5): the first pass skips these tags whole only then.
    A page without one (nearly all: one search) is returned as it is."""
    found = _KEPT_WITH_LT.search(data)
    if found is None:
        return data
    pieces: list[bytes] = []
    done = 0
    while found is not None:
        tag = _TAG.match(data, found.start())
        assert tag is not None  # (a "<" and a name: the tag runs to ">" or the end)
        pieces += (
            data[done : tag.start()],
            b"<",
            data[tag.start() + 1 : tag.end()].replace(b"<", b"&lt;"),
        )
        done = tag.end()
        found = _KEPT_WITH_LT.search(data, done)
    pieces.append(data[done:])
    return b"".join(pieces)


def without_placeholder_glyphs(text: str) -> str:
    """``text`` (markup after the first pass: fingerprint.reduction) with each placeholder link
    (an ``<a>`` with no href, above) whose text holds no letter or digit left out, text and
    all, as a link to the page itself with such text is (fingerprint.targets: its symbols are
    no words). A link to the page itself, written with its href or as its placeholder, reads
    alike: Hugo's upgrade that made a pager's "««" on the list's first page a disabled link
    with no href put in no word (issue 79, crumb97)."""
    pieces: list[str] = []
    done = place = 0
    while (start := _LINK_START.search(text, place)) is not None:
        place = start.end()
        link = _LINK_TEXT.match(text, place)
        if link is None:
            continue
        place = link.end()
        if start["href"] is None and not any(c.isalnum() for c in html.unescape(link["text"])):
            pieces += (text[done : start.start()], " ")
            done = place
    return "".join(pieces) + text[done:] if pieces else text


def unspace_marks(text: str) -> str:
    """``text`` without the spaces beside its marks: a mark is a word boundary of its own."""
    return text.replace(" " + MARK_EDGE, MARK_EDGE).replace(MARK_EDGE + " ", MARK_EDGE)


def descriptions(text: str) -> list[str]:
    """The meta description marks of a reduction (marks and text alternate between _MARKs)."""
    return [f"{MARK_EDGE}{mark}{MARK_EDGE}" for mark in _DESCRIPTION_MARKS.findall(text) if mark]


def mark_targets(tag: re.Match[str]) -> str:
    """A kept tag as the marked targets it holds (a space if none)."""
    if tag["link"] is not None:
        marks = _mark(_LINK, _unquote(tag["href"]))
        if marks and "rel" in tag[0].lower() and _neighbour(tag[0]):
            marks = NEIGHBOUR_MARK + marks
    elif tag["image"] is not None:
        srcset = _first_candidate(_unquote(tag["srcset"]))
        source = _unquote(tag["src"])
        copies = srcset is not None and (_addressed(source) or tag[0][1:2] in "sS")
        copy = _mark(_SRCSET, srcset)
        marks = _mark(_IMAGE, source) + (COPIES_START + copy if copies else copy)
    elif (_unquote(tag["meta_name"]) or "").strip(_HTML_SPACE).lower() == "description":
        marks = _mark(_DESCRIPTION, _unquote(tag["content"]))
    else:
        marks = ""
    return marks or " "


def _addressed(source: str | None) -> bool:
    """Whether an image's src is the address of a picture (not empty, not a ``data:``
    placeholder that a script replaces with one of its srcset's)."""
    value = (source or "").strip(_HTML_SPACE)
    return bool(value) and value[:5].lower() != "data:"


def _neighbour(tag: str) -> bool:
    """Whether a link's start tag has "prev" or "next" among its rel attribute's tokens."""
    found = _REL.match(tag)
    tokens = (_unquote(found["rel"]) if found else None) or ""
    return not {"prev", "next"}.isdisjoint(tokens.lower().split())


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
    return f"{MARK_EDGE}{kind}{without_cache_buster(value.strip(_HTML_SPACE))}{MARK_EDGE}"


def without_cache_buster(value: str) -> str:
    """A target ``value`` without the query of an asset's URL (ASSET_EXTENSIONS): a cache
    buster (?v=123, ?h=abc)."""
    path, question, _ = value.partition("?")
    if question and path.rpartition(".")[2].lower() in ASSET_EXTENSIONS:
        return path
    return value


def _first_candidate(srcset: str | None) -> str | None:
    """The URL of a srcset's first image candidate, as the HTML standard splits it (None if
    it has none). https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute"""
    found = _FIRST_CANDIDATE.match(srcset or "")
    return found[1].rstrip(",") if found else None


def read_copies(text: str) -> str:
    """``text`` with the srcset marks of pictures already shown (targetmarks.COPIES_START) left
    out (from version 9)."""
    if COPIES_START not in text:
        return text
    return COPIES_MARK.sub("", text)


def spaced_out(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (start and end, in order, apart) made one space."""
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        pieces += (text[done:start], " ")
        done = end
    pieces.append(text[done:])
    return "".join(pieces)
