"""``[[groups]]`` tables: a name and globs; a group's pages go in children named for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sitemill.config.globs import Glob, matches_any
from sitemill.config.tables import config_tables
from sitemill.config.values import parse_globs
from sitemill.errors import ConfigError
from sitemill.filenames.groupnames import MAX_GROUPS, group_name_problem


@dataclass(frozen=True, slots=True)
class Group:
    """One ``[[groups]]`` table: the first group whose ``include`` matches a page and whose
    ``exclude`` does not takes it."""

    name: str
    include: tuple[Glob, ...]
    exclude: tuple[Glob, ...] = ()

    def matches(self, path: str) -> bool:
        """Whether this group takes the page at ``path``."""
        return matches_any(self.include, path) and not matches_any(self.exclude, path)


_GROUP_KEYS: Final = frozenset({"name", "include", "exclude"})


def parse_groups(key: str, value: object) -> tuple[Group, ...]:
    """The ``[[groups]]`` array ``value`` as groups, in order; a ConfigError naming the key."""
    if isinstance(value, list) and len(value) > MAX_GROUPS:
        raise ConfigError(key, f"at most {MAX_GROUPS} groups")
    groups: list[Group] = []
    for where, table in config_tables(key, value, _GROUP_KEYS, fields="name, include, exclude"):
        name = _name(f"{where}.name", table.get("name"), groups)
        if "include" not in table:
            raise ConfigError(f"{where}.include", "is required")
        include = parse_globs(f"{where}.include", table["include"])
        if not include:
            raise ConfigError(f"{where}.include", "is empty")
        exclude = parse_globs(f"{where}.exclude", table.get("exclude", []))
        groups.append(Group(name, include, exclude))
    return tuple(groups)


def _name(key: str, value: object, earlier: Sequence[Group]) -> str:
    if value is None:
        raise ConfigError(key, "is required")
    if not isinstance(value, str):
        raise ConfigError(key, f"{value!r} is not a string")
    problem = group_name_problem(value)
    if problem is not None:
        raise ConfigError(key, f"{value!r}: {problem}")
    if any(group.name == value for group in earlier):
        raise ConfigError(key, f"{value!r} names an earlier group too; names are unique")
    return value


def group_of(groups: Sequence[Group], path: str) -> int:
    """The index of the first group that takes ``path``; ``len(groups)`` for none (the
    default children)."""
    for index, group in enumerate(groups):
        if group.matches(path):
            return index
    return len(groups)


def group_names(groups: Sequence[Group]) -> tuple[str, ...]:
    """The groups' names, in the configuration's order."""
    return tuple(group.name for group in groups)
