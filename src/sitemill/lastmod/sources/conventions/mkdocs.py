"""MkDocs: ``docs_dir/a/b.md`` -> ``a/b/index.html`` (``a/b.html`` without directory URLs);
``index.md`` or ``README.md`` -> its folder's ``index.html`` (index.md first)."""

from __future__ import annotations

import posixpath

from sitemill.lastmod.sources.conventions.base import (
    MARKDOWN,
    PageMap,
    Project,
    Tree,
    add,
    config_text,
    directory_page,
    file_page,
    join,
    split_extension,
)
from sitemill.lastmod.sources.yamlish import read_yaml


def mkdocs_pages(project: Project, tree: Tree) -> PageMap:
    """Every page the MkDocs project builds from a Markdown file, honouring ``docs_dir``
    (default docs) and ``use_directory_urls`` (default true)."""
    settings = read_yaml(config_text(project, tree))
    docs_dir = settings.get("docs_dir")
    docs = join(project.folder, docs_dir if isinstance(docs_dir, str) else "docs")
    directory_urls = settings.get("use_directory_urls", True) is not False
    pages: PageMap = {}
    readmes: list[tuple[str, str]] = []
    for path, relative in tree.under(docs):
        stem, extension = split_extension(relative)
        if extension not in MARKDOWN:
            continue
        folder, name = posixpath.split(stem)
        if name.lower() == "readme":
            readmes.append((join(folder, "index.html"), path))
        elif name == "index":
            add(pages, join(folder, "index.html"), path)
        else:
            add(pages, directory_page(stem) if directory_urls else file_page(stem), path)
    for page, path in readmes:  # MkDocs takes index.md over README.md in one folder
        add(pages, page, path)
    return pages
