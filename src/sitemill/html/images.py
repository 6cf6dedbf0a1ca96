"""The images a page shows, for Google's image sitemap extension: their sources, read."""
# A page's image tags are found by one regular-expression pass over the whole page (C speed, linear:
# a construct still open where the page ends runs to the end, so no position is scanned twice) that
# skips, as the HTML tokenizer reads them, everything that holds no image source: an "<img" in a
# comment, a script or a quoted attribute value is never read. Each image tag found is then read by
# a fixed number of scans of that tag alone. Resolving the sources to URLs is
# sitemill.html.imageurls (re-exported here).
# https://developers.google.com/search/docs/crawling-indexing/sitemaps/image-sitemaps

from __future__ import annotations

import html
import itertools
import re
from functools import cache
from html.entities import html5
from typing import Final

from sitemill.html.imageurls import MAX_IMAGES_PER_PAGE, page_images, site_hosts

__all__ = [
    "MAX_IMAGES_PER_PAGE",
    "MAX_IMAGE_TAGS",
    "page_images",
    "read_image_sources",
    "site_hosts",
]

# At most this many distinct image tags of a page are read (repeated ones count once, pixels
# and tags without a source not at all): a hostile page of junk tags costs a bounded time.
MAX_IMAGE_TAGS: Final = 10 * MAX_IMAGES_PER_PAGE

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_HTML_SPACE: Final = " \t\n\f\r"
_ICON_PREFIXES: Final = ("favicon", "apple-touch-icon")  # file names of site icons

_SPACE = r"[\t\n\f\r ]"
_END = r"(?:>|\Z)"  # a tag cut off by the end of the page runs to it
_NAME_END = r"(?=[\t\n\f\r />]|\Z)"
_VALUE = r"""(?: "[^"]*+"?+ | '[^']*+'?+ | [^\t\n\f\r >]*+ )"""  # quoted: to its quote or the end
# A tag's attributes up to its ">" (quotes count only right after "=", as the tokenizer reads
# them): the alternatives begin differently, stop only at ">" or the end, never backtrack.
_ATTRS = rf"(?: [^>=]++ | = {_SPACE}*+ {_VALUE} )*+"
_IMAGE_NAME = rf"(?ai:img|source){_NAME_END}"
# Elements whose content is text to the tokenizer (raw text and RCDATA: an "<img" there is
# no tag), or not shown (<template> is inert, <video> and <audio> hold sources and fallback
# content). An unclosed one runs to the end of the page. <noscript> is not one: its content
# is read as markup, as a browser without scripts reads it, since lazy-loading themes put
# the real <img src> of a lazy image there (the same image found twice counts once).
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody
_TEXT_ELEMENTS: Final = ("script", "style", "textarea", "title", "iframe", "xmp")
_HIDDEN_ELEMENTS: Final = (*_TEXT_ELEMENTS, "noembed", "noframes", "template", "video", "audio")


def _hidden_element(name: str) -> str:
    return (
        rf"(?ai:{name}){_NAME_END} {_ATTRS} {_END}"
        rf" (?: [^<]++ | <(?!/(?ai:{name}){_NAME_END}) )*+"
        rf" (?: </(?ai:{name}) {_ATTRS} {_END} | \Z )"
    )


def _first_attribute(name: str, value: str) -> str:
    """A lookahead: the first attribute ``name`` of the tag that follows has a ``value``.
    Other attributes are skipped whole (``data-src`` or ``srcset`` is never ``src``); HTML
    keeps the first of repeated ones, so one without "=" (an empty value) ends the search."""
    other = (
        rf"(?!(?ai:{name})(?:[\t\n\f\r /=>]|\Z)) [^\t\n\f\r />][^\t\n\f\r /=>]*+"
        rf" (?: {_SPACE}*+ = {_SPACE}*+ {_VALUE} )?+"
    )
    return rf"(?= (?: [\t\n\f\r /]++ | {other} )*+ (?ai:{name}) {_SPACE}*+ = {_SPACE}*+ {value} )"


