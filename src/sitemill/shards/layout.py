"""Sharded output: entries rendered shard by shard, each shard a file under its stable name."""
# Pure: the entries (each with the key its source found it at), the last plan (None: the canonical
# plan of these keys) and a render function in; the plan this build leaves and the files, in the
# plan's order, out. A shard that no longer fits one file is split by the cut rule (its first part
# keeps its id; no other shard is renamed) and rendered again; an emptied shard leaves the plan, its
# range going to its left neighbour. Rendering the same entries with the plan a build left gives
# that plan and the same files again (a fixed point), so an incremental build and a full rebuild
# with the same plan write the same bytes.

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from sitemill.entries import Entry, RenderedSitemap
from sitemill.errors import SitemillError
from sitemill.shards.cuts import CutRule, canonical_plan
from sitemill.shards.evolve import drop_empty, split
from sitemill.shards.plan import ORDER_KEY, Order, Plan, shard_id

RenderShardFiles = Callable[[Iterator[Entry]], list[RenderedSitemap]]

# What a <url> costs besides its values: <url><loc></loc><lastmod></lastmod></url> and so on.
_ENTRY_BYTES: Final = 64
_ITEM_BYTES: Final = 64  # an <image:image> or <xhtml:link> besides its values
# Splits in one build: each round splits every shard that did not fit, into parts of fewer
# entries than it holds, so a few rounds always end (a shard of one family cannot be cut).
_MAX_ROUNDS: Final = 16


@dataclass(frozen=True, slots=True)
class ShardSetup:
    """What a job that may write shards tells the writer: the order its keys sort in, the
    plan its last build left (None: none yet), and the list the pass fills with every
    candidate key it sees, in order: the raw keys the cut rule cuts among (never between two
    keys of one URL: a key that gives no URL, a duplicate's, still keeps its family together)."""

    order: Order
    plan: Plan | None = None
    keys: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ShardFile:
    """One file of a shard: its stable id, its boundary and what was rendered. A shard that
    no cut can split (more keys than a file holds between two of one URL's, ``x.htm`` and
    ``x.html``) keeps several files, ``number`` 2, 3... after its first (of its kind)."""

    shard: str
    after: str
    sitemap: RenderedSitemap
    number: int = 1
    kind: int = 0  # with kinds (named groups): what ``kinds`` gave its entries


def sorted_entries(entries: Iterable[Entry], order: Order) -> list[Entry]:
    """The entries in the plan's order (a tree's walk, S3 key order), which is how shards
    hold them; an entry without a key (a URL list's) cannot be sharded."""
    listed = list(entries)
    if any(entry.key is None for entry in listed):
        raise SitemillError("sharded sitemaps need each page's key; a URL list is never sharded")
    sort_key = ORDER_KEY[order]
    listed.sort(key=lambda entry: sort_key(entry.key or ""))
    return listed


def weight(entry: Entry) -> int:
    """An estimate of the bytes an entry renders to, for the cut rule's byte fill."""
    size = _ENTRY_BYTES + len(entry.loc) + len(entry.lastmod or "")
    size += sum(_ITEM_BYTES + len(image.loc) for image in entry.images)
    size += sum(_ITEM_BYTES + len(link.href) for link in entry.alternates)
    return size


def render_shards(
    entries: list[Entry],
    plan: Plan | None,
    render: RenderShardFiles,
    rule: CutRule,
    *,
    keys: list[str] | None = None,
    kinds: Callable[[Entry], int] | None = None,
) -> tuple[Plan, list[ShardFile]]:
    """Render ``entries`` (sorted_entries) shard by shard, cut by ``rule``: the plan as this
    build leaves it and the files of each shard that holds entries, in the plan's order.
    ``keys``: every candidate key in order (ShardSetup.keys), which the cuts fall among
    (default: the entries' own). ``kinds``: each entry's kind (a named group's number, 0 for
    none): a shard's entries of each kind are rendered apart, kind by kind (the plan is the one
    plan of every entry: a kind's entries are a part of the shard's)."""
    cuts = _Cuts(entries, keys, rule)
    if plan is None or plan.order is not rule.order:
        plan = cuts.canonical()
    # A shard's files by (boundary, its sorted entries' span): a round after a split renders
    # only the parts that changed, not every shard again.
    done: dict[tuple[str, int, str, str], list[tuple[int, list[RenderedSitemap]]]] = {}

    def _rendered(after: str, group: list[Entry]) -> list[tuple[int, list[RenderedSitemap]]]:
        if not group:
            return []
        key = (after, len(group), group[0].key or "", group[-1].key or "")
        if key not in done:
            done[key] = _render_kinds(group, render, kinds)
        return done[key]

    for _ in range(_MAX_ROUNDS):
        groups = _groups(entries, plan)
        if any(not group for group in groups[1:]):
            plan = drop_empty(plan, {index: len(group) for index, group in enumerate(groups)})
            continue
        rendered = [
            _rendered(after, group) for after, group in zip(plan.afters, groups, strict=True)
        ]
        files = [max((len(sitemaps) for _, sitemaps in parts), default=0) for parts in rendered]
        grown = [
            index
            for index, count in enumerate(files)
            if count > 1 and plan.afters[index] not in cuts.whole
        ]
        if not grown:
            return plan, [
                ShardFile(shard_id(after), after, sitemap, number, kind)
                for after, parts in zip(plan.afters, rendered, strict=True)
                for kind, sitemaps in parts
                for number, sitemap in enumerate(sitemaps, start=1)
            ]
        for index in reversed(grown):  # (splitting on the right keeps the left's indexes)
            plan = cuts.split(plan, index, len(groups[index]), files[index])
    raise SitemillError(f"a shard does not fit one sitemap after {_MAX_ROUNDS} splits")


