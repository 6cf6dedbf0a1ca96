"""The modification dates a built page declares: JSON-LD, meta tags, a "last updated" line."""
# Read from the page's first bytes (DECLARED_BYTES) in one forward skim: the tags that may declare
# one are found by a regular expression and read whole by the head tokenizer's own patterns
# (sitemill.html.tokens, sitemill.html.head); comments, <template> content and the raw text of
# <style>, <title>, <textarea> and <noscript> declare nothing (Googlebot renders with scripting on:
# a meta inside <noscript> is text). A page may have been edited since it was published, so
# datePublished and article:published_time never date it: they are read only to tell a modification
# date that merely repeats the publication date (a template's default), which is no evidence of a
# modification (sitemill.lastmod.declared.checks).

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Final

from sitemill.html.head import StartTag
from sitemill.html.tokens import RAW_TEXT_END, RAW_TEXT_TAGS, TOKEN
from sitemill.lastmod.declared.w3cdate import (
    ARTICLE_MODIFIED,
    ARTICLE_PUBLISHED,
    ITEMPROP_MODIFIED,
    ITEMPROP_PUBLISHED,
    JSON_LD,
    JSON_LD_PUBLISHED,
    LAST_UPDATED_LINE,
    OG_UPDATED,
    DeclaredDate,
    parse_declared,
)

DECLARED_BYTES: Final = 512 * 1024  # a footer's "last updated" line comes late in a page
MAX_JSON_LD_BYTES: Final = 64 * 1024  # one script's JSON: a larger one is not read
MAX_JSON_DEPTH: Final = 32  # nesting: a deeper document is not read
_NAME_END = rb"(?=[\t\n\f\r />])"
_SKIPPED: Final = "|".join(sorted(RAW_TEXT_TAGS | {"template"}))  # content that declares nothing
_SKIM: Final = re.compile(rb"<!--|<(?:meta|time|script|" + _SKIPPED.encode() + rb")" + _NAME_END)
_SCRIPT_END: Final = re.compile(rb"</script" + _NAME_END)
_TEMPLATE_END: Final = re.compile(rb"</template" + _NAME_END)
_PROPERTIES: Final = {
    "article:modified_time": ARTICLE_MODIFIED,
    "og:updated_time": OG_UPDATED,
    "article:published_time": ARTICLE_PUBLISHED,
}
_ITEMPROPS: Final = {"datemodified": ITEMPROP_MODIFIED, "datepublished": ITEMPROP_PUBLISHED}
_JSON_LD_KEYS: Final = (("dateModified", JSON_LD), ("datePublished", JSON_LD_PUBLISHED))
# What a "last updated" line says before its <time>, where an element's text begins
# (\0 stands for a tag or a comment): Docusaurus "Last updated<!-- --> on", Minimal Mistakes
# "Updated:".
_LAST_UPDATED: Final = re.compile(
    r"(?:^|\0)[\s\0]*(?:page[\s\0]+)?(?:last[\s\0]+(?:updated|modified|update)|updated)"
    r"(?:[\s\0]+on)?[\s\0]*:?[\s\0]*\Z",
    re.IGNORECASE,
)
_BEFORE_TIME: Final = 300  # characters of the line before its <time> that are read
_TAG: Final = re.compile(rb"<[^<>]*+>")
_JSON_STRING: Final = re.compile(rb'"(?:[^"\\]++|\\.)*+"')
_BRACKET: Final = re.compile(rb"[\[\]{}]")


