"""The cost and wall-clock calculator of a distributed rebuild (docs/distributed.md), fed by the
per-worker rates distributed_bench.py measured. No AWS run is behind these figures: every
input that is not measured here is an assumption, named in ASSUMPTIONS with its source.

Three runs are priced per bucket size: the first build from parallel range LISTs (every
page's head read), the first build from an S3 Inventory report (a day old; its shuffle), and
a full rebuild once a plan and states exist (heads read again only for the 1 % of pages whose
ETag changed). Every object is taken to be an HTML page (the worst case: every key a URL and
a head read).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

# Prices: us-east-1, as listed on the AWS pricing pages in November 2026 (arm64 Lambda).
LAMBDA_GB_SECOND: Final = 0.0000133334
LAMBDA_REQUEST: Final = 0.20 / 1_000_000
STATE_TRANSITION: Final = 0.025 / 1_000  # Standard workflows
S3_GET: Final = 0.0004 / 1_000
S3_PUT: Final = 0.005 / 1_000  # PUT, COPY, LIST
INVENTORY_PER_OBJECT: Final = 0.0025 / 1_000_000

ASSUMPTIONS: Final = (
    "every object an HTML page; 40,000 URLs a shard (shard_fill)",
    "workers: 1,024 MB (ShardMemorySize), MaxConcurrency 1,000, arm64",
    "S3: 20 ms a GET's first byte, 32 head reads at a time a worker, 50 ms a LIST page",
    "a rebuild reads 1 % of heads again (changed ETags); a first build reads all",
    "inventory data files of 1,000,000 rows; groups of 400,000 rows",
    "Step Functions: 4 transitions a Map child, 10 for the run",
    "a worker's CPU: the rates measured above (render without head reads, + 0.1 ms a head)",
    "prices: us-east-1, November 2026",
)
SHARD: Final = 40_000
CONCURRENCY: Final = 1_000
MEMORY_GB: Final = 1.0
GET_S, LIST_PAGE_S, READERS = 0.020, 0.050, 32
HEAD_CPU_S: Final = 0.0001
CHANGED: Final = 0.01
FILE_ROWS, GROUP_ROWS = 1_000_000, 400_000


@dataclass(frozen=True)
class Rates:
    """What distributed_bench measured, per worker."""

    render_urls_s: float  # URLs a render worker renders a second (no head reads)
    shuffle_rows_s: float  # rows a shuffle worker routes a second
    sample_rows_s: float  # rows the planner samples a second


@dataclass(frozen=True)
class Estimate:
    run: str
    objects: int
    shards: int
    wall_s: float
    dollars: float
    note: str = ""


def _shard_seconds(rates: Rates, heads: int) -> float:
    lists = math.ceil(SHARD / 1_000) * LIST_PAGE_S
    return lists + SHARD / rates.render_urls_s + heads * (GET_S / READERS + HEAD_CPU_S)


def _dollars(worker_s: float, invocations: int, gets: int, puts: int, items: int) -> float:
    compute = worker_s * MEMORY_GB * LAMBDA_GB_SECOND + invocations * LAMBDA_REQUEST
    requests = gets * S3_GET + puts * S3_PUT
    return compute + requests + (4 * items + 10) * STATE_TRANSITION


def _waves(items: int) -> int:
    return math.ceil(items / CONCURRENCY)


def listed(rates: Rates, objects: int, *, first: bool) -> Estimate:
    """A full rebuild from range LISTs: one render item a shard."""
    shards = math.ceil(objects / SHARD)
    heads = SHARD if first else round(SHARD * CHANGED)
    per_shard = _shard_seconds(rates, heads)
    plan_s = objects / 1_000 * LIST_PAGE_S if first else 1.0  # (no plan: one streamed LIST)
    reduce_s = shards * 2 * 0.030 / 16 + 2
    wall = plan_s + _waves(shards) * per_shard + reduce_s
    gets = shards * (heads + 2) + objects // 1_000 * first
    puts = shards * (math.ceil(SHARD / 1_000) + 4) + shards  # LISTs, part, state, summary, copy
    dollars = _dollars(shards * per_shard + plan_s + reduce_s, shards + 2, gets, puts, shards)
    note = "the plan's one LIST outlasts a function (15 min)" if plan_s > 900 else ""
    return Estimate("LIST, first build" if first else "LIST, rebuild", objects, shards, wall,
                    dollars, note)  # fmt: skip


def from_inventory(rates: Rates, objects: int) -> Estimate:
    """A first build from an S3 Inventory report: the planner's sample, the shuffle, groups."""
    shards = math.ceil(objects / SHARD)
    files, groups = math.ceil(objects / FILE_ROWS), math.ceil(objects / GROUP_ROWS)
    plan_s = objects / rates.sample_rows_s
    shuffle_s = FILE_ROWS / rates.shuffle_rows_s
    group_shards = math.ceil(GROUP_ROWS / SHARD)
    render_s = group_shards * _shard_seconds(rates, SHARD)
    wall = plan_s + _waves(files) * shuffle_s + _waves(groups) * render_s + 5
    worker_s = plan_s + files * shuffle_s + groups * render_s
    fragments = files * groups
    gets = objects + 2 * files + fragments + shards
    puts = fragments + shards * 4
    dollars = _dollars(worker_s, files + groups + 2, gets, puts, files + groups)
    dollars += objects * INVENTORY_PER_OBJECT
    note = "the plan's sample outlasts a function (15 min)" if plan_s > 900 else ""
    return Estimate("Inventory, first build", objects, shards, wall, dollars, note)


def estimates(rates: Rates) -> list[Estimate]:
    rows = []
    for objects in (1_000_000, 10_000_000, 100_000_000):
        rows.append(listed(rates, objects, first=True))
        rows.append(from_inventory(rates, objects))
        rows.append(listed(rates, objects, first=False))
    return rows


def table(rates: Rates) -> list[str]:
    """The calculator's lines, for `make bench`."""
    lines = [f"  {'objects':>12} {'run':<24} {'shards':>7} {'wall':>9} {'cost':>9}"]
    for row in estimates(rates):
        wall = f"{row.wall_s / 60:.1f} min" if row.wall_s >= 90 else f"{row.wall_s:.0f} s"
        lines.append(
            f"  {row.objects:>12,} {row.run:<24} {row.shards:>7,} {wall:>9} "
            f"{'$' + format(row.dollars, '.2f'):>9}  {row.note}"
        )
    lines.append("  assumptions: " + "; ".join(ASSUMPTIONS))
    return lines
