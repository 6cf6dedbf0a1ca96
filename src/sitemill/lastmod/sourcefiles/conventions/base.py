"""What every generator convention works from: the project, the repository's files, paths."""

from __future__ import annotations

import bisect
import itertools
import json
import posixpath
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from sitemill.config.file import too_many_key_parts
from sitemill.lastmod.sourcefiles.frontmatter import split_front_matter
from sitemill.lastmod.sourcefiles.repoview import RepoView
from sitemill.lastmod.sourcefiles.yamlish import read_yaml

# A built page (site-relative path, "guide/install/index.html") -> the source file(s) it was
# rendered from (repo-relative paths).
PageMap = dict[str, tuple[str, ...]]
MARKDOWN: Final = frozenset({".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdx"})
# Folders no generator renders pages from.
_SKIPPED: Final = frozenset({"node_modules", "__pycache__", "vendor"})


@dataclass(frozen=True, slots=True)
class Project:
    """A generator's project: its family, folder and config file (repo-relative), where the
    site was found (``site_dir``, repo-relative), and the family the built pages'
    ``<meta name="generator">`` names (``generator``; None: none does)."""

    family: str
    folder: str
    config: str
    site_dir: str
    generator: str | None = None


class Tree:
    """The repository's files as conventions read them: listed under a folder (never inside
    the built site, a dot-folder or node_modules), texts and front matter read once each."""

    def __init__(self, repo: RepoView, site_dir: str) -> None:
        # under() walks a prefix by bisection: sorted as Python compares (UTF-8 byte order).
        self.files = repo.files if _is_sorted(repo.files) else tuple(sorted(repo.files))
        self._read = repo.read_text
        self._site = site_dir.strip("/") + "/"
        self._set = frozenset(repo.files)
        self._texts: dict[str, str | None] = {}
        self._meta: dict[str, dict[str, object]] = {}

    def exists(self, path: str) -> bool:
        return path in self._set

    def has_folder(self, folder: str) -> bool:
        return next(self.under(folder), None) is not None

    def under(self, folder: str) -> Iterator[tuple[str, str]]:
        """(repo path, path relative to ``folder``) of each file under ``folder``, sorted."""
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        at = bisect.bisect_left(self.files, prefix)
        for path in self.files[at:]:
            if not path.startswith(prefix):
                break
            relative = path[len(prefix) :]
            if path.startswith(self._site) or _skipped(relative):
                continue
            yield path, relative

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read(path) if path in self._set else None
        return self._texts[path]

    def text_once(self, path: str) -> str | None:
        """The text of ``path``, forgotten afterwards (the content match reads each
        candidate once and keeps only its shingles)."""
        if path in self._texts:
            return self._texts.pop(path)
        return self._read(path) if path in self._set else None

    def meta(self, path: str) -> dict[str, object]:
        """The front matter of ``path`` ({} when none or unreadable)."""
        if path not in self._meta:
            self._meta[path] = split_front_matter(self.text(path) or "")[0]
        return self._meta[path]


Convention = Callable[[Project, Tree], PageMap]


def _is_sorted(files: tuple[str, ...]) -> bool:
    return all(a <= b for a, b in itertools.pairwise(files))


def _skipped(relative: str) -> bool:
    parts = relative.split("/")
    return any(part.startswith(".") or part in _SKIPPED for part in parts)


def join(*parts: str) -> str:
    """POSIX join that drops empty parts and leading/trailing slashes ("" for none)."""
    return "/".join(part.strip("/") for part in parts if part.strip("/"))


def split_extension(path: str) -> tuple[str, str]:
    """``("a/b", ".md")`` for ``"a/b.md"``, the extension lower-cased."""
    stem, extension = posixpath.splitext(path)
    return stem, extension.lower()


def directory_page(route: str) -> str:
    """The file a route is built to in the directory style: "a/b" -> "a/b/index.html"."""
    return join(route, "index.html")


def file_page(route: str) -> str:
    """The file a route is built to in the file style: "a/b" -> "a/b.html" ("" -> index)."""
    return f"{route.strip('/')}.html" if route.strip("/") else "index.html"


def url_page(url: str, *, bare: Callable[[str], str] = directory_page) -> str:
    """The file a URL path from front matter or a permalink is built to: "/a/" ->
    "a/index.html", "/a.html" as is, "/a" by ``bare`` (the generator's choice)."""
    path = url.split("#", 1)[0].split("?", 1)[0]
    if not path.strip("/") or path.endswith("/"):
        return directory_page(path)
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if "." in last:
        return path.strip("/")
    return bare(path)


def add(pages: PageMap, page: str, *sources: str) -> None:
    """Map ``page`` to ``sources`` unless it is mapped already (the first source wins)."""
    pages.setdefault(page, tuple(sources))


def config_text(project: Project, tree: Tree) -> str:
    return tree.text(project.config) or ""


def read_settings(path: str, text: str) -> dict[str, object]:
    """A config file's settings by its extension: TOML, JSON or YAML ({} when unreadable)."""
    try:
        if path.endswith(".toml"):
            return {} if too_many_key_parts(text) else tomllib.loads(text)
        if path.endswith(".json"):
            value = json.loads(text)
            return value if isinstance(value, dict) else {}
    except (ValueError, RecursionError):  # TOMLDecodeError and JSONDecodeError are ValueErrors
        return {}
    return read_yaml(text)