_PIXEL = rf"{_SPACE}*+ [01](?ai:px)?+ {_SPACE}*+"  # a width or height of 0 or 1 (px)
_PIXEL_VALUE = rf"""(?: "{_PIXEL}" | '{_PIXEL}' | [01](?ai:px)?+ (?=[\t\n\f\r >]|\Z) )"""
# The attributes that may name an image: src and srcset, and the ones lazy-loading scripts
# fill them from (lazysizes, lozad, vanilla-lazyload: data-src, data-srcset; WP Rocket and
# other WordPress plugins: data-lazy-src), in the order an <img>'s source is taken from.
_SOURCE_ATTRIBUTES: Final = ("src", "data-src", "data-lazy-src", "srcset", "data-srcset")
_SOURCE_NAME = r"(?ai:src(?:set)?+|data-(?:src(?:set)?+|lazy-src))"
# Whether the tag that follows has one of them with a value ("" counts).
_HAS_SOURCE = rf"""(?= (?: [\t\n\f\r /]++ | (?!{_SOURCE_NAME}{_SPACE}*+=)
    [^\t\n\f\r />][^\t\n\f\r /=>]*+ (?: {_SPACE}*+ = {_SPACE}*+ {_VALUE} )?+ )*+
    {_SOURCE_NAME} {_SPACE}*+ = )"""
# What holds no image source: text; an <img> or <source> without a source attribute, or
# an <img> 0 or 1 wide and high (a tracking pixel); another start tag (with its quoted
# values, where an "<img" is text), a hidden element with its content, a comment, a
# declaration, an end tag, a "<" that starts nothing (first: "<<<<" costs little). The
# alternatives begin differently, and each one that starts ends at ">" or at the end of the
# page. (The lookaheads on the first character only spare failed attempts.)
_NO_IMAGE = rf"""(?: [^<]++ | <(?![a-zA-Z!?/])
    | < (?: (?=[a-zA-Z]) (?: (?=[iIsS]) (?: {_IMAGE_NAME} (?!{_HAS_SOURCE})
                | (?ai:img){_NAME_END} {_first_attribute("width", _PIXEL_VALUE)}
                  {_first_attribute("height", _PIXEL_VALUE)} ) {_ATTRS} {_END}
            | (?!{_IMAGE_NAME}) (?: (?=(?ai:[{"".join({n[0] for n in _HIDDEN_ELEMENTS})}]))
                  (?: {" | ".join(map(_hidden_element, _HIDDEN_ELEMENTS))} )
                | [a-zA-Z] {_ATTRS} {_END} ) )
        | !-- (?: -?> | (?: [^-]++ | -(?!-!?>) )*+ (?: --!?> | \Z ) )
        | [!?] [^>]*+ {_END}
        | / (?: [a-zA-Z] {_ATTRS} {_END} | [^>]*+ {_END} ) ) )"""
# Each match is what holds no image, then an image tag (captured if it ends: the tokenizer
# drops one cut off by the end of the page) or the end: none fails, the page is read once.
_IMAGE_TAGS: Final = rf"""(?: {_NO_IMAGE} )*+
    (?: (< {_IMAGE_NAME} {_ATTRS} >) | < {_IMAGE_NAME} {_ATTRS} \Z | \Z )"""
# An image tag's source attributes, each the first of its name (one scan of the tag each).
_SOURCES: Final = "<(?ai:(source)|img)" + "".join(
    f"(?:{_first_attribute(name, f'({_VALUE})')})?+" for name in _SOURCE_ATTRIBUTES
)


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """_IMAGE_TAGS and _SOURCES compiled, on first use: compiling them takes some 30 ms,
    which a run without images (and every Lambda cold start) need not pay."""
    return re.compile(_IMAGE_TAGS, re.VERBOSE), re.compile(_SOURCES, re.VERBOSE)


# A srcset's first candidate (trailing commas stripped after), as the standard splits them:
# https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute
_FIRST_CANDIDATE: Final = re.compile(r"[\t\n\f\r ,]*+([^\t\n\f\r ]++)")
_REFERENCE: Final = re.compile(r"&(?:\#[0-9]++;?|\#[xX][0-9a-fA-F]++;?|[a-zA-Z][a-zA-Z0-9]*+[;=]?)")


