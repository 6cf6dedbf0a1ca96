"""Hugo: which content file each built page comes from."""
# ``content/x.md`` -> ``x/index.html`` (``x.html`` with uglyURLs), a leaf bundle's ``x/index.md``
# alike, a section's ``_index.md`` -> its ``index.html``; front matter ``url`` and ``slug``;
# languages in their own content folders or as ``x.fr.md``.

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import text_value
from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions._hugopermalinks import (
    permalink_patterns,
    permalink_url,
)
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

_CONTENT: Final = frozenset(
    {".md", ".markdown", ".mdown", ".html", ".htm", ".adoc", ".asciidoc", ".ad", ".org"}
    | {".rst", ".pandoc", ".pdc"}
)


def hugo_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Hugo project builds from a content file."""
    settings = _settings(project, tree)
    languages = settings.get("languages")
    if not isinstance(languages, dict):
        languages = {}
    languages = {str(k).lower(): v for k, v in languages.items()}
    default = str(settings.get("defaultcontentlanguage") or "en").lower()
    in_subdir = settings.get("defaultcontentlanguageinsubdir") is True
    site = _Site(
        languages=frozenset(languages),
        default=default,
        in_subdir=in_subdir,
        ugly=settings.get("uglyurls") is True,
        lower=settings.get("disablepathtolower") is not True,
        permalinks=permalink_patterns(settings),
    )
    roots = [(paths.join(project.folder, str(settings.get("contentdir") or "content")), default)]
    for language, table in languages.items():
        if isinstance(table, dict):
            folder = {str(k).lower(): v for k, v in table.items()}.get("contentdir")
            if isinstance(folder, str):
                roots.insert(0, (paths.join(project.folder, folder), language))
    pages = Pages()
    for root, language in roots:
        _add_root(pages, tree, root, language, site)
    return pages


@dataclass(frozen=True, slots=True)
class _Site:
    """The settings a page's built path depends on."""

    languages: frozenset[str]
    default: str
    in_subdir: bool
    ugly: bool
    lower: bool
    permalinks: dict[str, str]

    def prefix(self, language: str) -> str:
        if not self.languages or (language == self.default and not self.in_subdir):
            return ""
        return language

    def spell(self, route: str) -> str:
        route = route.replace(" ", "-")
        return route.lower() if self.lower else route


def _add_root(pages: Pages, tree: Tree, root: str, language: str, site: _Site) -> None:
    files = [(p, r) for p, r in tree.under(root) if paths.split_extension(r)[1] in _CONTENT]
    bundles = {posixpath.dirname(r) for _, r in files if _name(r)[0] == "index"} - {""}
    for path, relative in files:
        folder = posixpath.dirname(relative)
        name, named_language = _name(relative, site.languages)
        if name not in ("index", "_index") and _inside_bundle(folder, bundles):
            continue  # a page resource of a leaf bundle, not a page
        page_language = named_language or language
        pages.add(_page(tree.meta(path), folder, name, page_language, site), path)


def _page(meta: dict[str, object], folder: str, name: str, language: str, site: _Site) -> str:
    url = text_value(meta, "url")
    if url is not None:  # taken as written: Hugo lower-cases the paths it makes, not this
        return paths.url_page(url)
    prefix = site.prefix(language)
    pattern = site.permalinks.get(folder.split("/", 1)[0] if folder else "page")
    if pattern is not None and name != "_index":
        own = posixpath.basename(folder) if name == "index" else name
        filled = permalink_url(pattern, meta, folder, own)
        if filled is not None:
            return paths.url_page(
                site.spell(paths.join(prefix, filled) + ("/" * filled.endswith("/")))
            )
    if name == "_index":  # a section's list page (uglyURLs: posts.html)
        route = site.spell(paths.join(prefix, folder))
        return paths.file_page(route) if site.ugly and folder else paths.directory_page(route)
    if name == "index":
        route = paths.join(prefix, folder)
        if text_value(meta, "slug"):
            route = paths.join(prefix, posixpath.dirname(folder), text_value(meta, "slug") or "")
    else:
        route = paths.join(prefix, folder, text_value(meta, "slug") or name)
    route = site.spell(route)
    return paths.file_page(route) if site.ugly and route else paths.directory_page(route)


def _name(relative: str, languages: frozenset[str] = frozenset()) -> tuple[str, str | None]:
    """A content file's name without its extension and language (``x.fr.md`` -> x, fr)."""
    stem = paths.split_extension(posixpath.basename(relative))[0]
    base, dot, language = stem.rpartition(".")
    if dot and language.lower() in languages:
        return base, language.lower()
    return stem, None


def _inside_bundle(folder: str, bundles: set[str]) -> bool:
    while True:
        if folder in bundles:
            return True
        if not folder:
            return False
        folder = posixpath.dirname(folder)


def _settings(project: Project, tree: Tree) -> dict[str, object]:
    """The config's settings with lower-cased keys (Hugo's are case-insensitive), with a
    config/_default folder's languages file merged in."""
    settings = tree.settings(project.config)
    if "config/_default/" in f"/{project.config}":
        for extension in ("toml", "yaml", "yml", "json"):
            languages = paths.join(posixpath.dirname(project.config), f"languages.{extension}")
            if tree.exists(languages):
                settings.setdefault("languages", tree.settings(languages))
    return {str(key).lower(): value for key, value in settings.items()}
