"""A listed page's content region, the content fingerprint's, as a BeautifulSoup tree."""
# The fingerprint decides what the region is and what in it is furniture (docs/lastmod.md;
# fingerprint.regionplan); llms converts what it decided. The region's text is parsed with
# html.parser and each element the fingerprint leaves out is found by its start tag's position and
# dropped. Left out too: what Markdown holds no text of (_NOT_TEXT, a form with no heading), and
# permalinks, self-dates, datelines, contents and skip links (llms.bylines); then the blocks the
# site repeats (llms.blocks).

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Final

from bs4 import BeautifulSoup, Tag

from sitemill.lastmod.fingerprint.regionplan import RegionPlan, region_plan
from sitemill.llms._bylines import drop_contents, drop_datelines, is_skip_link
from sitemill.llms._parsing import MAX_PARSED_BYTES, page_head, raw_text_cuts
from sitemill.llms._treewalk import RegionTag, drop_each, short_text, tags_of
from sitemill.urls import join_url

# (Scripts, styles, templates, noscript, drawings and text areas are cut before the parse:
# llms.parsing.RAW_TEXT.)
_NOT_TEXT: Final = frozenset(
    {"button", "select", "input", "iframe", "object", "embed", "canvas", "dialog"}
)
_HOLDS_PAGE: Final = frozenset({"main", "article", "h1", "h2", "h3", "h4", "h5", "h6"})
HEADING_TAGS: Final = ("h1", "h2", "h3", "h4", "h5", "h6")
# A heading's permalink: an in-page link (its target a fragment) with no letter or digit in its
# text ("¶", "#", "§", a zero-width space, nothing but an icon).
_WORDLESS: Final = re.compile(r"[^\W_]")
# A self-date: a short block whose text is a "last updated" label then a date (a digit or a
# month's name first); "Updated" alone opens many a sentence ("Updated the ISO profile"). (No
# leading white space in the pattern: it is searched in every text of the region.)
_SELF_DATE: Final = re.compile(
    r"(?:page\s+)?(?:last\s+(?:updated|modified|update)\b|updated(?=\s*(?:on\s|:)))"
    r"(?:\s+on)?\s*:?\s*(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|$)",
    re.IGNORECASE,
)
_SELF_DATE_CHARS: Final = 160


@dataclass(frozen=True, slots=True)
class Region:
    """The parts of a page that are its content region, in document order (its title block
    first, when it has one outside the region), with the page's language (``<html lang>``,
    lower-cased; "" when it declares none) and the URL links are resolved against (its
    ``<base href>``, else the page's URL)."""

    parts: tuple[Tag, ...]
    lang: str
    base: str


def content_region(data: bytes, url: str) -> Region:
    """The content region of the page ``data`` at ``url`` (see above), furniture left out: one
    parse, of the fingerprint's region (and of its title block, when it has one)."""
    head = page_head(data)
    # (a <base href> urllib.parse refuses is as if absent)
    base = (join_url(url, head.base) if head.base else None) or url
    plan = region_plan(data[:MAX_PARSED_BYTES], url)
    return Region(_parts(plan), head.lang, base)


def _parts(plan: RegionPlan) -> tuple[Tag, ...]:
    """The region's parts in the tree of ``plan``'s text (see above)."""
    whole = plan.root is None or plan.title_block is not None
    start = 0 if whole or plan.root is None else plan.root
    end = len(plan.text) if whole else plan.end
    soup, found = _parsed(plan.text, start, end)
    drop_contents(soup)
    drop_each(tags_of(soup), _is_not_text)
    for position in plan.left_out:
        if (tag := _live(found, position)) is not None:
            tag.decompose()
    region = _live(found, plan.root) or soup.body or soup
    region = _live(found, plan.article) or region
    block = _live(found, plan.title_block)
    parts = (region,) if block is None else (block, region)
    for part in parts:
        _drop_permalinks(part)
        _drop_self_dates(part)
        drop_datelines(part)
    return parts


def _parsed(text: str, start: int, end: int) -> tuple[BeautifulSoup, dict[int, Tag]]:
    """``text[start:end]`` parsed (its raw text and comments out: llms.parsing.raw_text_cuts),
    with each element by its start tag's position in ``text``."""
    pieces, sources = raw_text_cuts(text, start, end)
    parsed = "".join(pieces)
    soup = BeautifulSoup(parsed, "html.parser", element_classes={Tag: RegionTag})
    lines = [0]
    at = parsed.find("\n")
    while at >= 0:
        lines.append(at + 1)
        at = parsed.find("\n", at + 1)
    starts = [0]
    for kept in pieces[:-1]:
        starts.append(starts[-1] + len(kept))
    found: dict[int, Tag] = {}
    for tag in tags_of(soup):
        if tag.sourceline is None or tag.sourcepos is None:
            continue
        at = lines[tag.sourceline - 1] + tag.sourcepos
        piece = bisect_right(starts, at) - 1
        found[sources[piece] + at - starts[piece]] = tag
    return soup, found


def _live(found: dict[int, Tag], position: int | None) -> Tag | None:
    """The element whose start tag stands at ``position``, unless none does or it is left
    out. (bs4's ``decomposed`` on a live Tag is a search of its subtree; a decomposed one's
    ``__dict__`` says it.)"""
    tag = None if position is None else found.get(position)
    return None if tag is None or tag.__dict__.get("_decomposed") else tag


def _is_not_text(element: Tag) -> bool:
    if element.name in _NOT_TEXT:
        return True
    return element.name == "form" and not any(tag.name in _HOLDS_PAGE for tag in tags_of(element))


def _drop_permalinks(part: Tag) -> None:
    """Leaves out each heading's permalink (see _WORDLESS), each empty in-page link and each
    skip link (llms.bylines)."""
    tags = tags_of(part)
    in_heading: set[int] = set()  # (one walk down: an unclosed tag may nest thousands deep)
    for tag in tags:
        parent = tag.parent
        if parent is not None and (parent.name in HEADING_TAGS or id(parent) in in_heading):
            in_heading.add(id(tag))

    def permalink(link: Tag) -> bool:
        if link.name != "a" or link.get("href") is None:
            return False
        href, words = str(link["href"]), short_text(link, _SELF_DATE_CHARS)
        if words is None:
            return False
        if id(link) in in_heading and "#" in href and not _WORDLESS.search(words):
            return True
        if is_skip_link(link, words):
            return True
        return href.startswith("#") and not words and link.find("img") is None

    drop_each(tags, permalink)


def _drop_self_dates(part: Tag) -> None:
    """Leaves out each self-date: the outermost element whose text is a "last updated" label,
    a digit and at most _SELF_DATE_CHARS characters in all."""
    found: list[Tag] = []
    for text in part.find_all(string=_SELF_DATE):
        element, outermost = text.parent, None
        while isinstance(element, Tag) and element is not part:
            words = short_text(element, _SELF_DATE_CHARS)
            if words is None or not _SELF_DATE.match(words + " "):
                break
            if any(character.isdigit() for character in words):
                outermost = element
            element = element.parent
        if outermost is not None:
            found.append(outermost)
    dates = {id(element) for element in found}
    drop_each(tags_of(part), lambda element: id(element) in dates)
