"""Sphinx: which document (or module) each built page comes from."""
# The docname ``x/y`` of ``x/y.rst|.md|.ipynb|.txt`` -> ``x/y.html`` (the dirhtml builder:
# ``x/y/index.html``, ``x/index`` -> ``x/index.html``).

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

_SUFFIXES: Final = frozenset({".rst", ".md", ".ipynb", ".txt", ".myst"})
# Folders of a Sphinx source tree that hold no documents (themes, templates, a build).
_NOT_DOCUMENTS: Final = ("_build", "_templates", "_static", "_ext", "build")
_INCLUDE: Final = re.compile(
    r"^[ \t]*(?:\.\.[ \t]+(?:literal)?include::|```\{(?:literal)?include\})[ \t]+(\S+)", re.M
)
_SOURCE_SUFFIX: Final = re.compile(r"""^source_suffix\s*=""", re.M)


def sphinx_pages(project: Project, tree: Tree) -> Pages:
    """Every page a Sphinx project builds from a document beside or under its conf.py."""
    dirhtml = "dirhtml" in project.site_dir.split("/")
    suffixes = _suffixes(tree.text(project.config) or "")
    pages = Pages()
    built, other = paths.directory_page, paths.file_page
    if not dirhtml:
        built, other = other, built
    # The builder is not always in the output folder's name (`sphinx-build -b dirhtml docs
    # build/docs`): each document is mapped to the other builder's page too, after every
    # document's own, so a page both could name keeps the one its folder's name says.
    others: list[tuple[str, tuple[str, ...]]] = []
    for path, relative in tree.under(project.folder):
        docname, extension = paths.split_extension(relative)
        if extension not in suffixes or relative.split("/", 1)[0] in _NOT_DOCUMENTS:
            continue
        sources = (path, *_included_files(tree, path, project.folder))
        if posixpath.basename(docname) == "index":
            pages.add(paths.file_page(docname), *sources)
            continue
        pages.add(built(docname), *sources)
        others.append((other(docname), sources))
    for page, sources in others:
        pages.add(page, *sources)
    _add_module_pages(pages, tree, project)
    return pages


def _included_files(tree: Tree, path: str, folder: str) -> tuple[str, ...]:
    """The files a document's ``.. include::`` and ``.. literalinclude::`` directives (rST, or
    MyST's ``{include}``, ``{literalinclude}``) put in its page, as the repository has them:
    their text is the page's too (all of a file, where the page shows some of its lines)."""
    found = []
    for name in _INCLUDE.findall(tree.text(path) or ""):
        start = folder if name.startswith("/") else posixpath.dirname(path)
        target = posixpath.normpath(paths.join(start, name))
        if tree.exists(target) and target not in found:
            found.append(target)
    return tuple(found)


def _add_module_pages(pages: Pages, tree: Tree, project: Project) -> None:
    """viewcode's ``_modules/a/b.html``: the highlighted source of the module ``a.b``, from
    ``a/b.py`` (or ``a/b/__init__.py``) at the repository's root, under ``src/`` or ``lib/``,
    or beside the project's parent folder."""
    parent = posixpath.dirname(project.folder)
    for root in dict.fromkeys(("", "src", "lib", parent, paths.join(parent, "src"))):
        for path, relative in tree.under(root):
            stem, extension = paths.split_extension(relative)
            if extension != ".py" or not stem.replace("/", "").replace("_", "a").isalnum():
                continue
            module = posixpath.dirname(stem) if stem.endswith("/__init__") else stem
            if module and module != "__init__":
                pages.add(f"_modules/{module}.html", path)


def _suffixes(config: str) -> frozenset[str]:
    """The document suffixes: .rst, .md and .ipynb (MyST, nbsphinx), .txt only when the
    config's ``source_suffix`` names it."""
    if _SOURCE_SUFFIX.search(config) and ("'.txt'" in config or '".txt"' in config):
        return _SUFFIXES
    return _SUFFIXES - {".txt"}
