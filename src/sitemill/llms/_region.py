"""A listed page's content region, as the content fingerprint reads it, on a BeautifulSoup tree."""
# The rules are the fingerprint's (docs/lastmod.md, "The main content, not the furniture" and
# "Furniture is left out wherever it stands"), read here on bs4 with the stdlib html.parser, so
# that the region can be handed to the Markdown converter as a tree:
#
# - the region is the first <main>, else the first element whose role is main, else the page's
#   only <article>, else the body;
# - furniture is left out wherever it stands: nav, aside, the furniture roles, a header or footer
#   that belongs to the page (not inside an article) unless it holds the page's <h1>, what a reader
#   does not read as text (script, style, template, noscript, svg, buttons, form controls, a form
#   that holds no heading), what no reader sees (a hidden attribute, an inline display: none),
#   heading permalinks and self-dates ("Last updated on <date>"), a post's dateline, a table of
#   contents and a skip link (llms.bylines);
# - a region whose one outermost <article> holds the page's <h1> (or the region holds none) and
#   no <h1> beside it narrows to it; a region of several articles stays whole (fingerprint
#   version 5: a Hugo blog's home page holds its intro in one article, its posts' teasers in
#   the articles beside it);
# - when the region holds no <h1>, a page-level header before it whose <h1> the page's <title>
#   names is the page's title block and comes first (a Docusaurus home page's hero).
#
# Blocks the site repeats on most of its pages are left out after this (llms.blocks).

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urljoin

from bs4 import BeautifulSoup, Tag

from sitemill.llms._bylines import drop_contents, drop_datelines, is_skip_link
from sitemill.llms._parsing import main_slice, page_head, page_text
from sitemill.llms._treewalk import drop_each, short_text, tags_of

_NOT_TEXT: Final = frozenset(
    {
        "script", "style", "template", "noscript", "svg", "math", "button", "select", "input",
        "textarea", "iframe", "object", "embed", "canvas", "dialog", "nav", "aside",
    }
)  # fmt: skip
_HOLDS_PAGE: Final = frozenset({"main", "article", "h1", "h2", "h3", "h4", "h5", "h6"})
_FURNITURE_ROLES: Final = frozenset(
    {"navigation", "complementary", "search", "banner", "contentinfo"}
)
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
_HIDING_STYLE: Final = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))"
    r"\s*(?:!important\s*)?(?:;|$)",
    re.IGNORECASE,
)
_SPACES: Final = re.compile(r"\s+")


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
    """The content region of the page ``data`` at ``url`` (see above), furniture left out.

    A page with a <main> is parsed from it to its last </main> only (main_slice); when the
    region then holds no <h1> (its title block may stand before it), the whole page is."""
    head = page_head(data)
    base = urljoin(url, head.base) if head.base else url
    text = page_text(data)
    sliced = main_slice(text)
    parts = _parts(BeautifulSoup(sliced, "html.parser"), head.title) if sliced else None
    if parts is None:
        parts = _parts(BeautifulSoup(text, "html.parser"), head.title, whole=True)
    return Region(parts or (), head.lang, base)


def _parts(soup: BeautifulSoup, title: str, whole: bool = False) -> tuple[Tag, ...] | None:
    """The region's parts in ``soup``; None when ``soup`` is not the whole page and the region
    is no <main> or holds no <h1>."""
    drop_contents(soup)
    _drop_furniture(soup)
    region = _region(soup)
    if not whole and region.name != "main":
        return None
    _drop_page_furniture(region)
    region = _narrowed(region)
    parts: tuple[Tag, ...] = (region,)
    if not any(tag.name == "h1" for tag in tags_of(region)):
        if not whole:
            return None
        block = _title_block(soup, region, title)
        parts = (block, region) if block is not None else parts
    for part in parts:
        _drop_permalinks(part)
        _drop_self_dates(part)
        drop_datelines(part)
    return parts


def _drop_furniture(soup: BeautifulSoup) -> None:
    drop_each(tags_of(soup), _is_furniture)


def _is_furniture(element: Tag) -> bool:
    if element.name in _NOT_TEXT or _role(element) in _FURNITURE_ROLES or _is_hidden(element):
        return True
    return element.name == "form" and not any(tag.name in _HOLDS_PAGE for tag in tags_of(element))


def _is_hidden(element: Tag) -> bool:
    """Whether no reader sees ``element``: its ``hidden`` attribute (not "until-found", which
    a find in the page shows) or an inline style of ``display: none`` or ``visibility:
    hidden``. ``aria-hidden`` is not: it hides from a screen reader what the eye reads."""
    hidden = element.get("hidden")
    if hidden is not None and str(hidden).strip().lower() != "until-found":
        return True
    style = element.get("style")
    return style is not None and _HIDING_STYLE.search(str(style)) is not None


def _role(element: Tag) -> str:
    words = str(element.get("role") or "").split()
    return words[0].lower() if words else ""


def _region(soup: BeautifulSoup) -> Tag:
    tags = tags_of(soup)
    main = next((tag for tag in tags if tag.name == "main"), None)
    if main is None:
        main = next((tag for tag in tags if _role(tag) == "main"), None)
    if main is None:
        articles = [tag for tag in tags if tag.name == "article"]
        main = articles[0] if len(articles) == 1 else None
    return main or soup.body or soup


def _drop_page_furniture(region: Tag) -> None:
    """Leaves out the headers and footers of ``region`` that belong to the page (not inside an
    article), but a header that holds the page's <h1>, its title block."""

    def furniture(element: Tag) -> bool:
        if element.name not in ("header", "footer") or element.find_parent("article") is not None:
            return False
        return element.name == "footer" or not any(tag.name == "h1" for tag in tags_of(element))

    drop_each(tags_of(region), furniture)


def _narrowed(region: Tag) -> Tag:
    """The article ``region`` narrows to (see above), else ``region``."""
    if region.name == "article":
        return region
    tags = tags_of(region)
    outermost = [
        tag
        for tag in tags
        if tag.name == "article" and tag.find_parent("article") in (None, region)
    ]
    if len(outermost) != 1:
        return region
    headlines = sum(1 for tag in tags if tag.name == "h1")
    if sum(1 for tag in tags_of(outermost[0]) if tag.name == "h1") == headlines:
        return outermost[0]
    return region


def _title_block(soup: BeautifulSoup, region: Tag, title: str) -> Tag | None:
    """A page-level header outside ``region`` whose <h1> the page's ``title`` names."""
    wanted = _SPACES.sub(" ", title).strip().casefold()
    for header in soup.find_all("header"):
        if header.find_parent("article") is not None or region in header.parents:
            continue
        headline = header.find("h1")
        words = _SPACES.sub(" ", headline.get_text(" ", strip=True)).casefold() if headline else ""
        if words and words in wanted:
            return header
    return None


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
