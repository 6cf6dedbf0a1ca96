"""Where a generator's project builds its site, and whether a folder is that build."""
# docs/lastmod.md, "Rung 2: the page's source": a source dates a page only when the folder is that
# generator's output for that configuration. The output folder is the config's setting (relative
# to the config's folder), else the generator's default; Sphinx keeps none in conf.py (the builder
# is told on its command line), so a folder named _build or build beside the config (or above it)
# is taken, as is, for Sphinx and Docusaurus (whose --out-dir is a flag too), a folder whose built
# pages' <meta name="generator"> names that generator. A folder whose pages name another generator
# is no build of this config, wherever it stands. The site-URL evidence (jobs.treesiteurl) asks the
# same question.

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles._generators import BY_FAMILY
from sitemill.lastmod.sourcefiles.conventions.base import Project, Tree

_QUARTO_BOOK: Final = "_book"  # a Quarto book's default output folder
_SPHINX_BUILDS: Final = ("_build", "build")  # sphinx-quickstart's and the Makefile's
# A string option of a JavaScript or Python config (Docusaurus, Astro, Eleventy, Sphinx): key,
# ":" or "=", a quoted value on one line.
_OPTION: Final = r"""(?<![\w.])%s\s*[:=]\s*['"`]([^'"`\n]{0,2048})['"`]"""


def config_option(text: str, key: str) -> str | None:
    """The quoted string value of ``key`` in a JavaScript or Python config's ``text``."""
    found = re.search(_OPTION % re.escape(key), text)
    return found[1].strip() if found else None


def output_folder(project: Project, tree: Tree) -> str | None:
    """The folder (repo-relative) the project's config builds into, its setting else the
    generator's default; None for Sphinx (the builder's command line names it)."""
    generator = BY_FAMILY[project.family]
    if generator.output_setting:
        value: object = tree.settings(project.config)
        for key in generator.output_setting:
            table = value if isinstance(value, dict) else {}
            value = {str(found).lower(): item for found, item in table.items()}.get(key)
        default = generator.default_output
        if project.family == "quarto" and not isinstance(value, str):
            default = _QUARTO_BOOK if _quarto_type(project, tree) == "book" else default
        return _join_output(project.folder, value if isinstance(value, str) else default or "")
    if generator.default_output is not None:
        name = generator.output_option
        option = None if name is None else config_option(tree.text(project.config) or "", name)
        return _join_output(project.folder, option or generator.default_output)
    return None


def builds_into(project: Project, tree: Tree) -> bool:
    """Whether ``project.site_dir`` is the project's own output: its configured (or default)
    output folder, a Sphinx build folder, or (Sphinx, Docusaurus) a folder its pages'
    generator meta names it in; never a folder whose pages name another generator."""
    if project.generator is not None and project.generator != project.family:
        return False
    site = posixpath.normpath(project.site_dir.strip("/") or ".")
    if site == output_folder(project, tree):
        return True
    if project.family == "sphinx" and _sphinx_build(project.folder, site):
        return True
    named = BY_FAMILY[project.family].output_on_command_line
    return named and project.generator == project.family


def _sphinx_build(folder: str, site: str) -> bool:
    """Whether ``site`` is inside a _build or build folder that stands in the config's
    ``folder`` or one above it (docs/_build/html, docs/build/html beside docs/source)."""
    parts = site.split("/")
    for at, part in enumerate(parts):
        above = "/".join(parts[:at])
        if part in _SPHINX_BUILDS and (not above or f"{folder}/".startswith(f"{above}/")):
            return True
    return False


def _quarto_type(project: Project, tree: Tree) -> object:
    table = tree.settings(project.config).get("project")
    return table.get("type") if isinstance(table, dict) else None


def _join_output(folder: str, output: str) -> str | None:
    """``output`` (a config's setting) relative to the repository; None for a path outside
    it (absolute, or above its root): no folder sitemill is given inside the repository."""
    output = output.strip()
    if not output or output.startswith(("/", "~")) or re.match(r"[A-Za-z]:[\\/]", output):
        return None
    joined = posixpath.normpath(posixpath.join(folder, output))
    return None if joined == ".." or joined.startswith("../") else joined
