"""The generator conventions: a project's built pages and the source files they come from."""

from __future__ import annotations

from typing import Final

from sitemill.lastmod.sources.conventions.astro import astro_pages
from sitemill.lastmod.sources.conventions.base import Convention
from sitemill.lastmod.sources.conventions.docusaurus import docusaurus_pages
from sitemill.lastmod.sources.conventions.eleventy import eleventy_pages
from sitemill.lastmod.sources.conventions.hexo import hexo_pages
from sitemill.lastmod.sources.conventions.hugo import hugo_pages
from sitemill.lastmod.sources.conventions.jekyll import jekyll_pages
from sitemill.lastmod.sources.conventions.mdbook import mdbook_pages
from sitemill.lastmod.sources.conventions.mkdocs import mkdocs_pages
from sitemill.lastmod.sources.conventions.quarto import quarto_pages
from sitemill.lastmod.sources.conventions.sphinx import sphinx_pages

# Family (as sitemill.lastmod.sources.project names it) -> its convention.
CONVENTIONS: Final[dict[str, Convention]] = {
    "astro": astro_pages,
    "docusaurus": docusaurus_pages,
    "eleventy": eleventy_pages,
    "hexo": hexo_pages,
    "hugo": hugo_pages,
    "jekyll": jekyll_pages,
    "mdbook": mdbook_pages,
    "mkdocs": mkdocs_pages,
    "quarto": quarto_pages,
    "sphinx": sphinx_pages,
}
