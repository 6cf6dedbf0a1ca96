"""mdBook: which chapter each built page comes from."""
# ``src/x/y.md`` -> ``x/y.html``, ``README.md`` -> its folder's ``index.html``; the book's
# ``index.html`` is its first chapter (``src/SUMMARY.md``) when no ``README.md`` is.

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

# A chapter's link ``[Title](path.md#anchor)``. The path and the anchor stop at "(" and "#" (a
# run reaching past the next "](" would be read again from each: 500 KB of "](" took minutes).
_CHAPTER: Final = re.compile(r"\]\(\s*+<?([^()<>\s#]+\.md)(?:#[^()<>\s]*+)?>?\s*+\)")


def mdbook_pages(project: Project, tree: Tree) -> Pages:
    """Every page the book builds from a chapter of its source folder."""
    settings = tree.settings(project.config)
    book = settings.get("book")
    folder = book.get("src") if isinstance(book, dict) else None
    source = paths.join(project.folder, folder if isinstance(folder, str) else "src")
    pages = Pages()
    for path, relative in tree.under(source):
        stem, extension = paths.split_extension(relative)
        if extension != ".md" or relative == "SUMMARY.md":
            continue
        directory, name = posixpath.split(stem)
        if name.lower() == "readme":
            pages.add(paths.join(directory, "index.html"), path)
        pages.add(paths.file_page(stem), path)
    for whole_book in ("print.html", "toc.html"):  # every chapter at once; the sidebar
        pages.add(whole_book)
    first = _CHAPTER.search(tree.text(paths.join(source, "SUMMARY.md")) or "")
    if first is not None and tree.exists(paths.join(source, posixpath.normpath(first[1]))):
        pages.add("index.html", paths.join(source, posixpath.normpath(first[1])))
    return pages
