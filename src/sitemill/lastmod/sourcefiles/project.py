"""Which generator built a site and where its project and config file are."""
# A config file in the site folder's parent chain, confirmed by the built home page's ``<meta
# name="generator">`` where it has one.

from __future__ import annotations

import logging
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Final

from sitemill.errors import RefusedError
from sitemill.html.meta import PAGE_FACTS_BYTES, page_generator
from sitemill.lastmod.sourcefiles._generators import GENERATORS
from sitemill.lastmod.sourcefiles.conventions.base import Project, Tree
from sitemill.lastmod.sourcefiles.outputfolder import builds_into
from sitemill.safefs import Root

logger = logging.getLogger(__name__)

# Config files relative to a folder of the chain, per family, in the order tried.
CONFIG_FILES: Final = tuple((generator.family, generator.configs) for generator in GENERATORS)
_SAMPLED: Final = 20  # pages read for a generator meta when the home page has none
# A Hugo config named config.* is taken only beside a folder a Hugo project has.
_HUGO_FOLDERS: Final = ("content", "layouts", "archetypes", "themes")


def find_project(tree: Tree, site_dir: str, site_root: Path) -> Project | None:
    """The project that built ``site_dir``: of the config files found in its parent chain
    (nearest first), the nearest of the family the home page's generator names, else the
    nearest whose output ``site_dir`` is (sitemill.lastmod.sourcefiles.outputfolder), else the
    nearest; None when there is none."""
    found = _candidates(tree, site_dir)
    if not found:
        return None
    named = _named_family(site_root)
    found = [replace(project, generator=named) for project in found]
    chosen = next((project for project in found if project.family == named), None)
    if chosen is None:
        chosen = next((project for project in found if builds_into(project, tree)), found[0])
    logger.debug("site %s: %s project at %r", site_dir, chosen.family, chosen.folder)
    return chosen


def _candidates(tree: Tree, site_dir: str) -> list[Project]:
    found = []
    level = site_dir.strip("/")
    while level:
        level = posixpath.dirname(level)
        for family, names in CONFIG_FILES:
            for name in names:
                config = posixpath.join(level, name) if level else name
                inside = config.startswith(f"{site_dir.strip('/')}/")  # built output
                if tree.exists(config) and not inside and _is_plausible(tree, family, config):
                    folder = posixpath.dirname(config).removesuffix("config/_default")
                    folder = folder.rstrip("/")
                    found.append(Project(family, folder, config, site_dir.strip("/")))
                    break
    return found


def _is_plausible(tree: Tree, family: str, config: str) -> bool:
    if family == "hexo":  # a _config.yml is Hexo's only beside a package.json that needs it
        package = tree.text(posixpath.join(posixpath.dirname(config), "package.json")) or ""
        return re.search(r'"hexo"\s*:', package) is not None
    if family != "hugo" or posixpath.basename(config).startswith("hugo."):
        return True
    folder = posixpath.dirname(config).removesuffix("config/_default").rstrip("/")
    return any(tree.has_folder(posixpath.join(folder, name)) for name in _HUGO_FOLDERS)


def _named_family(site_root: Path) -> str | None:
    """The family the generator meta of the built home page (else of the first built pages
    a short walk finds) names, if any."""
    root = Root(site_root)
    for page in _sample_pages(site_root):
        try:
            data = root.read(page, PAGE_FACTS_BYTES)
        except (OSError, RefusedError):
            continue
        generator = page_generator(data) if data else None
        if generator:
            lowered = generator.lower()
            named = (g.family for g in GENERATORS if lowered.startswith(g.metas))
            return next(named, None)
    return None


def _sample_pages(site_root: Path) -> Iterator[str]:
    """index.html, then the first _SAMPLED pages of a sorted walk (links not followed, dot
    folders skipped): where a generator meta is, most pages carry it."""
    yield "index.html"
    seen = 0
    for folder, folders, names in os.walk(site_root):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if name.endswith((".html", ".htm")) and seen < _SAMPLED:
                seen += 1
                yield os.path.relpath(os.path.join(folder, name), site_root)
        if seen >= _SAMPLED:
            return
