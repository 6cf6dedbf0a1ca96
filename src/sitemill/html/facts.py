"""Page facts: what a crawler learns from an HTML page's first bytes (one pass over its head)."""
# The fields of PageFacts, each read from the head (its images from the body, when asked). Facts
# are raw (hrefs as written): resolving them needs the page's URL, which depends on the
# configuration (sitemill.html.links). They are remembered per object version in the state
# (sitemill.state.model), so ``FACTS_VERSION`` moves whenever what is read here changes.

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Final

from sitemill.html.head import HTML_SPACE, StartTag, head_start_tags
from sitemill.html.hreflang import X_DEFAULT, normalize_hreflang
from sitemill.html.images import read_image_sources
from sitemill.html.meta import PAGE_FACTS_BYTES, is_noindex_meta
from sitemill.html.title import read_label, read_title

__all__ = [
    "FACTS_VERSION",
    "PAGE_FACTS_BYTES",
    "PageFacts",
    "read_page_facts",
    "read_refresh",
    "refresh_url",
    "with_images",
]

# Bumped whenever read_page_facts would read a page differently: remembered facts are
# then read again (one pass of reads), never trusted.
FACTS_VERSION: Final = 8
# A page naming more alternates than this is not a page of a real multilingual site (the
# largest have a few dozen languages): the rest are left out, so a hostile head costs little.
MAX_ALTERNATES: Final = 256