def _render_kinds(
    entries: list[Entry], render: RenderShardFiles, kinds: Callable[[Entry], int] | None
) -> list[tuple[int, list[RenderedSitemap]]]:
    """A shard's files, per kind of its entries (in the kinds' order; one kind, 0, without
    ``kinds``)."""
    if kinds is None:
        return [(0, render(iter(entries)))]
    parts: dict[int, list[Entry]] = {}
    for entry in entries:
        parts.setdefault(kinds(entry), []).append(entry)
    return [(kind, render(iter(parts[kind]))) for kind in sorted(parts)]


def _groups(entries: list[Entry], plan: Plan) -> list[list[Entry]]:
    """The sorted entries cut at the plan's boundaries: one list per shard."""
    sort_key = ORDER_KEY[plan.order]
    bounds = [sort_key(after) for after in plan.afters[1:]]
    groups: list[list[Entry]] = [[] for _ in plan.afters]
    index = 0
    for entry in entries:
        key = sort_key(entry.key or "")
        while index < len(bounds) and key > bounds[index]:
            index += 1
        groups[index].append(entry)
    return groups


class _Cuts:
    """Where cuts fall: among the raw keys in order, each with its entry's estimated bytes
    and one URL, or none (a key that gives no URL)."""

    def __init__(self, entries: list[Entry], keys: list[str] | None, rule: CutRule) -> None:
        self.weights = {entry.key or "": weight(entry) for entry in entries}
        self.order, self.sort_key = rule.order, ORDER_KEY[rule.order]
        # (a source lists in its own order: a tree's walk need not be the plan's)
        self.keys = sorted(keys, key=self.sort_key) if keys else [e.key or "" for e in entries]
        self.fill, self.max_bytes, self.clean = rule.fill, rule.max_bytes, rule.clean
        self.split_once: set[str] = set()  # shards split in this build already
        self.whole: set[str] = set()  # shards no cut can split: they keep several files

    def canonical(self) -> Plan:
        return canonical_plan(
            self.between("", None),
            fill=self.fill,
            max_bytes=self.max_bytes,
            clean=self.clean,
            order=self.order,
        )

    def split(self, plan: Plan, index: int, entries: int, files: int) -> Plan:
        """Shard ``index`` (``entries`` rendered to ``files``) cut into parts: shard_fill-sized;
        a part that still does not fit (its entries are larger than the estimate) is cut again
        a little smaller than the renderer's own split. No cut at all: it stays whole."""
        after, last = plan.bounds(index)
        again = after in self.split_once
        self.split_once.add(after)
        part = max(1, math.floor(entries / files * 0.9)) if again else self.fill
        items = self.between(after, last)
        wider = split(plan, index, items, fill=part, max_bytes=self.max_bytes, clean=self.clean)
        if wider == plan:
            self.whole.add(after)  # every gap lies inside one URL's family
        return wider

    def between(self, after: str, last: str | None) -> Iterator[tuple[str, int, int]]:
        """The items of the keys ``after < key <= last`` (a shard's range; the whole: "")."""
        sort_key, weights = self.sort_key, self.weights
        start = bisect_right(self.keys, sort_key(after), key=sort_key) if after else 0
        bound = None if last is None else sort_key(last)
        for key in self.keys[start:]:
            if bound is not None and sort_key(key) > bound:
                return
            known = weights.get(key)
            yield (key, 0, 0) if known is None else (key, known, 1)
