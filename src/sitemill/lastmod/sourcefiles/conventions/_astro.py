"""Astro and Starlight: which source file each built page comes from."""
# ``src/content/docs/x.md(x)`` -> ``x/index.html``, ``src/pages/x.astro`` -> ``x/index.html``
# (``x.html`` with ``format: 'file'``), and a collection ``src/content/C/x.md`` ->
# ``C/x/index.html`` where a ``src/pages/C/[slug].astro`` or ``[...slug].astro`` renders it.

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import text_value
from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import MARKDOWN, Pages, Project, Tree

_PAGES: Final = MARKDOWN | {".astro", ".html", ".mdoc"}
_NOT_IN_SLUG: Final = re.compile(r"[^\w\-.]")
_DYNAMIC: Final = re.compile(r"^\[(?:\.\.\.)?(?:slug|id)\]\.astro$")


def astro_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Astro project builds from a page file or a content entry."""
    file_format = re.search(r"""format\s*:\s*['"]file['"]""", tree.text(project.config) or "")
    built: paths.RouteFile = paths.file_page if file_format else paths.directory_page
    pages = Pages()
    src = paths.join(project.folder, "src")
    routed = {"docs": ""} if tree.has_folder(paths.join(src, "content/docs")) else {}
    for path, relative in tree.under(paths.join(src, "pages")):
        stem, extension = paths.split_extension(relative)
        name = posixpath.basename(relative)
        if _DYNAMIC.match(name):
            collection = posixpath.dirname(relative)
            if collection and tree.has_folder(paths.join(src, "content", collection)):
                routed.setdefault(posixpath.basename(collection), collection)
            continue
        if extension not in _PAGES or "[" in relative or name.startswith("_"):
            continue
        index = posixpath.basename(stem) == "index"
        route = posixpath.dirname(stem) if index else stem
        pages.add(paths.directory_page(route) if index else built(route), path)
    for collection, base in routed.items():
        _add_collection(pages, tree, paths.join(src, "content", collection), base, built)
    return pages


def _add_collection(
    pages: Pages, tree: Tree, folder: str, base: str, built: paths.RouteFile
) -> None:
    for path, relative in tree.under(folder):
        stem, extension = paths.split_extension(relative)
        if extension not in _PAGES or relative.startswith("_"):
            continue
        slug = text_value(tree.meta(path), "slug")
        route = slug.strip("/") if slug else "/".join(map(_slug, stem.split("/")))
        if posixpath.basename(route) == "index":
            route = posixpath.dirname(route)
        route = paths.join(base, route)
        pages.add(built(route) if route else paths.directory_page(route), path)


def _slug(segment: str) -> str:
    """A path segment as Astro's content slugs spell it (github-slugger): lower case,
    spaces to hyphens, other punctuation left out."""
    return _NOT_IN_SLUG.sub("", segment.lower().replace(" ", "-"))
