"""The first step of a distributed rebuild (docs/distributed.md, Plan): decide what to render."""
# Decide what to render and write it down for the state machine (docs/distributed.md, Plan): a
# bucket with no plan gets one from an S3 Inventory report when one is configured, else the
# canonical plan of one streamed LIST.

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from sitemill.config.model import Config
from sitemill.entries import Entry, Page
from sitemill.errors import ConfigError, InventoryError
from sitemill.rules import is_candidate
from sitemill.scaleout import ShardedRun
from sitemill.scaleout._membership import not_distributable
from sitemill.scaleout._shardusers import full_users, users_to_json
from sitemill.scaleout.runfiles import Item, RunFiles, item_to_json
from sitemill.scaleout.shardcommit import head_live
from sitemill.scaleout.shardinputs import bucket_robots, inputs_fingerprint
from sitemill.shards.cuts import canonical_plan
from sitemill.shards.evolve import plan_to_json
from sitemill.shards.layout import weight
from sitemill.shards.plan import Order, Plan
from sitemill.sources.s3 import Inventory, bucket_pages, list_objects
from sitemill.urls import UrlStyle, page_url

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

RUN_FORMAT: Final = "sitemill-run"
MODES: Final = ("full", "shards")


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What a run was asked for: the execution input (docs/distributed.md, When it runs), and its
    name."""

    run: str
    bucket: str
    prefix: str
    mode: str = "full"
    shards: tuple[str, ...] = ()

    @classmethod
    def read(cls, value: object, run: str) -> RunRequest:
        """The execution input ``{"bucket", "prefix", "mode", "shards"}``, checked."""
        if not isinstance(value, dict):
            raise ConfigError("input", "the execution input is not a JSON object")
        bucket, prefix = value.get("bucket"), value.get("prefix", "")
        mode, shards = value.get("mode", "full"), value.get("shards", [])
        if not isinstance(bucket, str) or not bucket:
            raise ConfigError("bucket", 'the execution input names no "bucket"')
        if not isinstance(prefix, str):
            raise ConfigError("prefix", '"prefix" is not a string')
        if mode not in MODES:
            raise ConfigError("mode", f'"mode" is {mode!r}, not "full" or "shards"')
        if not isinstance(shards, list) or not all(isinstance(s, str) for s in shards):
            raise ConfigError("shards", '"shards" is not a list of shard ids')
        if mode == "shards" and not shards:
            raise ConfigError("shards", 'mode "shards" names no shard')
        return cls(run, bucket, prefix, mode, tuple(shards))


@dataclass(frozen=True, slots=True)
class DistributedRun(ShardedRun):
    """A distributed rebuild's run (ShardedRun: the site, its partitioned state, the client,
    what the front end asked), with the bucket its run files go to, at what time."""

    state_bucket: str
    now: datetime = field(default_factory=lambda: datetime.now(UTC))

    def files(self, run: str) -> RunFiles:
        return RunFiles(self.client, self.state_bucket, self.store.prefix, run)


# A planner given an inventory location: (run, files) -> render items, or None to LIST.
InventoryPlanner = Callable[["DistributedRun", RunFiles], "Sequence[Item] | None"]


def plan_run(
    run: DistributedRun, request: RunRequest, inventory: InventoryPlanner | None = None
) -> dict[str, Any]:
    """Write the run's files; return the state machine's next input (infra/rebuild.asl.json)."""
    config, store = run.config, run.store
    why = not_distributable(config, run.outputs)
    if why is not None:
        raise ConfigError("shards", f"a distributed rebuild cannot run here: {why}")
    files = run.files(request.run)
    inputs = inputs_fingerprint(config, bucket_robots(config, run.client, run.site)[0])
    live = head_live(run.client, run.site)  # (first, then the manifest: shardcommit.go_live)
    base = store.read_manifest()
    store.say_move()  # (in the plan step's log: a distributed run's summary has no warnings)
    plan = base.plan
    # The files the manifest names are live, so a run that renders some shards may keep the
    # others' (a full run puts up every file the bucket does not hold).
    current = store.trusted and not base.legacy and live.digest == base.digest
    mode = request.mode
    if mode == "shards" and (plan is None or not current or base.inputs != inputs):
        log.info("rendering every shard: no plan yet, its inputs changed, or it is not live")
        mode = "full"
    users = full_users(run, base, live)  # (for every step: run.json)
    items: Sequence[Item] | None = None
    if plan is None and inventory is not None:
        try:
            items = inventory(run, files)
        except InventoryError as exc:
            log.warning("%s; listing the bucket instead", exc)
    source = "list" if items is None else "inventory"
    if items is None:
        plan = plan or _listed_plan(run)
        items = _items(request, plan, mode)
    manifest = {
        "format": RUN_FORMAT,
        "mode": mode,
        "source": source,
        "plan": None if plan is None else plan_to_json(plan),
        "inputs": inputs,
        # The manifest the run starts from: the reducer commits only over this version.
        "base": store.etag,
        "current": current,
        "started": run.now.astimezone(UTC).replace(microsecond=0).isoformat(),
        "items": len(items),
        "users": users_to_json(users),
    }
    files.put_json("run.json", manifest)
    files.put_json("shards.json", [item_to_json(item) for item in items])
    log.info("run %s: %d items (%s, %s)", request.run, len(items), mode, source)
    return {
        "run": request.run,
        "state_bucket": run.state_bucket,
        "shards_key": files.shards_key,
        "inventory": None if source == "list" else {"items_key": files.key("inventory.json")},
        "shards": len(items),
    }


def _items(request: RunRequest, plan: Plan, mode: str) -> list[Item]:
    """One item per shard of ``plan`` (mode "shards": those asked for, known to the plan)."""
    wanted = set(request.shards) if mode == "shards" else None
    if wanted is not None and not wanted <= set(plan.ids):
        unknown = sorted(wanted - set(plan.ids))
        raise ConfigError(
            "shards", f"shard {unknown[0]} is not in the plan ({len(unknown)} in all)"
        )
    items: list[Item] = []
    for index, shard in enumerate(plan.ids):
        if wanted is None or shard in wanted:
            after, last = plan.bounds(index)
            items.append(Item(request.run, (after,), last))
    return items


def _listed_plan(run: DistributedRun) -> Plan:
    """The canonical plan of the bucket's listing (one streamed LIST: memory stays flat).
    A shard that renders more than it may is split by its worker."""
    config = run.config
    objects = list_objects(run.client, run.site.bucket, run.site.root)
    return canonical_plan(
        page_weights(config, bucket_pages(config, objects, run.site.root, Inventory())),
        fill=config.shard_fill,
        max_bytes=config.max_bytes,
        clean=config.url_style is UrlStyle.CLEAN,
        order=Order.KEYS,
    )


def page_weights(config: Config, pages: Iterable[Page]) -> Iterator[tuple[str, int]]:
    """(key, estimated bytes) of every candidate page, in key order: what the cut rule
    counts (sitemill.shards.cuts)."""
    for page in pages:
        if is_candidate(config, page.path):
            loc = page_url(config.base_url, page.path, config.url_style)
            yield page.path, weight(Entry(loc, page.lastmod))
