"""``[[groups]]`` tables: a name and globs; a group's pages go in children named for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sitemill.config.globs import Glob, matches_any
from sitemill.config.names import did_you_mean
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
        return matches_any(self.include, path) and not matches_any(self.exclude, path)


_GROUP_KEYS: Final = frozenset({"name", "include", "exclude"})


def parse_groups(key: str, value: object) -> tuple[Group, ...]:
    if not isinstance(value, list):
        raise ConfigError(key, "must be an array of tables ([[groups]])")
    if len(value) > MAX_GROUPS:
        raise ConfigError(key, f"at most {MAX_GROUPS} groups")
    groups: list[Group] = []
    for number, table in enumerate(value, start=1):
        where = f"{key}[{number}]"
        if not isinstance(table, dict):
            raise ConfigError(where, "must be a table with name, include, exclude")
        unknown = sorted(set(table) - _GROUP_KEYS)
        if unknown:
            raise ConfigError(
                f"{where}.{unknown[0]}", "unknown key" + did_you_mean(unknown[0], _GROUP_KEYS)
            )
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
    return tuple(group.name for group in groups)
