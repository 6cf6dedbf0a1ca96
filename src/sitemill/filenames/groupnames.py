"""A named group's children: what a group may be called, and which file names are a group's."""
# A group's pages go in children named for it (docs/output.md, Named groups). A name is refused
# when one of its children could be read as another name sitemill writes (digits alone, "index"
# first, a shard id, "next", digits last), so each file name says which group (or none) it belongs
# to. Such a name is sitemill's only for a group the configuration names or the state says
# sitemill wrote: a user's sitemap-news.xml is never taken for a group's.

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Final

MAX_GROUP_NAME: Final = 40
# One index names at most 50,000 children; a search console lists a few dozen sections.
MAX_GROUPS: Final = 100
GROUP_NAME: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SHARD_PART: Final = re.compile(r"r[a-z2-7]{8}")
_DIGITS: Final = re.compile(r"[0-9]+")
# What follows the group's name in its children: a further file, a shard (a further file of
# it, its version in a partitioned bucket), a staging copy (sitemill.filenames.outputs).
_TAIL: Final = (
    r"(?:-[1-9][0-9]*|-r[a-z2-7]{8}(?:-[a-z2-7]{8}|-[1-9][0-9]*)?)?"
    r"(?P<staging>-next(?:-(?P<stamp>[0-9]{14})-[0-9a-f]{6})?)?\.(?:xml|txt)(?:\.gz)?"
)
GROUP_CHILD: Final = re.compile(rf"sitemap-(?P<group>[a-z0-9-]+?){_TAIL}")


def group_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a group (None when it can)."""
    if not GROUP_NAME.fullmatch(name):
        return (
            "lower-case letters, digits and single hyphens, starting and ending with a "
            "letter or a digit"
        )
    if len(name) > MAX_GROUP_NAME:
        return f"at most {MAX_GROUP_NAME} characters"
    parts = name.split("-")
    if _DIGITS.fullmatch(name):
        return "digits alone name the default children (sitemap-1.xml, ...)"
    if parts[0] == "index":
        return "'index' first names further indexes (sitemap-index-2.xml, ...)"
    if _DIGITS.fullmatch(parts[-1]):
        return "digits last name a group's further files (sitemap-NAME-2.xml, ...)"
    if "next" in parts:
        return "'next' names staging copies (sitemap-N-next-....xml)"
    if any(_SHARD_PART.fullmatch(part) for part in parts):
        return "'r' and 8 letters or digits 2-7 between hyphens is a shard's id (sitemap-r<id>.xml)"
    return None


def child_group(name: str) -> str | None:
    """The group a file name is a child (or staging copy) of, by its shape alone; None when
    it has no group's shape."""
    found = GROUP_CHILD.fullmatch(name)
    if found is None:
        return None
    group = found["group"]
    return group if group_name_problem(group) is None else None


def is_group_child(name: str, groups: Collection[str], *, staging: bool = False) -> bool:
    """Whether ``name`` is a child (or a staging copy of one) of one of ``groups``; with
    ``staging``, a staging copy only."""
    if not groups:
        return False
    found = GROUP_CHILD.fullmatch(name)
    if found is None or (staging and found["staging"] is None):
        return False
    return found["group"] in groups and group_name_problem(found["group"]) is None


# A shard's child up to its id: sitemap-r<id>, sitemap-<group>-r<id>.
SHARD_STEM: Final = re.compile(r"sitemap-(?:[a-z0-9-]+?-)?r[a-z2-7]{8}")


def group_child_name(group: str, suffix: str, number: int, shard: str | None = None) -> str:
    """``sitemap-<group>.xml``, ``-2.xml`` and on; sharded ``sitemap-<group>-r<id>.xml``,
    ``-r<id>-2.xml`` and on (``suffix``: the output format's, ``.xml.gz``, ``.txt``)."""
    stem = f"sitemap-{group}" if shard is None else f"sitemap-{group}-{shard}"
    return f"{stem}{suffix}" if number == 1 else f"{stem}-{number}{suffix}"


def index_rank(groups: Sequence[str]) -> Callable[[str], int]:
    """Where a child goes in the index: the default children first (0), then each group's
    in the order of ``groups``, then those of any other group (a group since removed)."""
    rank = {group: number for number, group in enumerate(groups, start=1)}

    def of(name: str) -> int:
        group = child_group(name)
        return 0 if group is None else rank.get(group, len(rank) + 1)

    return of


def known_groups(config_groups: Iterable[str], remembered: Iterable[str]) -> frozenset[str]:
    """The groups whose children are sitemill's in a run: those the configuration names, and
    those whose children the state says sitemill wrote (a group removed since: its children
    go)."""
    found = (child_group(name) for name in remembered)
    return frozenset(config_groups) | {group for group in found if group is not None}
