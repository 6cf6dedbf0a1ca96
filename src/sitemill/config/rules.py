"""``[[rules]]`` tables: per path pattern, changefreq and priority, or exclude."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sitemill.config.globs import Glob
from sitemill.config.tables import config_tables
from sitemill.config.values import parse_bool, parse_enum, parse_globs, parse_priority
from sitemill.errors import ConfigError
from sitemill.protocol import ChangeFreq


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