def read_image_sources(data: bytes) -> tuple[str, ...]:
    """The sources of the images an HTML page shows, as written, in document order: each
    <img>'s first of src, data-src, data-lazy-src, srcset's and data-srcset's first
    candidate that is neither empty nor a ``data:`` placeholder, and each <source>'s first
    srcset (or data-srcset) candidate (<video> and <audio> content is not read); <img> tags
    inside <noscript> count (the fallback of a lazy image). References decoded, white space
    stripped, each once, at most MAX_IMAGES_PER_PAGE. Left out: images in comments, scripts,
    styles and <template>, ``data:`` URIs, 1x1 tracking pixels, icons (``favicon*``,
    ``apple-touch-icon*``), a tag cut off; past MAX_IMAGE_TAGS distinct image tags the page
    is not read."""
    text = data.removeprefix(_UTF8_BOM).decode("utf-8", "replace")
    image_tags, sources = _patterns()
    tags = dict.fromkeys(image_tags.findall(text))  # tags written alike are read once
    tags.pop("", None)  # the end of the page, a tag cut off there
    found: dict[str, None] = {}
    for tag in itertools.islice(tags, MAX_IMAGE_TAGS):
        values = sources.match(tag)
        assert values is not None  # (the tag matched _IMAGE_TAGS)
        source = _tag_source(*values.groups())
        if source and not _is_icon(source):
            found[source] = None
            if len(found) >= MAX_IMAGES_PER_PAGE:
                break
    return tuple(found)


def _tag_source(
    is_source: str | None,
    src: str | None,
    data_src: str | None,
    lazy_src: str | None,
    srcset: str | None,
    data_srcset: str | None,
) -> str:
    """The source an image tag shows ("" if none): a real src wins over a lazy-loading
    script's attribute, and a single URL over a srcset; a ``data:`` value is a placeholder
    (a blurred preview, a transparent GIF or SVG), so the next one counts."""
    if is_source:  # <picture><source>: srcset only (src is a <video>'s)
        candidates = [srcset, data_srcset]
        first = 0
    else:
        candidates = [src, data_src, lazy_src, srcset, data_srcset]
        first = 3
    for number, value in enumerate(candidates):
        if not value:
            continue
        source = _attribute(value)
        if number >= first:
            source = _first_candidate(source)
        if source and not _is_data(source):
            return source
    return ""


def _attribute(value: str | None) -> str:
    """An attribute's value as the tokenizer gives it: unquoted (a quoted one may be
    unclosed at the end of the page), character references decoded, white space stripped."""
    if not value:
        return ""
    if value[0] in "\"'":
        value = value[1:-1] if len(value) > 1 and value[-1] == value[0] else value[1:]
    if "&" in value:
        value = _REFERENCE.sub(_decode_reference, value)
    if "\0" in value:  # the tokenizer reads U+0000 in a value as U+FFFD
        value = value.replace("\0", "\ufffd")
    return value.strip(_HTML_SPACE)


def _decode_reference(reference: re.Match[str]) -> str:
    """A character reference in an attribute value, as the tokenizer decodes it: a named one
    without ";" stays as written when "=" or a letter or digit follows (``?a=1&copy=2``).
    https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state"""
    text = reference[0]
    if text[1] == "#":
        return html.unescape(text)
    # Without ";" only a whole legacy name is decoded (a shorter one is followed by a letter).
    return text if text.endswith("=") else html5.get(text[1:], text)


def _first_candidate(srcset: str) -> str:
    """The URL of a srcset's first image candidate ("" if it has none).
    https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute"""
    found = _FIRST_CANDIDATE.match(srcset)
    return found[1].rstrip(",") if found else ""


def _is_data(source: str) -> bool:
    return source[:1] in "dD" and source[:5].lower() == "data:"  # (fast for most)


def _is_icon(source: str) -> bool:
    """Whether the URL's file name is a site icon's (``/favicon-32x32.png``)."""
    path = source.split("?", 1)[0].split("#", 1)[0]  # (up to the first of either)
    name = path.rpartition("/")[2].rpartition("\\")[2]
    return name[:16].lower().startswith(_ICON_PREFIXES)
