"""Which named group an entry is in: its kind, 0 for none (docs/output.md, Named groups)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import unquote

from sitemill.config.model import Config
from sitemill.config.tables import Group, group_of
from sitemill.entries import Entry


def kind_of(config: Config) -> Callable[[Entry], int]:
    """An entry's kind: 0 for the default children, ``n`` for the n-th group. A group's globs
    match the page's path in the tree or the bucket; a URL list's URL path below base_url."""
    groups, base, count = config.groups, config.base_url, len(config.groups)

    def kind(entry: Entry) -> int:
        path = entry.key
        if path is None:
            path = unquote(entry.loc[len(base) :].partition("?")[0].partition("#")[0])
        return (group_of(groups, path) + 1) % (count + 1)

    return kind


def kind_name(groups: Sequence[Group], kind: int) -> str | None:
    """The group of a kind (None: the default children)."""
    return None if kind == 0 else groups[kind - 1].name
