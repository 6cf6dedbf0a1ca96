"""Docusaurus: which source file each built page comes from."""
# ``docs/x/01-y.md`` -> ``docs/x/y/index.html`` (number prefixes stripped, front matter ``id`` and
# ``slug``), ``blog/YYYY-MM-DD-slug.md`` (or ``blog/YYYY/MM-DD-slug.md``) ->
# ``blog/YYYY/MM/DD/slug/``, ``versioned_docs/version-X/``, ``src/pages/``; the content plugin
# instances the config declares (``id``, ``path``, ``routeBasePath``) and its locales: the default
# locale at the root, each other under ``<locale>/``, where a file translated under
# ``i18n/<locale>/docusaurus-plugin-content-<kind>[-<id>]/`` is the page's source and an
# untranslated page falls back to the default locale's (conventions.docusaurusconfig reads the
# config).

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import text_value
from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions._docusaurusconfig import Instance, read_config
from sitemill.lastmod.sourcefiles.conventions.base import MARKDOWN, Pages, Project, Tree

_NUMBER_PREFIX: Final = re.compile(r"^\d+\s*[-_.]+\s*(?=.)")
_BLOG_DATE: Final = re.compile(r"^(.*?)(\d{4})[-/](\d{1,2})[-/](\d{1,2})[-/]?(.*)$")
_PAGES: Final = MARKDOWN | {".js", ".jsx", ".ts", ".tsx"}


def docusaurus_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Docusaurus project builds from a doc, a blog post or a page, in
    every locale."""
    config = read_config(tree.text(project.config) or "")
    files = paths.file_page if config.trailing_slash_false else paths.directory_page
    pages = Pages()
    for number, locale in enumerate(config.locales):
        for instance in config.instances:
            i18n = paths.join(project.folder, instance.i18n_folder(locale)) if number else None
            _add_instance(pages, tree, project, instance, i18n, locale if number else "", files)
    return pages


def _add_instance(
    pages: Pages,
    tree: Tree,
    project: Project,
    instance: Instance,
    i18n: str | None,
    prefix: str,
    files: paths.RouteFile,
) -> None:
    """The pages of one content plugin in one locale (``i18n``: its translations' folder,
    None for the default locale; ``prefix``: the locale's route)."""
    folder = paths.join(project.folder, instance.path)
    base = paths.join(prefix, instance.route)
    if instance.kind == "blog":
        _add_blog(pages, tree, _PluginFolder(folder, i18n), base, files)
        return
    if instance.kind == "pages":
        _add_pages(pages, tree, _PluginFolder(folder, i18n), base, files)
        return
    versions = _versions(project, tree, instance.id)
    current = paths.join(base, "next") if versions else base
    content = _PluginFolder(folder, i18n and paths.join(i18n, "current"))
    _add_docs(pages, tree, content, current, files)
    named = "" if instance.id == "default" else f"{instance.id}_"
    for number, version in enumerate(versions):
        content = _PluginFolder(
            paths.join(project.folder, f"{named}versioned_docs", f"version-{version}"),
            i18n and paths.join(i18n, f"version-{version}"),
        )
        _add_docs(pages, tree, content, base if number == 0 else paths.join(base, version), files)


class _PluginFolder:
    """A plugin's folder and, in a locale other than the default, its translations' folder:
    the files listed are the folder's; each one's source is its translation where one is."""

    def __init__(self, folder: str, translated: str | None) -> None:
        self.folder = folder
        self.translated = translated

    def source(self, tree: Tree, path: str, relative: str) -> str:
        if self.translated is not None:
            translation = paths.join(self.translated, relative)
            if tree.exists(translation):
                return translation
        return path

    def documents(self, tree: Tree) -> Iterator[tuple[str, str]]:
        """Each Markdown document of the folder (none in a part starting with "_"): its
        source and its stem."""
        for path, relative in tree.under(self.folder):
            stem, extension = paths.split_extension(relative)
            if extension in MARKDOWN and not any(p.startswith("_") for p in relative.split("/")):
                yield self.source(tree, path, relative), stem


def _add_pages(
    pages: Pages, tree: Tree, content: _PluginFolder, base: str, files: paths.RouteFile
) -> None:
    for path, relative in tree.under(content.folder):
        stem, extension = paths.split_extension(relative)
        name = posixpath.basename(stem)
        if extension not in _PAGES or name.startswith("_") or "[" in stem:
            continue
        route = paths.join(base, posixpath.dirname(stem) if name == "index" else stem)
        sources = [content.source(tree, path, relative)]
        # A component page in another locale shows its strings from i18n/<locale>/code.json.
        strings = paths.join(posixpath.dirname(content.translated or ""), "code.json")
        if content.translated and extension not in MARKDOWN and tree.exists(strings):
            sources.append(strings)
        pages.add(paths.directory_page(route) if name == "index" else files(route), *sources)


def _versions(project: Project, tree: Tree, plugin: str) -> list[str]:
    name = "versions.json" if plugin == "default" else f"{plugin}_versions.json"
    try:
        versions = json.loads(tree.text(paths.join(project.folder, name)) or "[]")
    except (ValueError, RecursionError):  # [[[[...]]]] past json's recursion
        return []
    return [str(v) for v in versions] if isinstance(versions, list) else []


def _add_docs(
    pages: Pages, tree: Tree, content: _PluginFolder, base: str, files: paths.RouteFile
) -> None:
    for path, stem in content.documents(tree):
        meta = tree.meta(path)
        directory, name = posixpath.split(stem)
        parts = [_NUMBER_PREFIX.sub("", part) for part in directory.split("/") if part]
        directory, name = "/".join(parts), _NUMBER_PREFIX.sub("", name)
        slug, doc_id = text_value(meta, "slug"), text_value(meta, "id")
        if slug is not None:
            route = slug.strip("/") if slug.startswith("/") else paths.join(directory, slug)
        elif doc_id is not None:
            route = paths.join(directory, doc_id)
        elif name.lower() in ("index", "readme") or name == posixpath.basename(directory):
            route = directory
        else:
            route = paths.join(directory, name)
        pages.add(files(paths.join(base, route)) if route else paths.directory_page(base), path)


def _add_blog(
    pages: Pages, tree: Tree, content: _PluginFolder, base: str, files: paths.RouteFile
) -> None:
    for path, stem in content.documents(tree):
        if posixpath.basename(stem) == "index":
            stem = posixpath.dirname(stem)
        dated = _BLOG_DATE.match(stem)
        slug = text_value(tree.meta(path), "slug")
        if slug is not None:
            route = slug.strip("/")
        elif dated:
            route = paths.join(*dated.groups())
        else:
            route = stem
        pages.add(files(paths.join(base, route)), path)
