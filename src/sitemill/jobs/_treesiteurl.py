"""What a site folder and its repository say of the site's URL: CNAME, generator config, state."""
# Evidence for listing.siteurl, read where the tree job is: the folder's ``CNAME``, the configured
# URL of the generator that built the folder, the previous state's base URL, and the common base of
# the generator's own sitemap this run replaces (weak). What cannot be read says nothing.

from __future__ import annotations

import logging
import os
import posixpath
import re
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from sitemill.errors import RefusedError
from sitemill.filenames.outputs import ENTRY_XML
from sitemill.git.trust import find_top
from sitemill.lastmod.sourcefiles.conventions.base import Project, RepoView, Tree
from sitemill.lastmod.sourcefiles.outputfolder import builds_into, config_option, output_folder
from sitemill.lastmod.sourcefiles.project import CONFIG_FILES, find_project
from sitemill.listing.siteurl import declared_base, site_url_warning
from sitemill.report import Declared, Report
from sitemill.safefs import Root
from sitemill.urls import encode_path
from sitemill.writing.sitemapfile import (
    HEAD_BYTES,
    SITEMAPINDEX,
    index_locs,
    sitemap_root,
    urlset_locs,
)
from sitemill.writing.takeover import Takeover

CNAME: Final = "CNAME"  # GitHub Pages' custom domain, one name on the file's first line
_CNAME_BYTES: Final = 512
_CONFIG_BYTES: Final = 256 * 1024  # a generator's config file, read for one setting
_SITEMAP_BYTES: Final = 1024 * 1024  # a parent folder's sitemap.xml, read for the URLs it shares
_HOST: Final = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")
# Folders beside a Hugo config.* that make it Hugo's (lastmod.sourcefiles.project), and the file
# beside a _config.yml that makes it Hexo's.
_PROJECT_MARKS: Final = ("content", "layouts", "archetypes", "themes", "package.json")
log = logging.getLogger(__name__)


def say_site_url(base_url: str, says: list[Declared], report: Report) -> None:
    """Add to ``report`` what the folder, its repository, the state the run started from and
    the sitemap it replaced say of the site's URL (``says``: tree_site_urls), after what its
    pages said, and the one warning when that contradicts ``base_url`` (the Action refuses
    it before anything is written: github.mismatch)."""
    report.site_urls.extend(says)
    for message in site_url_warning(base_url, report.site_urls, report.warnings):
        log.warning("%s", message)
        report.warnings.append(message)


def tree_site_urls(
    site_dir: Path, state_base: str | None, base_url: str, replaced: Takeover | None = None
) -> list[Declared]:
    """The evidence of the site's URL the folder ``site_dir`` and its repository hold, the
    generator's sitemap this run ``replaced``, and the base URL of the previous state
    (``state_base``) when it is another than ``base_url`` (never for it: an earlier run may
    have been the mistake), unless ``base_url`` only moves it from http to https (a
    correction)."""
    found = [_cname(site_dir), _configured(site_dir), _generator_sitemap(replaced)]
    found += _parents_say(site_dir)
    state = (
        None if state_base is None else declared_base(state_base, "the previous state", strong=True)
    )
    if state is not None and base_url not in (state.base, _https(state.base)):
        found.append(state)
    return [item for item in found if item is not None]


def _https(base: str) -> str:
    return "https://" + base.removeprefix("http://") if base.startswith("http://") else base


def _generator_sitemap(replaced: Takeover | None) -> Declared | None:
    """The base URL all the URLs of a generator's sitemap (its index's children) share."""
    if replaced is None or replaced.generator is None:
        return None
    index = sitemap_root(replaced.data[:HEAD_BYTES]) == SITEMAPINDEX
    base = common_base((index_locs if index else urlset_locs)(replaced.data))
    source = f"{replaced.generator.owner} {replaced.replaced}"
    return None if base is None else declared_base(base, source)


def common_base(urls: list[str]) -> str | None:
    """The folder URL every one of ``urls`` is under (one origin); None when none is."""
    origin, folder = None, None
    for url in urls:
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        if not parts.scheme or not parts.netloc:
            return None  # (Hugo's relative locs: no origin)
        if origin is None:
            origin, folder = (parts.scheme, parts.netloc), parts.path.rsplit("/", 1)[0] + "/"
        elif origin != (parts.scheme, parts.netloc):
            return None
        while folder and not parts.path.startswith(folder):
            folder = folder[:-1].rsplit("/", 1)[0] + "/" if folder != "/" else ""
    if origin is None or not folder:
        return None
    return f"{origin[0]}://{origin[1]}{folder}"


def _parents_say(site_dir: Path) -> list[Declared]:
    """What the nearest folder above ``site_dir`` in its repository that says anything says of
    ``site_dir``'s URL: a folder served at a URL serves each folder below it under that URL
    (``public/`` at ``https://<CNAME>/`` serves ``public/2019/`` at ``https://<CNAME>/2019/``).
    Its sitemap.xml is strong when a URL of it is under this folder's URL (the folder is
    served there), weak when none is; its CNAME is weak (GitHub Pages may serve a folder below
    it, ``docs/``, at the CNAME's root)."""
    top = find_top(site_dir)
    real = Path(os.path.realpath(site_dir))
    if top is None or top == real:
        return []
    parts = real.relative_to(top).parts
    root = Root(top)
    for depth in range(len(parts) - 1, -1, -1):  # (the nearest first)
        folder = "/".join(parts[:depth])
        below = encode_path("/".join(parts[depth:])) + "/"
        found = [
            item
            for item in (_cname(root, folder, below), _folder_sitemap(root, folder, below))
            if item is not None
        ]
        if found:
            return found
    return []