def declared_dates(page: bytes) -> Iterator[DeclaredDate]:
    """Each valid modification date ``page`` declares, in the order they stand: JSON-LD
    ``dateModified`` (objects, arrays, ``@graph``), ``<meta property="article:modified_time">``
    and ``og:updated_time``, ``itemprop="dateModified"`` (a meta's content, a time's
    datetime), and the ``datetime`` of a ``<time>`` that a "last updated" line holds; and
    among them its publication dates (``published``: JSON-LD ``datePublished``,
    ``article:published_time``, ``itemprop="datePublished"``). A value that is no date is
    skipped (sitemill.lastmod.declared.w3cdate); malformed JSON is ignored."""
    data = page[:DECLARED_BYTES]
    low = data.lower()
    pos = 0
    while (found := _SKIM.search(low, pos)) is not None:
        if found.group() == b"<!--":
            end = low.find(b"-->", found.start() + 2)  # ("<!-->" and "<!--->" are whole)
            pos = len(low) if end < 0 else end + 3
            continue
        token = TOKEN.match(low, found.start())
        if token is None or token.group("name") is None:
            return  # a tag cut off where the bytes end
        name = token.group("name").decode("latin-1")
        tag = StartTag(name, data[token.start("tag") : token.end()])
        pos = _content_end(low, token.end(), name)
        if name == "script":
            yield from _json_ld(tag, data[token.end() : pos])
        elif name in ("meta", "time"):
            value = _tag_date(tag, data, found.start())
            if value is not None:
                yield value


def _content_end(low: bytes, pos: int, name: str) -> int:
    """Where the text a start tag ending at ``pos`` opens ends (``pos`` for a void tag)."""
    closer: re.Pattern[bytes] | None
    if name == "script":
        closer = _SCRIPT_END  # (its escapes do not matter here: JSON holds no "<!--")
    elif name == "template":
        closer = _TEMPLATE_END  # inert content (a nested one ends it early: no harm)
    else:
        closer = RAW_TEXT_END.get(name)
    if closer is None:
        return pos
    end = closer.search(low, pos)
    return len(low) if end is None else end.start()


def _tag_date(tag: StartTag, data: bytes, start: int) -> DeclaredDate | None:
    """The date a <meta> or <time> declares, if it declares a modification date."""
    attributes = dict(reversed(tag.attributes()))  # the first of a name counts
    itemprop = _ITEMPROPS.get(attributes.get("itemprop", "").strip().lower())
    if tag.name == "meta":
        source = _PROPERTIES.get(attributes.get("property", "").strip().lower()) or itemprop
        if source is None or "content" not in attributes:
            return None
        return parse_declared(attributes["content"], source)
    if "datetime" not in attributes:
        return None
    if itemprop is not None:
        return parse_declared(attributes["datetime"], itemprop)
    if _in_last_updated_line(data, start):
        return parse_declared(attributes["datetime"], LAST_UPDATED_LINE)
    return None


def _in_last_updated_line(data: bytes, start: int) -> bool:
    """Whether the text before the <time> at ``start`` begins an element's text with
    "Last updated", "Last modified", "Last update", "Page last updated" or "Updated"."""
    before = _TAG.sub(b"\0", data[max(0, start - 4 * _BEFORE_TIME) : start])
    text = html.unescape(before.decode("utf-8", "replace"))[-_BEFORE_TIME:]
    return _LAST_UPDATED.search(text) is not None


def _json_ld(tag: StartTag, content: bytes) -> Iterator[DeclaredDate]:
    """The ``dateModified`` and ``datePublished`` of a JSON-LD script's top-level nodes and
    ``@graph`` members."""
    kind = dict(reversed(tag.attributes())).get("type", "").strip().lower()
    if kind != "application/ld+json" or len(content) > MAX_JSON_LD_BYTES:
        return
    if _depth(content) > MAX_JSON_DEPTH:
        return
    try:
        document = json.loads(content.decode("utf-8"))
    except (ValueError, RecursionError):
        return
    nodes = document if isinstance(document, list) else [document]
    for node in nodes:
        if not isinstance(node, dict):
            continue
        graph = node.get("@graph")
        for member in [node, *(graph if isinstance(graph, list) else [graph])]:
            if not isinstance(member, dict):
                continue
            for key, source in _JSON_LD_KEYS:
                value = member.get(key)
                value = value[0] if isinstance(value, list) and value else value
                if isinstance(value, str) and (date := parse_declared(value, source)):
                    yield date


def _depth(content: bytes) -> int:
    """How deep the brackets of a JSON text nest (strings left out), read before parsing."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_JSON_STRING.sub(b'""', content)):
        depth += 1 if bracket.group() in (b"[", b"{") else -1
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            break
    return deepest
