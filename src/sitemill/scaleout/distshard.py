"""The worker of a distributed rebuild (docs/distributed.md): one render item, its shards' keys."""
# docs/distributed.md, Render: the same pass as every other rebuild over the range's pages from
# its shards' last states, staging each part, each shard's state (conditional) and its summary;
# the reducer publishes. A canonical naming a page of another shard is decided by what that shard
# listed in the last build (sitemill.scaleout._membership): one build behind.

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from sitemill.config.model import ShardsMode
from sitemill.errors import NoPagesError, StateError
from sitemill.filenames.outputs import content_type
from sitemill.jobs.bucketpass import Listing, PassOptions
from sitemill.robots.rules import RobotsRules
from sitemill.scaleout._membership import PreviousMembership
from sitemill.scaleout._shardoutputs import found_by, shard_pass_config
from sitemill.scaleout._shardusers import users_from_json
from sitemill.scaleout._shardworker import pass_range
from sitemill.scaleout.distplan import DistributedRun
from sitemill.scaleout.runfiles import Item
from sitemill.shards.partition import Part, StateRef, Summary, summary_to_json
from sitemill.shards.plan import Plan, key_order, shard_id
from sitemill.sources.s3 import Inventory, list_range
from sitemill.state.partitioned import merged_states
from sitemill.state.shardstate import ShardState
from sitemill.state.start import Start
from sitemill.urlstyle import kept_style

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectTypeDef

ITEM_SUMMARY_FORMAT: Final = "sitemill-item-summary"
_COUNTS: Final = ("urls", "heads_read", "heads_reused", "skipped")
_STATE_THREADS: Final = 8


def range_listing(run: DistributedRun, item: Item) -> Iterable[ObjectTypeDef]:
    """The item's keys by one LIST of its range (``afters[0] < key <= last``)."""
    return list_range(run.client, run.site.bucket, run.site.root, item.afters[0], item.last)


@dataclass
class _Rendered:
    """What the passes of one item gave, summed."""

    others: PreviousMembership  # the other shards as the last build left them (cached)
    parts: list[Part] = field(default_factory=list)
    states: dict[str, StateRef] = field(default_factory=dict)  # shard id -> its new state
    found: dict[str, str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)


def item_objects(run: DistributedRun, item: Item) -> Iterable[ObjectTypeDef]:
    """An item's keys: a LIST of its range, or its group's rows (inventory mode)."""
    if item.group is None:
        return range_listing(run, item)
    from sitemill.scaleout.distshuffle import fragment_listing  # (inventory mode only)

    return fragment_listing(run, item)


def render_item(
    run: DistributedRun,
    item: Item,
    objects: Iterable[ObjectTypeDef],
    robots: RobotsRules | None,
) -> dict[str, Any]:
    """Render the item's shards from ``objects`` (its keys, in key order) and stage the
    result; return its summary (also written to the run's ``summaries/<shard>.json``).

    A group (inventory mode: no plan yet) is cut by the cut rule and rendered a shard at a
    time, so that a worker holds one shard's pages, not its group's: its first shard keeps
    the group's id, the others are its parts (as a split's)."""
    run.store.ensure_manifest()  # (the one the run started from, or the reducer refuses)
    rendered = _Rendered(others=PreviousMembership(run.config, run.store, lambda: _last_plan(run)))
    if item.group is None:
        _render_range(run, item, item.afters, item.last, objects, robots, rendered)
    else:
        _render_group(run, item, objects, robots, rendered)
    summaries = _summaries(item, rendered.parts, rendered.states, rendered.counts["skipped"])
    summary = {
        "format": ITEM_SUMMARY_FORMAT,
        "run": item.run,
        "summaries": [summary_to_json(each) for each in summaries],
        "found": rendered.found,
        "report": {key: rendered.counts[key] for key in _COUNTS},
    }
    run.files(item.run).put_json(f"summaries/{item.shard}.json", summary)
    return summary


