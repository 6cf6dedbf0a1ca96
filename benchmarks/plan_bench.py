"""`make bench` section plan-100m: the shard plan of 100,000,000 keys, streamed.

Run as a child process (`python benchmarks/plan_bench.py N`, N keys: any count) so that its peak
RSS is the plan's own. N synthetic S3 keys, generated lazily in S3 key order, go through the cut
rule once (`sitemill.shards.cuts.canonical_plan`, fill 40,000, the default max_bytes), holding
nothing but the boundaries. The site: ten sections of N / 10 keys (`api/`, `blog/`, `docs/`, ...),
each made of folders of 1,000 pages and the folder's `index.html` (`docs/00042/00017.html`,
`docs/00042/index.html`), then the section's own `index.html`. Then the shards a deploy touches
(`Plan.shard_of`): 10 scattered edits; a new 50,000-page section (`careers/`, between `blog/` and
`docs/`), which lands in one shard that is split (`sitemill.shards.evolve.split`) while no other
shard moves; one section (10 % of the keys) re-rendered. Prints one JSON line.
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc
from bisect import bisect_right
from collections.abc import Iterator
from itertools import islice, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from datasets import BASE_URL
from harness import own_peak_rss_bytes, run_child

if TYPE_CHECKING:
    from sitemill.shards.plan import Plan

KEYS, QUICK_KEYS = 100_000_000, 2_000_000
MIN_KEYS = 100_000
HEAP_KEYS = 100_000  # the run measured with tracemalloc (which slows it several times)
# Ten sections in S3 order, each a tenth of the keys.
SECTIONS: Final = (
    "api",
    "blog",
    "docs",
    "forum",
    "guides",
    "help",
    "news",
    "products",
    "reference",
    "support",
)
NEW_SECTION, NEW_SECTION_KEYS = "careers", 50_000  # sorts between blog/ and docs/
RERENDERED = "guides"  # a tenth of the keys
PER_FOLDER = 1_000
FILL = 40_000
# As sitemill.shards.layout.weight estimates a <url>: 64 bytes of tags, the URL, the lastmod.
ENTRY_BYTES = 64 + len(BASE_URL) + len("2024-03-01T12:00:00+00:00")
CLEAN = False  # url_style "directory", the default
SEED = 7
MB = 1_000_000


def section_keys(section: str, size: int) -> Iterator[str]:
    """The ``size`` keys of one section in S3 order: folders of PER_FOLDER pages, each followed
    by its index.html ("0" < "i"), then the section's index.html."""
    body = size - 1
    for folder, start in enumerate(range(0, body, PER_FOLDER + 1)):
        prefix = f"{section}/{folder:05d}/"
        held = min(PER_FOLDER + 1, body - start)
        for page in range(min(held, PER_FOLDER)):
            yield f"{prefix}{page:05d}.html"
        if held > PER_FOLDER:
            yield prefix + "index.html"
    yield f"{section}/index.html"


def section_key(section: str, size: int, number: int) -> str:
    """Key ``number`` of section_keys(section, size), without generating the others."""
    if number == size - 1:
        return f"{section}/index.html"
    folder, slot = divmod(number, PER_FOLDER + 1)
    name = "index.html" if slot == PER_FOLDER else f"{slot:05d}.html"
    return f"{section}/{folder:05d}/{name}"


def site_keys(count: int) -> Iterator[tuple[str, int]]:
    """The site's keys in S3 order with their estimated bytes (a tenth of ``count`` a section:
    ``count`` is a multiple of ten)."""
    size = count // len(SECTIONS)
    for section in SECTIONS:
        for key in section_keys(section, size):
            yield key, ENTRY_BYTES + len(key)


