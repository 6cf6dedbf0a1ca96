"""Eleventy: which source file each built page comes from."""
# Templates in the input folder, ``x.md`` -> ``x/index.html``, ``x/index.md`` and ``index.md`` ->
# the folder's ``index.html``, front matter ``permalink`` (without template code).

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
    directory_page,
    join,
    split_extension,
    url_page,
)

_TEMPLATES: Final = frozenset(
    {".md", ".njk", ".liquid", ".html", ".hbs", ".mustache", ".ejs", ".haml", ".pug", ".webc"}
)
_INPUT: Final = re.compile(r"""\binput\s*:\s*['"`]([^'"`]+)['"`]""")
_FOLDER: Final = r"""\b{}\s*:\s*['"`]([^'"`]+)['"`]"""


def eleventy_pages(project: Project, tree: Tree) -> PageMap:
    """Every page the Eleventy project builds from a template of its input folder."""
    config = config_text(project, tree)
    found = _INPUT.search(config)
    source = join(project.folder, found[1] if found and found[1] != "." else "")
    skipped = {"_includes", "_data", "_layouts", "node_modules", "_site"}
    for key in ("includes", "data", "layouts", "output"):
        named = re.search(_FOLDER.format(key), config)
        if named:
            skipped.add(named[1].strip("./"))
    pages: PageMap = {}
    for path, relative in tree.under(source):
        stem, extension = split_extension(relative)
        if relative.endswith(".11ty.js"):
            stem, extension = relative[: -len(".11ty.js")], ".md"
        if extension not in _TEMPLATES or relative.split("/")[0] in skipped:
            continue
        permalink = tree.meta(path).get("permalink")
        if permalink is False or (isinstance(permalink, str) and "{" in permalink):
            continue
        if isinstance(permalink, str) and permalink.strip():
            add(pages, url_page(permalink.strip()), path)
            continue
        index = posixpath.basename(stem) == "index"
        add(pages, directory_page(posixpath.dirname(stem) if index else stem), path)
    return pages
