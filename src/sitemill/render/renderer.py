"""The templates of one run and what the writer renders with them: sitemaps and indexes."""
# The writer knows files, names and limits; everything Jinja (the environment, loading the user's
# templates before the built-in ones, checking what a user's template wrote) is here.

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sitemill.entries import Entry, UrlBlocks
from sitemill.render.blocks import render_block_sitemaps
from sitemill.render.compiled import compile_template
from sitemill.render.environment import (
    INDEX_TEMPLATE,
    TEXT_TEMPLATE,
    URLSET_TEMPLATE,
    is_user_template,
    load_template,
    make_environment,
)
from sitemill.render.htmlpage import render_html_page
from sitemill.render.indexes import IndexItem, render_indexes
from sitemill.render.lineform import line_form
from sitemill.render.rendered import RenderedSitemap
from sitemill.render.split import render_sitemaps
from sitemill.render.wellformed import check_well_formed


class Renderer:
    """Renders a run's sitemap files (urlset, or text), the indexes that list them and the
    HTML sitemap.

    The entry template is loaded at once, so that a broken one stops the run before any
    entry is read; the index template only when a run needs an index.
    """

    def __init__(self, templates_dir: Path | None, *, text: bool) -> None:
        self._environment = make_environment(templates_dir)
        self._template = load_template(
            self._environment, TEXT_TEMPLATE if text else URLSET_TEMPLATE
        )
        # A user's XML template may write anything: what it wrote is checked to be XML.
        self._checked = not text and is_user_template(self._template)

    def render_sitemaps(
        self, entries: Iterator[Entry], *, max_urls: int, max_bytes: int, extensions: bool = True
    ) -> Iterator[RenderedSitemap]:
        """Stream entries into as many files as the limits need (see render.split); a URL
        list's blocks a block at a time where the template allows (see render.blocks)."""
        if isinstance(entries, UrlBlocks):
            compiled = compile_template(self._template)
            form = line_form(compiled) if compiled is not None else None
            if compiled is not None and form is not None:
                return render_block_sitemaps(
                    entries.blocks, form, compiled, max_urls=max_urls, max_bytes=max_bytes
                )
        return render_sitemaps(
            entries,
            self._template,
            max_urls=max_urls,
            max_bytes=max_bytes,
            extensions=extensions,
        )

    def check(self, name: str, data: bytes | RenderedSitemap) -> None:
        """A TemplateError naming the file when a user's XML template wrote ill-formed XML."""
        if self._checked:
            check_well_formed(name, data if isinstance(data, bytes) else data.data)

    def render_indexes(
        self, items: list[IndexItem], *, max_per_index: int, max_bytes: int
    ) -> list[tuple[str, bytes]]:
        """The index files (name, bytes) that list ``items`` (see render.indexes)."""
        template = load_template(self._environment, INDEX_TEMPLATE)
        return render_indexes(template, items, max_per_index=max_per_index, max_bytes=max_bytes)

    def render_html(self, variables: Mapping[str, Any]) -> bytes:
        """sitemap.html from its variables (see render.htmlpage, writing.htmlmap.page)."""
        return render_html_page(self._environment, variables)