def key_at(count: int, position: int) -> str:
    """The site's key at ``position`` (in S3 order)."""
    section, number = divmod(position, count // len(SECTIONS))
    return section_key(SECTIONS[section], count // len(SECTIONS), number)


def check_keys(count: int) -> None:
    """The stream agrees with key_at and is strictly increasing (its start, and a stride over
    all of it): the cut rule trusts its input's order without checking it."""
    head = [key for key, _ in islice(site_keys(count), 3 * PER_FOLDER)]
    stride = [key_at(count, position) for position in range(0, count, count // 5_000)]
    tail = [key_at(count, position) for position in range(count - 3 * PER_FOLDER, count)]
    assert head == [key_at(count, position) for position in range(len(head))]
    for keys in (head, stride, tail):
        assert all(a < b for a, b in pairwise(keys)), "keys out of order"


def peak_rss() -> int:
    return own_peak_rss_bytes()


def heap_peak(count: int) -> int:
    """tracemalloc's peak while a plan of ``count`` keys is streamed (Python's heap, not RSS)."""
    from sitemill.protocol import DEFAULT_MAX_BYTES
    from sitemill.shards.cuts import canonical_plan
    from sitemill.shards.plan import Order

    tracemalloc.start()
    canonical_plan(
        site_keys(count), fill=FILL, max_bytes=DEFAULT_MAX_BYTES, clean=CLEAN, order=Order.KEYS
    )
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def scattered_edits(plan: Plan, count: int) -> int:
    """Shards touched by 10 edits at random positions (fixed seed)."""
    rng = random.Random(SEED)
    return len({plan.shard_of(key_at(count, rng.randrange(count))) for _ in range(10)})


def shard_positions(plan: Plan, index: int, count: int) -> range:
    """The positions of the site's keys that shard ``index`` holds (``after < key <= last``;
    the keys are ASCII, so their byte order is their str order)."""
    positions = range(count)
    after, last = plan.bounds(index)
    start = bisect_right(positions, after, key=lambda position: key_at(count, position))
    if last is None:
        return range(start, len(positions))
    return range(start, bisect_right(positions, last, key=lambda position: key_at(count, position)))


def new_section(plan: Plan, count: int) -> dict[str, Any]:
    """A new section between two others: the shards its keys land in (one), the parts that
    shard splits into (all inside it), and the old plan's ids that are gone (none) or moved."""
    from sitemill.protocol import DEFAULT_MAX_BYTES, MAX_URLS_PER_SITEMAP
    from sitemill.shards.evolve import split

    added = list(section_keys(NEW_SECTION, NEW_SECTION_KEYS))
    landed = {plan.shard_of(key) for key in added}
    target = min(landed)
    old = [key_at(count, position) for position in shard_positions(plan, target, count)]
    items = [(key, ENTRY_BYTES + len(key)) for key in sorted([*old, *added])]
    size = sum(size for _, size in items)
    grown = len(items) > MAX_URLS_PER_SITEMAP or size > DEFAULT_MAX_BYTES  # past one file
    bigger = split(plan, target, items, fill=FILL, max_bytes=DEFAULT_MAX_BYTES, clean=CLEAN)
    new_ids = set(bigger.ids) - set(plan.ids)
    kept = [shard for shard in bigger.ids if shard not in new_ids]
    inside = all(
        plan.shard_of(after) == target for after in bigger.afters if after not in plan.afters
    )
    return {
        "section_landed_in": len(landed),
        "section_shard_keys": len(items),
        "section_grown": grown,
        "section_parts": 1 + len(new_ids),
        "section_renamed": len(set(plan.ids) - set(bigger.ids)),
        "section_others_same": kept == list(plan.ids) and inside,
    }


def rerendered(plan: Plan, count: int) -> int:
    """Shards touched when every key of one section (a tenth of the site) changes: shard_of is
    monotone, so they are the shards from its first key's to its last key's."""
    size = count // len(SECTIONS)
    start = SECTIONS.index(RERENDERED) * size
    last = plan.shard_of(key_at(count, start + size - 1))
    return last - plan.shard_of(key_at(count, start)) + 1


def simulate(count: int) -> dict[str, Any]:
    """The plan of ``count`` keys (rounded down to whole sections) and what deploys touch."""
    from sitemill.protocol import DEFAULT_MAX_BYTES
    from sitemill.shards.cuts import canonical_plan
    from sitemill.shards.plan import Order

    count -= count % len(SECTIONS)
    if count < MIN_KEYS:
        raise SystemExit(f"plan_bench.py: at least {MIN_KEYS:,} keys")
    check_keys(count)
    baseline = peak_rss()
    started = time.perf_counter()
    plan = canonical_plan(
        site_keys(count), fill=FILL, max_bytes=DEFAULT_MAX_BYTES, clean=CLEAN, order=Order.KEYS
    )
    planned = time.perf_counter() - started
    plan_rss = peak_rss()
    return {
        "keys": count,
        "shards": len(plan.afters),
        "plan_s": planned,
        "baseline_rss_bytes": baseline,
        "peak_rss_bytes": plan_rss,
        "heap_keys": min(count, HEAP_KEYS),
        "heap_peak_bytes": heap_peak(min(count, HEAP_KEYS)),
        "edits_shards": scattered_edits(plan, count),
        **new_section(plan, count),
        "rerendered_shards": rerendered(plan, count),
        "end_rss_bytes": peak_rss(),
    }


def bench_plan(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the plan's time, memory and shards touched."""
    count = QUICK_KEYS if quick else KEYS
    result = run_child(section, Path(__file__), count, label="plan")
    if result is None:
        return
    keys, total, seconds = result["keys"], result["shards"], result["plan_s"]
    expected = -(-keys // FILL)
    section.check(
        f"{keys:,} keys: plan",
        f"{expected:,} shards",
        f"{total:,} shards in {seconds:.1f} s ({keys / seconds:,.0f} keys/s, "
        f"{seconds / keys * 1e6:.2f} µs a key)",
        total == expected,
    )
    rss, planned = result["end_rss_bytes"] / MB, result["peak_rss_bytes"] / MB
    section.check(
        f"{keys:,} keys: peak RSS",
        "≤ 64 MB",
        f"{rss:.1f} MB; {planned:.1f} MB after the plan, "
        f"{result['baseline_rss_bytes'] / MB:.1f} MB before it (heap peak "
        f"{result['heap_peak_bytes'] / 1_000:.0f} kB over {result['heap_keys']:,} keys)",
        rss <= 64,
    )
    section.check(
        "10 scattered edits: shards touched",
        "≤ 10",
        str(result["edits_shards"]),
        result["edits_shards"] <= 10,
    )
    parts, renamed = result["section_parts"], result["section_renamed"]
    others = "others unchanged" if result["section_others_same"] else "others MOVED"
    section.check(
        f"a new {NEW_SECTION_KEYS:,}-key section: shards touched",
        "1, split; 0 renamed",
        f"{result['section_landed_in']} ({result['section_shard_keys']:,} keys) → {parts} parts; "
        f"{renamed} renamed, {others}",
        result["section_landed_in"] == 1
        and result["section_grown"]
        and renamed == 0
        and result["section_others_same"]
        and parts <= -(-result["section_shard_keys"] // FILL),
    )
    touched = result["rerendered_shards"]
    section.check(
        "a re-rendered section (10 %): shards touched",
        "≤ 10 % of the shards + 1",
        f"{touched:,} of {total:,} ({touched / total:.1%})",
        touched <= total // 10 + 1,
    )


if __name__ == "__main__":
    print(json.dumps(simulate(int(sys.argv[1]))))
