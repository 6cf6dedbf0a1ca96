"""mdBook: which chapter each built page comes from."""
# ``src/x/y.md`` -> ``x/y.html``, ``README.md`` -> its folder's ``index.html``; the book's
# ``index.html`` is its first chapter (``src/SUMMARY.md``) when no ``README.md`` is.

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles.conventions.base import (
    PageMap,
    Project,
    Tree,
    add,
    config_text,
    file_page,
    join,
    read_settings,
    split_extension,
)

# A chapter's link ``[Title](path.md#anchor)``. The path and the anchor stop at "(" and "#" (a
# run reaching past the next "](" would be read again from each: 500 KB of "](" took minutes).
_CHAPTER: Final = re.compile(r"\]\(\s*+<?([^()<>\s#]+\.md)(?:#[^()<>\s]*+)?>?\s*+\)")


def mdbook_pages(project: Project, tree: Tree) -> PageMap:
    """Every page the book builds from a chapter of its source folder."""
    settings = read_settings(project.config, config_text(project, tree))
    book = settings.get("book")
    folder = book.get("src") if isinstance(book, dict) else None
    source = join(project.folder, folder if isinstance(folder, str) else "src")
    pages: PageMap = {}
    for path, relative in tree.under(source):
        stem, extension = split_extension(relative)
        if extension != ".md" or relative == "SUMMARY.md":
            continue
        directory, name = posixpath.split(stem)
        if name.lower() == "readme":
            add(pages, join(directory, "index.html"), path)
        add(pages, file_page(stem), path)
    for whole_book in ("print.html", "toc.html"):  # every chapter at once; the sidebar
        add(pages, whole_book)
    first = _CHAPTER.search(tree.text(join(source, "SUMMARY.md")) or "")
    if first is not None and tree.exists(join(source, posixpath.normpath(first[1]))):
        add(pages, "index.html", join(source, posixpath.normpath(first[1])))
    return pages