def _render_range(
    run: DistributedRun,
    item: Item,
    afters: tuple[str, ...],
    last: str | None,
    objects: Iterable[ObjectTypeDef],
    robots: RobotsRules | None,
    rendered: _Rendered,
) -> None:
    """One pass over the shards from ``afters`` to ``last``: their parts staged, their
    states written, what they found added to ``rendered``."""
    # The whole site in one listed range: it may stay the single sitemap.xml (shards =
    # "auto"). (A group renders range after range: its first cannot know it is the only one.)
    whole = item.afters == ("",) and item.last is None and item.group is None
    single = run.config.shards is ShardsMode.AUTO and whole and not _names_users(run, item)
    with ThreadPoolExecutor(max_workers=_STATE_THREADS) as pool:
        before = list(pool.map(run.store.read_shard, (shard_id(a) for a in afters)))
    state, previous = merged_states(before)
    settled = kept_style(run.config, state)  # (auto: as the shards keep it, site-wide)
    rendered.others.config = settled
    config = shard_pass_config(run.config, run.outputs)
    start = Start(state.with_style_kept(), first_run=not any(before))
    try:
        done = pass_range(
            run, start, Listing(config, objects, Inventory()), afters, last,
            PassOptions(robots=robots, others=rendered.others), previous=previous, single=single,
        )  # fmt: skip
    except NoPagesError:  # (the first shard stays in the plan, with an empty state)
        if not afters[0]:
            rendered.states.update(_write_states(run, [ShardState("")]))
        return
    files, report = run.files(item.run), done.report
    for part in done.parts:  # (staged: the reducer copies the changed ones to the site)
        files.put("parts/" + part.name, done.data[part.name], content_type(part.name))
    rendered.states.update(_write_states(run, done.states))
    rendered.found.update(found_by(settled, run.outputs, state, done.remember))
    rendered.parts.extend(done.parts)
    rendered.counts.update(
        urls=report.result.url_count,
        heads_read=report.heads_read,
        heads_reused=report.heads_reused,
        skipped=sum(report.skipped.values()),
    )


def _render_group(
    run: DistributedRun,
    item: Item,
    rows: Iterable[ObjectTypeDef],
    robots: RobotsRules | None,
    rendered: _Rendered,
) -> None:
    """A group's shards, one pass each. A range that renders nothing (every page left out)
    joins the next range's shard, so the group's first file keeps the group's id."""
    from sitemill.scaleout.distshuffle import group_shards  # (inventory mode only)

    carry: list[ObjectTypeDef] = []
    carry_after: str | None = None
    for after, last, chunk in group_shards(run.config, run.site.root, item, rows):
        start = after if carry_after is None else carry_after
        carry.extend(chunk)
        count = len(rendered.parts)
        _render_range(run, item, (start,), last, carry, robots, rendered)
        carry, carry_after = ([], None) if len(rendered.parts) > count else (carry, start)


def _write_states(run: DistributedRun, states: list[ShardState]) -> dict[str, StateRef]:
    """The item's shard states, each put up as a new object (nothing trusts it before the
    reducer's manifest names it: a retried or superseded worker changes nothing)."""
    return run.store.write_states(states, run.store.manifest, _STATE_THREADS)


def _last_plan(run: DistributedRun) -> Plan | None:
    """The last build's plan, for the canonicals that name pages of other shards."""
    return run.store.manifest.plan


def _names_users(run: DistributedRun, item: Item) -> bool:
    """Whether the run's index names the user's sitemaps (its plan step decided: run.json),
    so that the whole site renders no single sitemap.xml."""
    value = run.files(item.run).get_run()
    return isinstance(value, dict) and bool(users_from_json(value.get("users")).index)


def _summaries(
    item: Item, parts: list[Part], states: dict[str, StateRef], skipped: int
) -> list[Summary]:
    """One summary per shard of the item, with the parts of its range (none: it emptied)
    and their states."""
    bounds = [key_order(after) for after in item.afters]
    by_shard: list[list[Part]] = [[] for _ in item.afters]
    for part in parts:
        by_shard[max(0, bisect_right(bounds, key_order(part.after)) - 1)].append(part)
    summaries: list[Summary] = []
    for index, (after, own) in enumerate(zip(item.afters, by_shard, strict=True)):
        shard = shard_id(after)
        if own and own[0].after != after:
            raise StateError(f"shard {shard} rendered no file of its own id")
        ids = [part.id for part in own] or ([shard] if shard in states else [])
        summaries.append(
            Summary(
                shard,
                tuple(own),
                skipped if index == 0 else 0,
                states={owner: states[owner] for owner in ids},
            )
        )
    return summaries
