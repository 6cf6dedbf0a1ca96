"""sitemap.html: what it shows, as plain data for its template (sitemap.html.j2), and its bytes."""
# A section per language (when the pages carry hreflang alternates), in it a folder per URL folder,
# in it a link per page: its title (else its URL path) and its lastmod for a reader and in
# ``<time datetime>``. Every value is text for the template to escape. Plain dicts: the sandbox
# checks every attribute it reads of an object, and reads a dict's items as they are (faster).
# The page is rendered as a stream and stops, with a TemplateError, past MAX_HTML_BYTES. A user's
# template must keep sitemill's generator meta tag (sitemill.html.meta.made_by_sitemill).

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any, Final, TypedDict
from urllib.parse import urlsplit

from sitemill.errors import TemplateError
from sitemill.filenames.outputs import MAX_HTML_SITEMAP_BYTES
from sitemill.html.meta import SITEMILL_GENERATOR, made_by_sitemill
from sitemill.htmlmap._links import Link

if TYPE_CHECKING:  # (the HTML sitemap is off by default: Jinja loads when a run writes it)
    import jinja2

MAX_HTML_BYTES: Final = MAX_HTML_SITEMAP_BYTES
MARKER: Final = '<meta name="generator" content="sitemill">'
PAGE_LANGUAGE: Final = "en"  # the language of the built-in template's own words
_DAY: Final = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")
_MONTHS: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


class PageLink(TypedDict):
    url: str  # absolute and percent-encoded, as in the XML sitemaps
    title: str | None  # the page's <title>, None when it has none (or it was not read)
    text: str  # what the link says: the title, else the URL path
    path: str  # the URL path (and query), decoded for reading
    lastmod: str | None  # as in the XML sitemaps: a valid <time datetime> value
    date: str | None  # the lastmod's day for a reader: "1 May 2024"
    hreflang: str | None  # the page's language, when its hreflang cluster names it


class Folder(TypedDict):
    id: str  # unique in the page, for links to it ("folder-3")
    path: str  # "/docs/guide/", decoded for reading
    links: list[PageLink]


class MapSection(TypedDict):
    id: str  # unique in the page ("language-1", "group-1")
    language: str | None  # an hreflang value ("de", "en-GB"), None: pages of no language
    group: str | None  # a named group's name ([[groups]]), None: the pages of no group
    folders: list[Folder]


def page_variables(
    links: Iterable[Link],
    *,
    base_url: str,
    total: int,
    entry_file: str,
    groups: Sequence[str] = (),
) -> dict[str, Any]:
    """The template's variables for ``links`` (those the page shows, of ``total`` listed):
    a section per named group (``groups``, in their order), then one per language."""
    ordered = sorted(links, key=_display_order)
    folders = _Folders()
    sections = [
        MapSection(
            id=f"group-{kind}",
            language=None,
            group=groups[kind - 1],
            folders=folders.of(sorted(in_group, key=_group_order)),
        )
        for kind, in_group in groupby(
            (link for link in ordered if link.kind), key=lambda link: link.kind
        )
    ]
    for number, (language, in_language) in enumerate(
        groupby((link for link in ordered if not link.kind), key=lambda link: link.language),
        start=1,
    ):
        sections.append(
            MapSection(
                id=f"language-{number}",
                language=language[2] or None,
                group=None,
                folders=folders.of(in_language),
            )
        )
    shown = sum(len(folder["links"]) for section in sections for folder in section["folders"])
    parts = urlsplit(base_url)
    return {
        "lang": PAGE_LANGUAGE,
        "generator": SITEMILL_GENERATOR,
        "site": parts.netloc + parts.path.rstrip("/"),
        "site_url": base_url,
        "sitemap_url": base_url + entry_file,
        "sections": sections,
        "languages": any(section["language"] for section in sections),
        "groups": any(section["group"] for section in sections),
        "total": total,
        "shown": shown,
        "omitted": total - shown,
    }


class _Folders:
    """Folders of links, numbered through the page."""

    def __init__(self) -> None:
        self.count = 0

    def of(self, links: Iterable[Link]) -> list[Folder]:
        folders: list[Folder] = []
        for folder, in_folder in groupby(links, key=lambda link: link.folder):
            self.count += 1
            page_links = list(map(_page_link, in_folder))
            folders.append(Folder(id=f"folder-{self.count}", path=folder, links=page_links))
        return folders


def _group_order(link: Link) -> tuple[object, ...]:
    """In a group's section: by folder, then path (every language together)."""
    return _display_order(link)[3:]


def _display_order(link: Link) -> tuple[object, ...]:
    """By group (the groups' order, then pages of none), language, folder, then path:
    case-folded first, so that "/B" follows "/a"."""
    return (
        link.kind == 0,
        link.kind,
        link.language,
        link.folder.casefold(),
        link.folder,
        link.path.casefold(),
        link.path,
        link.loc,
    )


def _page_link(link: Link) -> PageLink:
    return PageLink(
        url=link.loc,
        title=link.title,
        text=link.title or link.path,
        path=link.path,
        lastmod=link.lastmod,
        date=readable_date(link.lastmod),
        hreflang=link.hreflang,
    )


def readable_date(lastmod: str | None) -> str | None:
    """The day of a W3C datetime as a reader writes it (``1 May 2024``); None for none."""
    found = None if lastmod is None else _DAY.match(lastmod)
    if found is None or not 1 <= int(found["month"]) <= 12:
        return None
    return f"{int(found['day'])} {_MONTHS[int(found['month']) - 1]} {found['year']}"


def render_html_page(environment: jinja2.Environment, variables: Mapping[str, Any]) -> bytes:
    """The bytes of sitemap.html: UTF-8, from ``variables`` (page_variables)."""
    from sitemill.render.environment import (
        HTML_TEMPLATE,
        is_user_template,
        load_template,
        template_error,
    )

    template = load_template(environment, HTML_TEMPLATE)
    chunks: list[bytes] = []
    size = 0
    try:
        for text in template.generate(**variables):
            chunk = text.encode("utf-8", "replace")  # a lone surrogate is no UTF-8
            size += len(chunk)
            if size > MAX_HTML_BYTES:
                raise TemplateError(
                    f"template {HTML_TEMPLATE}: wrote more than {MAX_HTML_BYTES:,} bytes"
                )
            chunks.append(chunk)
    except TemplateError:
        raise
    except Exception as exc:  # anything the template's code did (see template_error)
        raise template_error(HTML_TEMPLATE, exc) from exc
    data = b"".join(chunks)
    if is_user_template(template) and not made_by_sitemill(data):
        raise TemplateError(
            f"template {HTML_TEMPLATE}: its page must keep {MARKER} in its <head>: by it "
            "sitemill tells its own sitemap.html from a page written by hand"
        )
    return data