_TAGS: Final = frozenset({"meta", "link", "html", "head", "noscript"})
_TAGS_AND_TITLE: Final = _TAGS | {"title"}
# Every tag of interest holds one of these, lower-cased, inside one attribute name or value
# (character references may spell the others): the rest go by at the speed of re.
_MARKS: Final = (
    (b"noindex", b"none", b"refresh", b"canonical", b"hreflang", b"og:url", b"&#", b"{{", b"{%"),
)
_MARKS_AND_LABELS: Final = ((*_MARKS[0], b"description", b"og:site_name"),)
_BASE: Final = frozenset({"base"})
# Template syntax: Go templates (Hugo), Jinja and Liquid (Sphinx, MkDocs, Jekyll themes). An
# opener's scan stops at the next opener of its kind (which would match as well), so that
# each byte is scanned at most twice: linear, even on "{{{{{{...".
_TEMPLATE: Final = re.compile(
    rb"\{\{(?:(?!\{\{).){0,500}?\}\}|\{%(?:(?!\{%).){0,500}?%\}", re.DOTALL
)
# How templates and front matter begin: Go/Jinja/Liquid, Jinja comments, ERB/EJS, PHP,
# YAML and TOML front matter.
_TEMPLATE_OPENERS: Final = (b"{{", b"{%", b"{#", b"<%", b"<?php", b"---", b"+++")
# White space, comments and an XML declaration (XHTML) come before what a file begins with.
_LEADING: Final = re.compile(
    rb"(?:[\t\n\f\r ]++|<!--.*?-->|<\?xml(?=[\t\n\f\r ?])[^>]*+>)*+", re.DOTALL | re.IGNORECASE
)
_DOCTYPE: Final = re.compile(rb"<!doctype(?=[\t\n\f\r >])[^>]*+>", re.IGNORECASE)
# A layout's <html> tag holds template syntax before its ">" (<html lang="{{ .Lang }}">,
# <html{% if lang %} lang="{{ lang }}"{% endif %}>).
_TEMPLATE_HTML: Final = re.compile(rb"<html(?![^\t\n\f\r />{])[^>]*?(?:\{\{|\{%)", re.IGNORECASE)
# What a document begins with (after white space and comments): a DOCTYPE, or a tag that a
# parser puts in the document's skeleton or head. Anything else is a fragment.
_DOCUMENT_START: Final = re.compile(
    rb"<!doctype|<(?:html|head|body|meta|title|link|base|script|style|noscript)[\t\n\f\r />]",
    re.IGNORECASE,
)
_ANY_TAG: Final = re.compile(rb"<[A-Za-z!/?]")
# The skeleton's start tags (without template syntax), which a layout follows with its first
# directive (<html>\n{% include head.html %}): the layout of a site's source tree.
_SKELETON: Final = re.compile(rb"<(?:html|head|body)(?=[\t\n\f\r />])[^>{]*+>", re.IGNORECASE)
# A document's part that a partial begins with (no DOCTYPE, no <html>, no <head>).
_PART_START: Final = re.compile(
    rb"<(?:meta|title|link|base|script|style|noscript|body)[\t\n\f\r />]", re.IGNORECASE
)
_DIRECTIVES: Final = (b"{{", b"{%", b"<%", b"<?php")
_UTF8_BOM: Final = b"\xef\xbb\xbf"
_REL_SPLIT: Final = re.compile(r"[\t\n\f\r ]+")  # rel is a set of tokens split on ASCII space


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What a page's head says about listing it; the defaults are an ordinary page's."""

    noindex: bool = False
    refresh: str | None = None  # the URL of a meta refresh, as written
    canonical: str | None = None  # the href of rel=canonical, as written
    base: str | None = None  # the href of <base>, when a relative URL here needs it
    document: bool = True  # False: not an HTML document (a template, a fragment, text)
    alternates: tuple[tuple[str, str], ...] = ()  # (hreflang, href) as written, in order
    images: tuple[str, ...] | None = None  # image sources as written; None: body not read
    title: str | None = None  # the <title> text, "" for none; None: not read
    # Read with the title: the meta description, og:site_name ("" for none; None: not read).
    description: str | None = None
    site_name: str | None = None
    lang: str = ""  # <html lang> as written, read with the images; "" for none
    website_redirect: bool = False  # ``refresh`` is an S3 object's (sources.s3pages)
    og_url: str | None = None  # the content of <meta property="og:url">, as written


ORDINARY_PAGE: Final = PageFacts()  # an HTML document whose head says nothing of interest


def read_page_facts(data: bytes, *, titles: bool = False) -> PageFacts:
    """The facts of a page from its first bytes (PAGE_FACTS_BYTES are enough), with its
    title when ``titles`` (the first <title> of its head, as a parser builds it), its meta
    description and og:site_name (the first of each). Linear."""
    if not _is_document_start(data):
        return PageFacts(document=False)
    title: str | None = "" if titles else None
    titled, noindex, labels = False, False, dict[str, str]()
    refreshes, canonicals, og_urls = list[str](), list[str](), list[str]()
    alternates: list[tuple[str, str]] = []
    names, marks = (_TAGS_AND_TITLE, _MARKS_AND_LABELS) if titles else (_TAGS, _MARKS)
    for tag in head_start_tags(data, names, marks):
        if tag.name == "title":
            if not titled:  # document.title is the first <title>'s, even when empty
                title, titled = read_title(tag.text), True
            continue
        if tag.name == "noscript":
            refreshes.extend(_noscript_refreshes(tag.text))
            continue
        if tag.name != "meta" and _TEMPLATE.search(tag.source):
            return PageFacts(document=False)  # <html lang="{{ .Site.Language }}">: a layout
        values = _values(tag)
        if tag.name == "meta":
            noindex = noindex or is_noindex_meta(values)
            if values.get("http-equiv", "").strip(HTML_SPACE).lower() == "refresh":
                refreshes.append(values.get("content", ""))
            elif values.get("property", "").strip(HTML_SPACE).lower() == "og:url":
                og_urls.append(values.get("content", "").strip(HTML_SPACE))
            elif titles:
                read_label(values, labels)
        elif tag.name == "link":
            rel = _REL_SPLIT.split(values.get("rel", "").lower())
            if "canonical" in rel:
                canonicals.append(values.get("href", "").strip(HTML_SPACE))
            elif "alternate" in rel and "hreflang" in values and len(alternates) < MAX_ALTERNATES:
                href = values.get("href", "").strip(HTML_SPACE)
                if href:
                    alternates.append((values["hreflang"].strip(HTML_SPACE), href))
    # The first valid refresh counts (one that only reloads the page included).
    refresh = next((url for valid, url in map(read_refresh, refreshes) if valid), None)
    # Google ignores rel=canonical when a page gives several that disagree.
    # https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls
    canonical = canonicals[0] if canonicals and len(set(canonicals)) == 1 else None
    canonical = canonical or None
    relative = _is_relative(refresh) or _is_relative(canonical)
    relative = relative or any(_is_relative(href) for _, href in alternates)
    base = _base_href(data) if relative else None
    og_url = og_urls[0] if og_urls and og_urls[0] else None  # (absolute, by the protocol)
    return PageFacts(
        noindex,
        refresh,
        canonical,
        base,
        alternates=tuple(alternates),
        title=title,
        og_url=og_url,
        description=labels.get("description", "") if titles else None,
        site_name=labels.get("og:site_name", "") if titles else None,
    )


def with_images(facts: PageFacts, data: bytes) -> PageFacts:
    """``facts`` with the images of the page whose bytes (up to the fingerprint's bound) are
    ``data``, its ``<html lang>``, and the document's base URL when a relative image source
    needs it."""
    images = read_image_sources(data)
    base = facts.base
    if base is None and any(map(_is_relative, images)):
        base = _base_href(data)
    return dataclasses.replace(facts, images=images, base=base, lang=read_html_lang(data))


def _noscript_refreshes(text: bytes) -> list[str]:
    """The contents of the meta refreshes in a <noscript> of the head, which a crawler that
    runs no script follows (mike's root beside a script that redirects the others), read as
    the parser's "in head noscript" mode does: a head of metadata tags of its own."""
    tags = (_values(tag) for tag in head_start_tags(text, frozenset({"meta"}), _MARKS))
    return [
        values.get("content", "")
        for values in tags
        if values.get("http-equiv", "").strip(HTML_SPACE).lower() == "refresh"
    ]


def _values(tag: StartTag) -> dict[str, str]:
    values: dict[str, str] = {}
    for key, value in tag.attributes():
        values.setdefault(key, value)  # HTML keeps the first of repeated attributes
    return values


def _is_relative(url: str | None) -> bool:
    return url is not None and "://" not in url[:12]


def _base_href(data: bytes) -> str | None:
    """The document base URL's href: the first <base> with an href (rare: scanned again
    only when a relative URL needs it)."""
    for tag in head_start_tags(data, _BASE):
        href = _values(tag).get("href")
        if href is not None:
            return href.strip(HTML_SPACE)
    return None


def _is_document_start(data: bytes) -> bool:
    """Whether the bytes begin like an HTML document rather than a template, front matter,
    a fragment holding template syntax, or text without markup."""
    start = len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0
    start = _skip_leading(data, start)
    doctype = _DOCTYPE.match(data, start)
    if doctype is not None:
        # What follows a DOCTYPE shows a layout: "{% block head %}", <html lang="{{ … }}">.
        start = _skip_leading(data, doctype.end())
        if data.startswith(_TEMPLATE_OPENERS, start) or _TEMPLATE_HTML.match(data, start):
            return False
        return not _is_layout(data, start)
    if data.startswith(_TEMPLATE_OPENERS, start):
        return False
    if _DOCUMENT_START.match(data, start):
        if _PART_START.match(data, start) and _TEMPLATE.search(data, start):
            return False  # (<meta charset="utf-8"> then {{ .Title }}: a partial, no skeleton)
        return not _is_layout(data, start)
    # A fragment: a page written by hand may begin with <h1>, but an include or partial
    # (wrong site root) holds template syntax; text without a tag is no page at all.
    return _ANY_TAG.search(data, start) is not None and _TEMPLATE.search(data, start) is None


def _is_layout(data: bytes, start: int) -> bool:
    """Whether a document's skeleton is a template's: a directive right after its first start
    tags (a title with braces is still a page's: "{{ x }} in Jinja")."""
    while (tag := _SKELETON.match(data, _skip_leading(data, start))) is not None:
        start = tag.end()
    return data.startswith(_DIRECTIVES, _skip_leading(data, start))


def _skip_leading(data: bytes, start: int) -> int:
    leading = _LEADING.match(data, start)
    return leading.end() if leading else start


_HTML_SUFFIXES: Final = (".html", ".htm")


def wants_facts(path: str) -> bool:
    """Whether a page's head is read for facts: HTML files only."""
    return path.lower().endswith(_HTML_SUFFIXES)


# A meta refresh's content as the HTML standard reads it: whether it is valid, and its URL.
def refresh_url(content: str) -> str | None:
    """The URL a meta refresh's ``content`` names, or None when it only reloads the page
    (or is not valid: see ``read_refresh``)."""
    return read_refresh(content)[1]


def read_refresh(content: str) -> tuple[bool, str | None]:
    """Whether a meta refresh's ``content`` is valid, and the URL it names (None: a reload).

    The HTML standard's "shared declarative refresh steps": a time, then an optional
    separator, ``url=`` and an optionally quoted URL. Only the first valid refresh of a
    page counts: an invalid one (no time) is ignored, as if it were not there.
    https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps
    """
    text = content.lstrip(HTML_SPACE)
    rest = text.lstrip("0123456789")
    if rest == text and not rest.startswith("."):
        return False, None  # no time: the steps stop, and the next refresh may count
    rest = rest.lstrip("0123456789.")
    if rest and rest[0] not in ";," + HTML_SPACE:
        return False, None
    rest = rest.lstrip(HTML_SPACE)
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip(HTML_SPACE)
    if rest[:3].lower() == "url":
        after = rest[3:].lstrip(HTML_SPACE)
        if after.startswith("="):  # else the URL is all the rest, "url" included
            rest = after[1:].lstrip(HTML_SPACE)
    if rest[:1] in ("'", '"'):
        quote, rest = rest[0], rest[1:]
        rest = rest.split(quote, 1)[0]
    url = rest.strip(HTML_SPACE)
    return True, url or None


# A page's language as its ``<html lang>`` gives it.
# The last way sitemill knows a page's language (after its hreflang cluster and its language
# folder), for the site chrome among images, which is counted per language (sitemill.images.chrome).
_HTML: Final = frozenset({"html"})


def read_html_lang(data: bytes) -> str:
    """The ``lang`` of the page's first ``<html>`` tag as written (stripped), "" for none.
    The scan ends with the head, as a parser's <html> ends before the body."""
    for tag in head_start_tags(data, _HTML):
        for name, value in tag.attributes():
            if name == "lang":
                return value.strip(HTML_SPACE)
        return ""
    return ""


def language_tag(value: str) -> str:
    """A language as sitemill compares it: the hreflang's canonical case (``en-US``; ``en_US``
    as ``en-US``), "" when ``value`` is no language Google accepts in hreflang, or x-default."""
    normalized = normalize_hreflang(value.replace("_", "-")) if value else None
    return "" if normalized is None or normalized == X_DEFAULT else normalized
