"""Render the HTML sitemap (sitemap.html.j2): the built-in template or the user's, sandboxed."""
# The page is rendered as a stream and stops, with a TemplateError, past MAX_HTML_BYTES: a template
# that loops far more than its links cannot hold the run's memory. A user's template must keep
# sitemill's generator meta tag, by which a later run tells its own sitemap.html from a page someone
# wrote by hand under that name (sitemill.html.generator.made_by_sitemill).

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from sitemill.errors import TemplateError
from sitemill.filenames.outputs import MAX_HTML_SITEMAP_BYTES

if TYPE_CHECKING:  # (the HTML sitemap is off by default: Jinja loads when a run writes it)
    import jinja2

MAX_HTML_BYTES: Final = MAX_HTML_SITEMAP_BYTES
MARKER: Final = '<meta name="generator" content="sitemill">'


def render_html_page(environment: jinja2.Environment, variables: Mapping[str, Any]) -> bytes:
    """The bytes of sitemap.html: UTF-8, from ``variables`` (sitemill.writing.htmlmap.page)."""
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
    from sitemill.html.generator import made_by_sitemill  # (the HTML reader: for pages only)

    if is_user_template(template) and not made_by_sitemill(data):
        raise TemplateError(
            f"template {HTML_TEMPLATE}: its page must keep {MARKER} in its <head>: by it "
            "sitemill tells its own sitemap.html from a page written by hand"
        )
    return data
