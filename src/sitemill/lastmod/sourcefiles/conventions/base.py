"""What every generator convention works from: the project, the repository's files, the page map."""

from __future__ import annotations

import bisect
import itertools
import json
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from sitemill.config.file import too_many_key_parts
from sitemill.lastmod.sourcefiles._frontmatter import split_front_matter
from sitemill.lastmod.sourcefiles._yamlish import read_yaml

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


@dataclass(frozen=True, slots=True)
class RepoView:
    """What rung 2 sees of the repository, at HEAD, as the source map reads it (nothing of it
    runs).

    ``files``: every file tracked at HEAD, repo-relative POSIX paths, sorted.
    ``read_text``: a HEAD file's text (bounded, UTF-8), None where it cannot be read.
    """

    files: tuple[str, ...]
    read_text: Callable[[str], str | None]


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
            if path.startswith(self._site) or _is_skipped(relative):
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

    def settings(self, path: str) -> dict[str, object]:
        """The settings of the config file at ``path`` (parse_settings: {} when unreadable)."""
        return parse_settings(path, self.text(path) or "")

    def meta(self, path: str) -> dict[str, object]:
        """The front matter of ``path`` ({} when none or unreadable)."""
        if path not in self._meta:
            self._meta[path] = split_front_matter(self.text(path) or "")[0]
        return self._meta[path]


class Pages(dict[str, tuple[str, ...]]):
    """A built page (site-relative path, "guide/install/index.html") -> the source file(s)
    it was rendered from (repo-relative paths)."""

    def add(self, page: str, *sources: str) -> None:
        """Map ``page`` to ``sources`` unless it is mapped already (the first source wins)."""
        self.setdefault(page, tuple(sources))


Convention = Callable[[Project, Tree], Pages]


def _is_sorted(files: tuple[str, ...]) -> bool:
    return all(a <= b for a, b in itertools.pairwise(files))


def _is_skipped(relative: str) -> bool:
    parts = relative.split("/")
    return any(part.startswith(".") or part in _SKIPPED for part in parts)


def parse_settings(path: str, text: str) -> dict[str, object]:
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
