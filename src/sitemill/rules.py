"""Which paths are pages: include/exclude, the built-in excludes, and the first matching rule."""

from __future__ import annotations

from typing import Final

from sitemill.config.model import DEFAULT_INCLUDE, Config
from sitemill.config.rules import Rule
from sitemill.globs import compile_globs, matches_any
from sitemill.outputs import ROBOTS_TXT, is_own_name

_DEFAULT_INCLUDE_GLOBS: Final = compile_globs(DEFAULT_INCLUDE)
_BUILTIN_EXCLUDE_NAMES: Final = frozenset({"404.html", "404.htm"})


def is_candidate(config: Config, path: str) -> bool:
    """Include/exclude and the built-in excludes: dot-files and dot-directories, 404 pages,
    sitemill's own outputs, the IndexNow key file and robots.txt at the root (files of a tree
    or a bucket)."""
    if path.startswith(".") or "/." in path:
        return False
    if "/" not in path and (
        is_own_name(path) or path == ROBOTS_TXT or _is_key_file(path, config.indexnow_key)
    ):
        return False
    if path.rpartition("/")[2] in _BUILTIN_EXCLUDE_NAMES:
        return False
    if not matches_any(config.include or _DEFAULT_INCLUDE_GLOBS, path):
        return False
    return not matches_any(config.exclude, path)


def _is_key_file(path: str, key: str) -> bool:
    """Whether ``path`` is the IndexNow key file, ``<key>.txt`` (no string built per path)."""
    return (
        bool(key) and len(path) == len(key) + 4 and path.startswith(key) and path.endswith(".txt")
    )


def is_listed_url_path(config: Config, path: str) -> bool:
    """Include/exclude for a URL list's paths: only what the user gave, no built-in rules."""
    if config.include and not matches_any(config.include, path):
        return False
    return not matches_any(config.exclude, path)


def first_rule(config: Config, path: str) -> Rule | None:
    """The first ``[[rules]]`` table whose pattern matches ``path``: it alone applies."""
    return next((rule for rule in config.rules if rule.pattern.matches(path)), None)


def rule_values(rule: Rule | None) -> tuple[str | None, str | None]:
    """The changefreq and priority a rule sets for its pages (None where it sets none)."""
    if rule is None:
        return None, None
    return (None if rule.changefreq is None else rule.changefreq.value), rule.priority
