"""Arrays of tables in sitemill.toml (``[[rules]]``, ``[[groups]]``): each a table of known keys."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sitemill.config.globs import Glob, matches_any
from sitemill.config.names import did_you_mean
from sitemill.config.values import parse_bool, parse_enum, parse_globs, parse_priority
from sitemill.errors import ConfigError
from sitemill.filenames.groupnames import MAX_GROUPS, group_name_problem
from sitemill.protocol import ChangeFreq


def config_tables(
    key: str, value: object, keys: frozenset[str], *, fields: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each table of the array ``value`` with where it is (``rules[2]``), checked to be a table
    of ``keys`` alone (a ConfigError naming the key, with a likely spelling); ``fields``: how
    the error lists what a table holds."""
    if not isinstance(value, list):
        raise ConfigError(key, f"must be an array of tables ([[{key}]])")
    for number, table in enumerate(value, start=1):
        where = f"{key}[{number}]"
        if not isinstance(table, dict):
            raise ConfigError(where, f"must be a table with {fields}")
        unknown = sorted(set(table) - keys)
        if unknown:
            raise ConfigError(
                f"{where}.{unknown[0]}", "unknown key" + did_you_mean(unknown[0], keys)
            )
        yield where, table


# ``[[rules]]`` tables: per path pattern, changefreq and priority, or exclude.
@dataclass(frozen=True, slots=True)
class Rule:
    """One ``[[rules]]`` table: the first rule whose pattern matches a page applies."""

    pattern: Glob
    changefreq: ChangeFreq | None = None
    priority: str | None = None  # formatted, e.g. "0.8"
    exclude: bool = False


_RULE_KEYS: Final = frozenset({"pattern", "changefreq", "priority", "exclude"})


def parse_rules(key: str, value: object) -> tuple[Rule, ...]:
    rules = []
    fields = "pattern, changefreq, priority, exclude"
    for where, table in config_tables(key, value, _RULE_KEYS, fields=fields):
        if "pattern" not in table:
            raise ConfigError(f"{where}.pattern", "is required")
        (pattern,) = parse_globs(f"{where}.pattern", [table["pattern"]]) or (None,)
        if pattern is None:
            raise ConfigError(f"{where}.pattern", "is empty")
        changefreq = table.get("changefreq")
        priority = table.get("priority")
        rules.append(
            Rule(
                pattern=pattern,
                changefreq=None
                if changefreq is None
                else parse_enum(ChangeFreq)(f"{where}.changefreq", changefreq),
                priority=None
                if priority is None
                else parse_priority(f"{where}.priority", priority),
                exclude=parse_bool(f"{where}.exclude", table.get("exclude", False)),
            )
        )
    return tuple(rules)


# ``[[groups]]`` tables: a name and globs; a group's pages go in children named for it.
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
