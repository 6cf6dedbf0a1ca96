"""The built-in templates without Jinja: urlset.xml.j2 and text.txt.j2 compiled, the index's text.

A run whose templates are the built-in ones (no templates_dir) renders with these: the same
bytes as Jinja's rendering of the template files (tests/render/test_builtin_code.py compares
them), without importing Jinja, about a fifth of the Lambda's cold start.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from sitemill.render._builtincode import BUILTIN_PARTS
from sitemill.render._compiledform import CompiledTemplate, build_compiled, xml_escape
from sitemill.render.indexes import IndexItem

_INDEX_HEAD: Final = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
_INDEX_FOOT: Final = "</sitemapindex>\n"


@cache
def builtin_compiled(name: str) -> CompiledTemplate:
    """The compiled built-in template ``name`` (URLSET_TEMPLATE or TEXT_TEMPLATE)."""
    return build_compiled(BUILTIN_PARTS[name])


def render_builtin_index(sitemaps: Iterable[IndexItem]) -> bytes:
    """What sitemapindex.xml.j2 renders for ``sitemaps``."""
    lines = [_INDEX_HEAD]
    for item in sitemaps:
        lastmod = f"<lastmod>{xml_escape(item.lastmod)}</lastmod>" if item.lastmod else ""
        lines.append(f"  <sitemap><loc>{xml_escape(item.loc)}</loc>{lastmod}</sitemap>\n")
    lines.append(_INDEX_FOOT)
    return "".join(lines).encode("utf-8")
