"""Arrays of tables in sitemill.toml (``[[rules]]``, ``[[groups]]``): each a table of known keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sitemill.config.names import did_you_mean
from sitemill.errors import ConfigError


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
