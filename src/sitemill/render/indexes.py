"""Render sitemap indexes: sitemap.xml, then sitemap-index-2.xml, ... as the limits need."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemill.errors import TemplateError
from sitemill.filenames.outputs import ENTRY_XML
from sitemill.render._split import fit_within

if TYPE_CHECKING:  # (a user's template: the built-in one renders without Jinja, render.builtin)
    import jinja2


@dataclass(frozen=True, slots=True)
class IndexItem:
    """One <sitemap> of an index: the child's absolute URL and its <lastmod>, when its bytes
    last changed (sitemill.writing.childdates; a job with no state: its newest page's)."""

    loc: str
    lastmod: str | None


def render_index(template: jinja2.Template, sitemaps: Iterable[IndexItem]) -> bytes:
    """Render a <sitemapindex> (small: at most max_sitemaps_per_index children)."""
    items = list(sitemaps)
    try:
        return template.render(sitemaps=items).encode("utf-8")
    except Exception as exc:  # whatever the template's own code raised
        from sitemill.render.environment import template_error

        raise template_error(template.name, exc) from exc


def render_indexes(
    render: Callable[[list[IndexItem]], bytes],
    items: list[IndexItem],
    *,
    checked: bool,
    max_per_index: int,
    max_bytes: int,
) -> list[tuple[str, bytes]]:
    """Index files (name, bytes) of at most ``max_per_index`` items and ``max_bytes`` each,
    each written by ``render`` (render_index with a template, render.builtin's without).

    With ``checked`` (a user's template, from templates_dir), each is checked to be
    well-formed XML.
    """
    indexes: list[tuple[str, bytes]] = []
    start = 0
    while start < len(items):
        name = ENTRY_XML if not indexes else f"sitemap-index-{len(indexes) + 1}.xml"
        batch = items[start : start + max_per_index]
        count, data = fit_within(render, batch, max_bytes)
        if count == 0:
            raise TemplateError(f"{name}: one <sitemap> entry does not fit in max_bytes")
        if checked:
            check_well_formed(name, data)
        indexes.append((name, data))
        start += count
    return indexes


# Check that what a user's XML template wrote is well-formed XML, before anything is written.
def check_well_formed(name: str, data: bytes) -> None:
    """A TemplateError naming the file when ``data`` is not well-formed XML."""
    from xml.parsers import expat  # (a user's template only: not on the built-ins' path)

    parser = expat.ParserCreate()
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        reason = expat.ErrorString(exc.code)
        raise TemplateError(
            f"{name}: the template rendered XML that is not well-formed ({reason} at line "
            f"{exc.lineno}, column {exc.offset + 1}); nothing was written"
        ) from exc
