"""The `[[redirects]]` of a netlify.toml, read as Netlify reads them after `_redirects`.

https://docs.netlify.com/routing/redirects/#syntax-for-the-netlify-configuration-file
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from sitemill.redirects._rules import RedirectRules
from sitemill.redirects.netlifyfile import (
    MAX_FILE_BYTES,
    NETLIFY,
    RuleReading,
    add_rule,
    forward_target,
)


def parse_netlify_toml(data: bytes) -> RedirectRules:
    """The redirects of a netlify.toml (its `[[redirects]]` tables, in order), bounded as a
    `_redirects` file is: `from`, `to`, `status` (301), `force`; a rule with a `query` or
    `conditions` never matches a plain path (ignored); a table of the wrong shape is invalid.
    A file that is no TOML, past MAX_FILE_BYTES or nested past what tomllib's recursion
    takes, gives no rules and one invalid."""
    reading = RuleReading()
    try:
        if len(data) > MAX_FILE_BYTES:
            raise ValueError("too big")
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # TOMLDecodeError: a ValueError
        reading.invalid += 1
        return reading.rules_read()
    tables = document.get("redirects", [])
    if not isinstance(tables, list):
        reading.invalid += 1
        return reading.rules_read()
    for order, table in enumerate(tables):
        _read_table(reading, order, table)
    return reading.rules_read()


def _read_table(reading: RuleReading, order: int, table: Any) -> None:
    if not isinstance(table, Mapping):
        reading.invalid += 1
        return
    # Netlify's parser still takes the old names: origin, destination, params, parameters.
    source = table.get("from", table.get("origin"))
    status = table.get("status", 301)
    target = table.get("to", table.get("destination"))
    if target is None and isinstance(source, str) and _is_status(status):
        target = forward_target(source, status)  # `from = "/a/*"`, status 200: to /a/:splat
    if not isinstance(source, str) or not isinstance(target, str) or not _is_status(status):
        reading.invalid += 1
        return
    query = table.get("query", table.get("params", table.get("parameters")))
    if query or table.get("conditions") or not source.startswith("/"):
        reading.ignored += 1
        return
    add_rule(reading, order, source, target, status, NETLIFY)


def _is_status(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599
