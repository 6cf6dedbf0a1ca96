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
#   that holds no heading), heading permalinks and self-dates ("Last updated on <date>");
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

from bs4 import BeautifulSoup, Tag

# Bytes of a page read at most: a page past this is read to there (html.parser closes what is
# open), so a 100 MB file costs no more than a 4 MB one.
MAX_PAGE_BYTES: Final = 4 * 1024 * 1024
_UTF8_BOM: Final = b"\xef\xbb\xbf"
_NOT_TEXT: Final = (
    "script", "style", "template", "noscript", "svg", "math", "button", "select", "input",
    "textarea", "iframe", "object", "embed", "canvas", "dialog", "nav", "aside",
)  # fmt: skip
_FURNITURE_ROLES: Final = frozenset(
    {"navigation", "complementary", "search", "banner", "contentinfo"}
)
HEADINGS: Final = ("h1", "h2", "h3", "h4", "h5", "h6")
# A heading's permalink: an in-page link (its target a fragment) with no letter or digit in its
# text ("¶", "#", "§", a zero-width space, nothing but an icon).
_WORDLESS: Final = re.compile(r"[^\W_]")
# A self-date: a short block whose text is a "last updated" label then a date (a digit or a
# month's name first); "Updated" alone opens many a sentence ("Updated the ISO profile").
_SELF_DATE: Final = re.compile(
    r"\s*(?:page\s+)?(?:last\s+(?:updated|modified|update)\b|updated(?=\s*(?:on\s|:)))"
    r"(?:\s+on)?\s*:?\s*(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|$)",
    re.IGNORECASE,
)
_SELF_DATE_CHARS: Final = 160
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


def parse_page(data: bytes) -> BeautifulSoup:
    """A page's bytes (UTF-8, as the fingerprint decodes them; at most MAX_PAGE_BYTES) as a
    tree, with the stdlib parser (no lxml: the same tree on every platform)."""
    text = data[:MAX_PAGE_BYTES].removeprefix(_UTF8_BOM).decode("utf-8", "replace")
    return BeautifulSoup(text, "html.parser")


def content_region(data: bytes, url: str) -> Region:
    """The content region of the page ``data`` at ``url`` (see above), furniture left out."""
    soup = parse_page(data)
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    html = soup.find("html")
    lang = html.get("lang") if isinstance(html, Tag) else None
    base = _base_url(soup, url)
    _drop_furniture(soup)
    region = _region(soup)
    _drop_page_furniture(region)
    region = _narrowed(region)
    parts: tuple[Tag, ...] = (region,)
    if region.find("h1") is None:
        block = _title_block(soup, region, title)
        parts = (block, region) if block is not None else parts
    for part in parts:
        _drop_permalinks(part)
        _drop_self_dates(part)
    return Region(parts, str(lang or "").strip().lower(), base)


def _base_url(soup: BeautifulSoup, url: str) -> str:
    from urllib.parse import urljoin

    base = soup.find("base", href=True)
    return urljoin(url, str(base["href"]).strip()) if isinstance(base, Tag) else url


def _drop_furniture(soup: BeautifulSoup) -> None:
    for element in soup.find_all(_NOT_TEXT):
        element.decompose()
    for element in soup.find_all(role=True):
        if not element.decomposed and _role(element) in _FURNITURE_ROLES:
            element.decompose()
    for form in soup.find_all("form"):
        if not form.decomposed and form.find(("main", "article", *HEADINGS)) is None:
            form.decompose()


def _role(element: Tag) -> str:
    words = str(element.get("role") or "").split()
    return words[0].lower() if words else ""


def _region(soup: BeautifulSoup) -> Tag:
    main = soup.find("main")
    if main is None:
        main = next((tag for tag in soup.find_all(role=True) if _role(tag) == "main"), None)
    if main is None:
        articles = soup.find_all("article")
        main = articles[0] if len(articles) == 1 else None
    return main or soup.body or soup


def _drop_page_furniture(region: Tag) -> None:
    """Leaves out the headers and footers of ``region`` that belong to the page (not inside an
    article), but a header that holds the page's <h1>, its title block."""
    for element in region.find_all(("header", "footer")):
        if element.decomposed or element.find_parent("article") is not None:
            continue
        if element.name == "header" and element.find("h1") is not None:
            continue
        element.decompose()


def _narrowed(region: Tag) -> Tag:
    """The article ``region`` narrows to (see above), else ``region``."""
    outermost = [
        article
        for article in region.find_all("article")
        if article.find_parent("article") is None or article.find_parent("article") is region
    ]
    if region.name == "article" or not outermost:
        return region
    if len(outermost) == 1 and len(outermost[0].find_all("h1")) == len(region.find_all("h1")):
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
    for heading in part.find_all(HEADINGS):
        for link in heading.find_all("a", href=True):
            if "#" in str(link["href"]) and not _WORDLESS.search(link.get_text()):
                link.decompose()
    for link in part.find_all("a", href=True):  # (an empty in-page link anywhere: an anchor)
        if link.decomposed or not str(link["href"]).startswith("#"):
            continue
        if not link.get_text().strip() and link.find("img") is None:
            link.decompose()


def _drop_self_dates(part: Tag) -> None:
    """Leaves out each self-date: the outermost element whose text is a "last updated" label,
    a digit and at most _SELF_DATE_CHARS characters in all."""
    for text in part.find_all(string=_SELF_DATE):
        found = None
        element = getattr(text, "parent", None)  # (None: left out with a self-date before)
        while isinstance(element, Tag) and element is not part:
            words = element.get_text(" ", strip=True)
            if len(words) > _SELF_DATE_CHARS or not _SELF_DATE.match(words + " "):
                break
            if any(character.isdigit() for character in words):
                found = element
            element = element.parent
        if found is not None and not found.decomposed:
            found.decompose()
