"""The templates of one run and what the writer renders with them: sitemaps and indexes."""
# The writer knows files, names and limits; everything Jinja (the environment, loading the user's
# templates before the built-in ones, checking what a user's template wrote) is here. A run with
# the built-in templates (no templates_dir) renders its sitemaps and indexes without Jinja
# (render.builtin: the same bytes), and imports it only for the HTML sitemap.

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.entries import Entry, RenderedSitemap, UrlBlocks
from sitemill.render._builtincode import builtin_compiled, render_builtin_index
from sitemill.render._split import render_compiled, render_sitemaps
from sitemill.render.indexes import IndexItem, check_well_formed, render_index, render_indexes
from sitemill.render.templatenames import INDEX_TEMPLATE, TEXT_TEMPLATE, URLSET_TEMPLATE

if TYPE_CHECKING:
    import jinja2

    from sitemill.render._compiledform import CompiledTemplate


class Renderer:
    """Renders a run's sitemap files (urlset, or text), the indexes that list them and the
    HTML sitemap.

    The entry template is loaded at once, so that a broken one stops the run before any
    entry is read; the index template only when a run needs an index.
    """

    def __init__(self, templates_dir: Path | None, *, text: bool) -> None:
        self._templates_dir = templates_dir
        self._jinja: jinja2.Environment | None = None
        self._name = TEXT_TEMPLATE if text else URLSET_TEMPLATE
        self._template: jinja2.Template | None = None
        self._compiled: CompiledTemplate | None = None
        self._checked = False
        if templates_dir is None:
            self._compiled = builtin_compiled(self._name)
            return
        from sitemill.render.environment import is_user_template, load_template

        self._template = load_template(self.environment(), self._name)
        # A user's XML template may write anything: what it wrote is checked to be XML.
        self._checked = not text and is_user_template(self._template)

    def environment(self) -> jinja2.Environment:
        """The Jinja environment of this run's templates (the user's before the built-in
        ones), made once: an output that renders a page of its own renders through it."""
        if self._jinja is None:
            from sitemill.render.environment import make_environment

            self._jinja = make_environment(self._templates_dir)
        return self._jinja

    def render_sitemaps(
        self, entries: Iterator[Entry], *, max_urls: int, max_bytes: int, extensions: bool = True
    ) -> Iterator[RenderedSitemap]:
        """Stream entries into as many files as the limits need (see render.split); a URL
        list's blocks a block at a time where the template allows (see render.blocks)."""
        compiled = self._compiled
        if isinstance(entries, UrlBlocks):  # (a URL list's: render.blocks loads for it)
            from sitemill.render._blocks import render_block_sitemaps
            from sitemill.render._lineform import line_form

            if compiled is None and self._template is not None:
                from sitemill.render.compiled import compile_template

                compiled = compile_template(self._template)
            form = line_form(compiled) if compiled is not None else None
            if compiled is not None and form is not None:
                return render_block_sitemaps(
                    entries.blocks, form, compiled, max_urls=max_urls, max_bytes=max_bytes
                )
        if self._template is None:
            assert self._compiled is not None
            return render_compiled(
                entries,
                self._compiled,
                self._name,
                max_urls=max_urls,
                max_bytes=max_bytes,
                extensions=extensions,
            )
        return render_sitemaps(
            entries, self._template, max_urls=max_urls, max_bytes=max_bytes, extensions=extensions
        )

    def check(self, name: str, data: bytes | RenderedSitemap) -> None:
        """A TemplateError naming the file when a user's XML template wrote ill-formed XML."""
        if self._checked:
            check_well_formed(name, data if isinstance(data, bytes) else data.data)

    def render_indexes(
        self, items: list[IndexItem], *, max_per_index: int, max_bytes: int
    ) -> list[tuple[str, bytes]]:
        """The index files (name, bytes) that list ``items`` (see render.indexes)."""
        if self._templates_dir is None:
            render, checked = render_builtin_index, False
        else:
            from sitemill.render.environment import is_user_template, load_template

            template = load_template(self.environment(), INDEX_TEMPLATE)
            render, checked = partial(render_index, template), is_user_template(template)
        return render_indexes(
            render, items, checked=checked, max_per_index=max_per_index, max_bytes=max_bytes
        )
