"""Quarto: which document each built page comes from."""
# ``x.qmd|.md|.ipynb|.Rmd`` -> ``x.html`` in the project's output folder (files and folders starting
# with ``_`` or ``.`` are not rendered).

from __future__ import annotations

from typing import Final

from sitemill.lastmod.sourcefiles.conventions.base import (
    PageMap,
    Project,
    Tree,
    add,
    file_page,
    split_extension,
)

_DOCUMENTS: Final = frozenset({".qmd", ".md", ".ipynb", ".rmd"})


def quarto_pages(project: Project, tree: Tree) -> PageMap:
    """Every page the Quarto project renders from a document."""
    pages: PageMap = {}
    for path, relative in tree.under(project.folder):
        stem, extension = split_extension(relative)
        parts = relative.split("/")
        if extension not in _DOCUMENTS or any(part.startswith("_") for part in parts):
            continue
        if parts[-1].lower() in ("readme.md", "license.md"):
            continue
        add(pages, file_page(stem), path)
    return pages
