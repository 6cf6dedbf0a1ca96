"""Eleventy: which source file each built page comes from."""
# Templates in the input folder, ``x.md`` -> ``x/index.html``, ``x/index.md`` and ``index.md`` ->
# the folder's ``index.html``, front matter ``permalink`` (without template code).

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

_TEMPLATES: Final = frozenset(
    {".md", ".njk", ".liquid", ".html", ".hbs", ".mustache", ".ejs", ".haml", ".pug", ".webc"}
)
_INPUT: Final = re.compile(r"""\binput\s*:\s*['"`]([^'"`]+)['"`]""")
_FOLDER: Final = r"""\b{}\s*:\s*['"`]([^'"`]+)['"`]"""


def eleventy_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Eleventy project builds from a template of its input folder."""
    config = tree.text(project.config) or ""
    found = _INPUT.search(config)
    source = paths.join(project.folder, found[1] if found and found[1] != "." else "")
    skipped = {"_includes", "_data", "_layouts", "node_modules", "_site"}
    for key in ("includes", "data", "layouts", "output"):
        named = re.search(_FOLDER.format(key), config)
        if named:
            skipped.add(named[1].strip("./"))
    pages = Pages()
    for path, relative in tree.under(source):
        stem, extension = paths.split_extension(relative)
        if relative.endswith(".11ty.js"):
            stem, extension = relative[: -len(".11ty.js")], ".md"
        if extension not in _TEMPLATES or relative.split("/")[0] in skipped:
            continue
        permalink = tree.meta(path).get("permalink")
        if permalink is False or (isinstance(permalink, str) and "{" in permalink):
            continue
        if isinstance(permalink, str) and permalink.strip():
            pages.add(paths.url_page(permalink.strip()), path)
            continue
        index = posixpath.basename(stem) == "index"
        pages.add(paths.directory_page(posixpath.dirname(stem) if index else stem), path)
    return pages