def _folder_sitemap(root: Root, folder: str, below: str) -> Declared | None:
    """``below`` under the base URL the URLs of ``folder``'s sitemap.xml share (the common base
    of an index's children), strong when a URL of it is there."""
    path = posixpath.join(folder, ENTRY_XML)
    try:
        data = root.read(path, _SITEMAP_BYTES)
    except (OSError, RefusedError):
        return None
    if not data:
        return None
    index = sitemap_root(data[:HEAD_BYTES]) == SITEMAPINDEX
    locs = (index_locs if index else urlset_locs)(data)
    base = common_base(locs)
    if base is None:
        return None
    url = base + below
    return declared_base(url, path, strong=any(loc.startswith(url) for loc in locs))


def _cname(root: Root | Path, folder: str = "", below: str = "") -> Declared | None:
    """``https://<name>/`` from the folder's CNAME file, when it holds one host name: strong;
    with ``below``, the URL of that sub-folder of it: weak."""
    where = posixpath.join(folder, CNAME)
    try:
        data = (root if isinstance(root, Root) else Root(root)).read(where, _CNAME_BYTES)
    except (OSError, RefusedError):
        return None
    lines = (data or b"").decode("utf-8", "replace").strip().splitlines()
    name = lines[0].strip() if lines else ""
    if not _HOST.fullmatch(name):
        return None
    return declared_base(f"https://{name}/{below}", where, strong=not below)


def generator_project(site_dir: Path) -> tuple[Project, Tree] | None:
    """The project of the generator that built ``site_dir`` (its config file found in the
    folder's parent chain, inside its repository), and the view of it that found it."""
    top = find_top(site_dir)
    if top is None or top == Path(os.path.realpath(site_dir)):
        return None
    folder = Path(os.path.realpath(site_dir)).relative_to(top).as_posix()
    tree = Tree(_config_view(top, folder), folder)
    project = find_project(tree, folder, site_dir)
    return None if project is None else (project, tree)


def _configured(site_dir: Path) -> Declared | None:
    """The site URL the config of the generator that built ``site_dir`` names: strong when
    the config builds into this very folder, or into a folder above it (then the URL of the
    sub-folder under it: ``public/2019/`` of a site built into ``public/``), weak when into
    another."""
    found = generator_project(site_dir)
    if found is None:
        return None
    project, tree = found
    settings = tree.settings(project.config)
    url = _site_url(project, {str(key).lower(): value for key, value in settings.items()}, tree)
    if not url:
        return None
    source = f"{project.config} of {project.family}"
    output = output_folder(project, tree)
    site = posixpath.normpath(project.site_dir.strip("/") or ".")
    if output and output != "." and site.startswith(output + "/"):  # (a sub-folder of it)
        below = encode_path(site[len(output) + 1 :])
        return declared_base(f"{url.rstrip('/')}/{below}/", source, strong=True)
    builds_here = builds_into(project, tree)  # (the folder rung 2 takes sources for)
    return declared_base(url, source, strong=builds_here)


def _site_url(project: Project, settings: dict[str, object], tree: Tree) -> str | None:
    """The site URL a family's settings name, with its path where the family keeps it apart."""
    family = project.family
    if family == "mkdocs":
        return _text(settings.get("site_url"))
    if family in ("hugo", "hexo"):
        return _text(settings.get("baseurl" if family == "hugo" else "url"))
    if family == "jekyll":
        url, path = _text(settings.get("url")), _text(settings.get("baseurl")) or ""
        return url.rstrip("/") + "/" + path.strip("/") if url else None
    if family == "quarto":
        website = settings.get("website")
        return _text(website.get("site-url")) if isinstance(website, dict) else None
    text = tree.text(project.config) or ""
    keys = {"docusaurus": ("url", "baseUrl"), "astro": ("site", "base")}
    if family in keys:
        url_key, path_key = keys[family]
        url, path = config_option(text, url_key), config_option(text, path_key) or ""
        return url.rstrip("/") + "/" + path.strip("/") if url else None
    if family == "sphinx":
        return config_option(text, "html_baseurl")
    return None  # (Eleventy and mdBook keep no site URL)


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _config_view(top: Path, site: str) -> RepoView:
    """The repository as far as finding the project needs: the config files in the site
    folder's parent chain, and the names beside them that confirm one (lastmod.sourcefiles.
    project); each read from disk, bounded."""
    root = Root(top)
    files: list[str] = []
    level = site
    while level:
        level = posixpath.dirname(level)
        names = [name for _, names in CONFIG_FILES for name in names] + list(_PROJECT_MARKS)
        for name in dict.fromkeys(names):
            path = posixpath.join(level, name) if level else name
            marker = _first_under(top / path) if name in _PROJECT_MARKS[:4] else None
            if marker is not None:
                files.append(f"{path}/{marker}")
            elif os.path.isfile(top / path):
                files.append(path)

    def read_text(path: str) -> str | None:
        try:
            data = root.read(path, _CONFIG_BYTES)
        except (OSError, RefusedError):
            return None
        return None if data is None else data.decode("utf-8", "replace")

    return RepoView(files=tuple(sorted(files)), read_text=read_text)


def _first_under(folder: Path) -> str | None:
    """The name of one visible entry of ``folder`` (None: no such folder, or empty)."""
    try:
        with os.scandir(folder) as entries:
            return next((e.name for e in entries if not e.name.startswith(".")), None)
    except OSError:
        return None
