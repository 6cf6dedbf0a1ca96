"""MkDocs: which Markdown file each built page comes from."""
# ``docs_dir/a/b.md`` -> ``a/b/index.html`` (``a/b.html`` without directory URLs); ``index.md`` or
# ``README.md`` -> its folder's ``index.html`` (index.md first).

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import MARKDOWN, Pages, Project, Tree

# pymdownx.snippets (``--8<-- "file"``) and mkdocs-include-markdown-plugin
# (``{% include-markdown "file" %}``, ``{% include "file" %}``): text put into the page.
_SNIPPET: Final = re.compile(
    r"""^[ \t]*-{1,}8<-{1,}[ \t]+["']([^"'\n]+)["']
    | \{%[ \t]*include(?:-markdown)?[ \t]+["']([^"'\n]+)["']""",
    re.M | re.X,
)


def mkdocs_pages(project: Project, tree: Tree) -> Pages:
    """Every page the MkDocs project builds from a Markdown file, honouring ``docs_dir``
    (default docs) and ``use_directory_urls`` (default true)."""
    settings = tree.settings(project.config)
    docs_dir = settings.get("docs_dir")
    docs = paths.join(project.folder, docs_dir if isinstance(docs_dir, str) else "docs")
    directory_urls = settings.get("use_directory_urls", True) is not False
    built = paths.directory_page if directory_urls else paths.file_page
    pages = Pages()
    readmes: list[tuple[str, tuple[str, ...]]] = []
    for path, relative in tree.under(docs):
        stem, extension = paths.split_extension(relative)
        if extension not in MARKDOWN:
            continue
        folder, name = posixpath.split(stem)
        sources = (path, *_snippets(tree, path, (project.folder, docs)))
        if name.lower() == "readme":
            readmes.append((paths.join(folder, "index.html"), sources))
        elif name == "index":
            pages.add(paths.join(folder, "index.html"), *sources)
        else:
            pages.add(built(stem), *sources)
    for page, found in readmes:  # MkDocs takes index.md over README.md in one folder
        pages.add(page, *found)
    return pages


def _snippets(tree: Tree, path: str, bases: tuple[str, ...]) -> list[str]:
    """The files a page's snippet or include lines name, as the repository has them: found
    beside the page, else under the project folder or docs_dir (snippets' base_path)."""
    found: list[str] = []
    for match in _SNIPPET.finditer(tree.text(path) or ""):
        name = (match[1] or match[2]).split(":", 1)[0]  # "file.md:3:8" names lines of it
        starts = (posixpath.dirname(path), *bases)
        targets = (posixpath.normpath(paths.join(start, name)) for start in starts)
        target = next((t for t in targets if tree.exists(t)), None)
        if target is not None and target not in found:
            found.append(target)
    return found
