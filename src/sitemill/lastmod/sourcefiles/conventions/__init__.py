"""The generator conventions: a project's built pages and the source files they come from."""

from __future__ import annotations

from typing import Final

from sitemill.lastmod.sourcefiles.conventions.astro import astro_pages
from sitemill.lastmod.sourcefiles.conventions.base import Convention
from sitemill.lastmod.sourcefiles.conventions.docusaurus import docusaurus_pages
from sitemill.lastmod.sourcefiles.conventions.eleventy import eleventy_pages
from sitemill.lastmod.sourcefiles.conventions.hexo import hexo_pages
from sitemill.lastmod.sourcefiles.conventions.hugo import hugo_pages
from sitemill.lastmod.sourcefiles.conventions.jekyll import jekyll_pages
from sitemill.lastmod.sourcefiles.conventions.mdbook import mdbook_pages
from sitemill.lastmod.sourcefiles.conventions.mkdocs import mkdocs_pages
from sitemill.lastmod.sourcefiles.conventions.quarto import quarto_pages
from sitemill.lastmod.sourcefiles.conventions.sphinx import sphinx_pages

# Family (as sitemill.lastmod.sourcefiles.project names it) -> its convention.
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
