"""Quarto: which document each built page comes from."""
# ``x.qmd|.md|.ipynb|.Rmd`` -> ``x.html`` in the project's output folder (files and folders starting
# with ``_`` or ``.`` are not rendered).

from __future__ import annotations

from typing import Final

from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

_DOCUMENTS: Final = frozenset({".qmd", ".md", ".ipynb", ".rmd"})


def quarto_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Quarto project renders from a document."""
    pages = Pages()
    for path, relative in tree.under(project.folder):
        stem, extension = paths.split_extension(relative)
        parts = relative.split("/")
        if extension not in _DOCUMENTS or any(part.startswith("_") for part in parts):
            continue
        if parts[-1].lower() in ("readme.md", "license.md"):
            continue
        pages.add(paths.file_page(stem), path)
    return pages
