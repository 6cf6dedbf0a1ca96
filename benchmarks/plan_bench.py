"""`make bench` section plan-100m: the shard plan of 100,000,000 keys, streamed.

Run as a child process (`python benchmarks/plan_bench.py N`) so that its peak RSS is the plan's
own: N synthetic keys in sorted order (sections of 50,000 pages) go through the cut rule once,
holding nothing but the boundaries; then the shards a change touches are counted: 10 scattered
edits, one new 50,000-page section (which splits the one shard it lands in), and a re-rendered
section holding 10 % of the keys. Prints one JSON line.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness import run_child

SECTION = 50_000
WEIGHT = 120  # estimated bytes of one <url> entry
MAX_BYTES = 10_485_760
MB = 1_000_000


def key(section: int, page: int) -> str:
    return f"docs/section-{section:05d}/page-{page:05d}.html"


def keys(count: int) -> Iterator[tuple[str, int]]:
    for number in range(count):
        yield key(number // SECTION, number % SECTION), WEIGHT


def simulate(count: int) -> dict[str, Any]:
    from sitemill.shards.cuts import canonical_plan
    from sitemill.shards.evolve import outgrows, split
    from sitemill.shards.plan import Order

    started = time.perf_counter()
    plan = canonical_plan(keys(count), max_bytes=MAX_BYTES, clean=False, order=Order.KEYS)
    planned = time.perf_counter() - started

    sections = count // SECTION
    rng = random.Random(7)
    edits = {plan.shard_of(key(rng.randrange(sections), rng.randrange(SECTION))) for _ in range(10)}

    # A new section between two existing ones: it lands in one shard, which outgrows a sitemap
    # and is split; its first part keeps its id, no other shard is renamed.
    middle = sections // 2
    added = [f"docs/section-{middle:05d}a/page-{page:05d}.html" for page in range(SECTION)]
    landed = {plan.shard_of(name) for name in added}
    target = landed.pop()
    after, last = plan.bounds(target)
    old = [
        name
        for section in range(middle - 1, middle + 2)
        for page in range(SECTION)
        if after < (name := key(section, page)) and (last is None or name <= last)
    ]
    members = sorted([*old, *added])
    grown = outgrows(len(members), len(members) * WEIGHT, max_bytes=MAX_BYTES)
    bigger = split(
        plan, target, [(name, WEIGHT) for name in members], max_bytes=MAX_BYTES, clean=False
    )
    renamed = set(plan.ids) - set(bigger.ids)

    first, final = key(0, 0), key(sections // 10 - 1, SECTION - 1)  # the first 10 % of keys
    rerendered = plan.shard_of(final) - plan.shard_of(first) + 1
    return {
        "keys": count,
        "shards": len(plan.afters),
        "plan_s": planned,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "edits_shards": len(edits),
        "section_landed_in": 1 + len(landed),
        "section_grown": grown,
        "section_children": len(bigger.afters) - len(plan.afters) + 1,
        "renamed": len(renamed),
        "rerendered_shards": rerendered,
    }


def bench_plan(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the plan's time, memory and shards touched."""
    count = 10_000_000 if quick else 100_000_000
    result = run_child(section, Path(__file__), count, label="plan")
    if result is None:
        return
    rss = result["peak_rss_bytes"] / MB
    total = result["shards"]
    section.check(
        f"{count:,} keys: plan",
        "(see)",
        f"{total:,} shards in {result['plan_s']:.0f} s "
        f"({result['plan_s'] / count * 1e6:.2f} µs a key)",
        True,
    )
    section.check(f"{count:,} keys: peak RSS", "≤ 64 MB", f"{rss:.0f} MB", rss <= 64)
    section.check(
        "10 scattered edits: shards touched",
        "≤ 10",
        str(result["edits_shards"]),
        result["edits_shards"] <= 10,
    )
    children = result["section_children"]
    section.check(
        "a new 50,000-page section: children rewritten",
        "its shard's parts, nothing renamed",
        f"{children} (+ index), {result['renamed']} renamed",
        result["section_landed_in"] == 1 and result["renamed"] == 0 and children <= 3,
    )
    share = result["rerendered_shards"] / total
    section.check(
        "a re-rendered 10 % section: shards touched",
        "≈ 10 % of the shards",
        f"{result['rerendered_shards']:,} of {total:,} ({share:.0%})",
        share <= 0.11,
    )


if __name__ == "__main__":
    print(json.dumps(simulate(int(sys.argv[1]))))
