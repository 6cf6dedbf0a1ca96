"""`make bench` section state-100k: a state of 100,000 pages written and read back.

Run as a child process (`python benchmarks/state_bench.py N`) so that its peak RSS is the round
trip's own: build a State of N records (ETag, facts, fingerprint, lastmod, as a bucket run
remembers them), dump it, parse it back, check it is equal, and print one JSON line.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from harness import own_peak_rss_bytes, run_child

MB = 1_000_000


def round_trip(count: int) -> dict[str, float]:
    from sitemill.html.facts import PageFacts
    from sitemill.state.model import PageRecord, State, dump_state
    from sitemill.state.parse import parse_state

    state = State()
    for number in range(count):
        facts = PageFacts(noindex=number % 50 == 0, canonical="/x/" if number % 7 == 0 else None)
        state.pages[f"docs/section-{number % 100:02d}/page-{number:06d}/index.html"] = PageRecord(
            f'"{number:032x}"', facts, f"{number * 7919:032x}", "2024-03-01T12:00:00+00:00"
        )
    started = time.perf_counter()
    data = dump_state(state)
    dumped = time.perf_counter()
    again = parse_state(data)
    parsed = time.perf_counter()
    assert again.pages == state.pages
    peak = own_peak_rss_bytes()
    return {
        "bytes": len(data),
        "dump_s": dumped - started,
        "parse_s": parsed - dumped,
        "peak_rss_bytes": peak,
    }


def bench_state(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the round trip's size, times and peak RSS."""
    count = 10_000 if quick else 100_000
    result = run_child(section, Path(__file__), count, label="state round trip")
    if result is None:
        return
    rss = result["peak_rss_bytes"] / MB
    seconds = result["dump_s"] + result["parse_s"]
    section.check(
        f"{count:,} pages: size",
        "(see)",
        f"{result['bytes'] / MB:.1f} MB gzip; dump {result['dump_s']:.2f} s, "
        f"parse {result['parse_s']:.2f} s",
        True,
    )
    section.check(f"{count:,} pages: round trip", "< 3.00 s", f"{seconds:.2f} s", seconds < 3)
    section.check(f"{count:,} pages: peak RSS", "≤ 250 MB", f"{rss:.0f} MB", rss <= 250)


if __name__ == "__main__":
    print(json.dumps(round_trip(int(sys.argv[1]))))
