"""Docusaurus: which source file each built page comes from.

``docs/x/01-y.md`` -> ``docs/x/y/index.html`` (number prefixes stripped, front
matter ``id`` and ``slug``), ``blog/YYYY-MM-DD-slug.md`` -> ``blog/YYYY/MM/DD/slug/``,
``versioned_docs/version-X/``, ``src/pages/``; ``routeBasePath`` and ``trailingSlash: false``
read from the config with simple patterns (else the defaults).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from typing import Final

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
from sitemill.lastmod.sources.frontmatter import text_value

_NUMBER_PREFIX: Final = re.compile(r"^\d+\s*[-_.]+\s*(?=.)")
_BLOG_NAME: Final = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")
_PAGES: Final = MARKDOWN | {".js", ".jsx", ".ts", ".tsx"}
Built = Callable[[str], str]  # a route -> the file it is built to


def _route_base(config: str, plugin: str, default: str) -> str:
    found = re.search(
        plugin + r"""\s*:\s*\{[^{}]*?routeBasePath\s*:\s*['"`]([^'"`]*)['"`]""", config
    )
    return found[1].strip("/") if found else default


def docusaurus_pages(project: Project, tree: Tree) -> PageMap:
    """Every page the Docusaurus project builds from a doc, a blog post or a page."""
    config = config_text(project, tree)
    no_slash = re.search(r"trailingSlash\s*:\s*false", config)
    files: Built = file_page if no_slash else directory_page
    docs_base = _route_base(config, "docs", "docs")
    pages: PageMap = {}
    versions = _versions(project, tree)
    current = join(docs_base, "next") if versions else docs_base
    _add_docs(pages, tree, join(project.folder, "docs"), current, files)
    for number, version in enumerate(versions):
        folder = join(project.folder, "versioned_docs", f"version-{version}")
        _add_docs(
            pages, tree, folder, docs_base if number == 0 else join(docs_base, version), files
        )
    _add_blog(pages, tree, join(project.folder, "blog"), _route_base(config, "blog", "blog"), files)
    _add_pages(pages, tree, join(project.folder, "src/pages"), files)
    return pages


def _add_pages(pages: PageMap, tree: Tree, folder: str, files: Built) -> None:
    for path, relative in tree.under(folder):
        stem, extension = split_extension(relative)
        name = posixpath.basename(stem)
        if extension not in _PAGES or name.startswith("_") or "[" in stem:
            continue
        route = posixpath.dirname(stem) if name == "index" else stem
        add(pages, directory_page(route) if name == "index" else files(route), path)


def _versions(project: Project, tree: Tree) -> list[str]:
    try:
        versions = json.loads(tree.text(join(project.folder, "versions.json")) or "[]")
    except ValueError:
        return []
    return [str(v) for v in versions] if isinstance(versions, list) else []


def _add_docs(pages: PageMap, tree: Tree, folder: str, base: str, files: Built) -> None:
    for path, relative in tree.under(folder):
        stem, extension = split_extension(relative)
        if extension not in MARKDOWN or any(p.startswith("_") for p in relative.split("/")):
            continue
        meta = tree.meta(path)
        directory, name = posixpath.split(stem)
        parts = [_NUMBER_PREFIX.sub("", part) for part in directory.split("/") if part]
        directory, name = "/".join(parts), _NUMBER_PREFIX.sub("", name)
        slug, doc_id = text_value(meta, "slug"), text_value(meta, "id")
        if slug is not None:
            route = slug.strip("/") if slug.startswith("/") else join(directory, slug)
        elif doc_id is not None:
            route = join(directory, doc_id)
        elif name.lower() in ("index", "readme") or name == posixpath.basename(directory):
            route = directory
        else:
            route = join(directory, name)
        add(pages, files(join(base, route)) if route else directory_page(base), path)


def _add_blog(pages: PageMap, tree: Tree, folder: str, base: str, files: Built) -> None:
    for path, relative in tree.under(folder):
        stem, extension = split_extension(relative)
        if extension not in MARKDOWN or any(p.startswith("_") for p in relative.split("/")):
            continue
        if posixpath.basename(stem) == "index":
            stem = posixpath.dirname(stem)
        named = _BLOG_NAME.match(posixpath.basename(stem))
        slug = text_value(tree.meta(path), "slug")
        if slug is not None:
            route = slug.strip("/")
        elif named:
            route = join(posixpath.dirname(stem), "/".join(named.groups()))
        else:
            route = stem
        add(pages, files(join(base, route)), path)
