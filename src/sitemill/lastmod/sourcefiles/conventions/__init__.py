"""The generator conventions: a project's built pages and the source files they come from."""

from __future__ import annotations

from typing import Final

from sitemill.lastmod.sourcefiles.conventions._astro import astro_pages
from sitemill.lastmod.sourcefiles.conventions._docusaurus import docusaurus_pages
from sitemill.lastmod.sourcefiles.conventions._eleventy import eleventy_pages
from sitemill.lastmod.sourcefiles.conventions._hexo import hexo_pages
from sitemill.lastmod.sourcefiles.conventions._hugo import hugo_pages
from sitemill.lastmod.sourcefiles.conventions._jekyll import jekyll_pages
from sitemill.lastmod.sourcefiles.conventions._mdbook import mdbook_pages
from sitemill.lastmod.sourcefiles.conventions._mkdocs import mkdocs_pages
from sitemill.lastmod.sourcefiles.conventions._quarto import quarto_pages
from sitemill.lastmod.sourcefiles.conventions._sphinx import sphinx_pages
from sitemill.lastmod.sourcefiles.conventions.base import Convention

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
