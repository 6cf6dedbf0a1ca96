"""`make bench` section ladder-3k: what the evidence ladder costs (issue 47).

A generated site of PAGES pages of about 5 KB (SECTIONS folders of posts, each page with its
canonical URL, a navigation, an article of words; none declares a date, and their file times
are one build's, so no page gets a date), as a CI build leaves it: `sitemill build SITE --out
OUT`, default workers. Timed, round-robin:

- the first run: no state, a fresh output folder each time;
- a second run: from the first run's state, the same pages written again with new file times
  (a CI rebuild), nothing changed; each timed run is one (it writes nothing);
- the same second run with `--workers 1`: every page read in the one process, so its CPU time
  is all the run's (the CPU time of a pool's workers is not seen by the wrapper).

Given a BASELINE sitemill (`make bench BASELINE=PATH`: the `sitemill` of a venv of the commit
before the ladder, 0fab719), each command runs in turn with it and the targets compare the
medians: a first run at most FIRST_TARGET times the baseline's wall time, a second run at most
SECOND_TARGET (parity, with room for the noise of a shared machine). Without one, the times are
reported and the correctness checks alone apply: no page dated, a second run writes nothing.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness import Run, Timing, reset_dir, run_once

BASE_URL = "https://example.org/"
PAGES, QUICK_PAGES = 3_000, 300
SECTIONS = 30
FIRST_TARGET = 1.5  # "the ladder costs a first run at most 1.5x today's"
SECOND_TARGET = 1.05  # "a second run costs what it does today", within the machine's noise
WORDS = [
    "static",
    "bucket",
    "theme",
    "site",
    "generator",
    "deploy",
    "index",
    "content",
    "lastmod",
    "page",
    "crawler",
    "evidence",
    "history",
    "sitemap",
    "build",
    "source",
    "commit",
    "folder",
    "search",
    "engine",
    "date",
]


def page(section: int, number: int, rng: random.Random) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(600))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Post {number} | '
        f'Site</title>\n<meta name="description" content="post {number}"><link rel="canonical" '
        f'href="{BASE_URL}section{section}/post-{number}/"></head>\n<body><header><nav>'
        '<a href="/">Home</a> <a href="/about/">About</a></nav></header><main><article>'
        f"<h1>Post {number}</h1><p>{words}</p></article></main>\n<footer>Site</footer>"
        "</body></html>\n"
    )


def ensure_site(folder: Path, pages: int) -> Path:
    """A site of ``pages`` pages under ``folder``/site, made once (a marker names the count)."""
    site, marker = folder / "site", folder / "pages.txt"
    if marker.is_file() and marker.read_text() == str(pages):
        return site
    reset_dir(site)
    rng = random.Random(47)
    for number in range(pages):
        section = number % SECTIONS
        path = site / f"section{section}" / f"post-{number}" / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page(section, number, rng), encoding="utf-8")
    marker.write_text(str(pages))
    return site


def rebuilt(site: Path) -> None:
    """Every page written again as a fresh build writes it: the same bytes, a new file time."""
    now = time.time()
    for path in site.rglob("*.html"):
        os.utime(path, (now, now))


def build(sitemill: Sequence[str], site: Path, out: Path, *extra: str) -> list[str]:
    return [*sitemill, "build", str(site), "--out", str(out), "-q", "--base-url", BASE_URL, *extra]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def bench_ladder(
    section: Any, *, sitemill: list[str], baseline: str | None, out: Path, quick: bool, repeat: int
) -> None:
    pages = QUICK_PAGES if quick else PAGES
    folder = out / "ladder"
    site = ensure_site(folder, pages)
    rebuilt(site)  # (one build's file times: no page is dated by them)
    sides = {"sitemill": sitemill} | ({"baseline": [baseline]} if baseline else {})
    kinds = ("first run", "second run", "second run, --workers 1")
    timings = {
        (side, kind): Timing(f"{side}: {kind}", [], folder / f"{side}-{index}")
        for side in sides
        for index, kind in enumerate(kinds)
    }
    before: dict[str, dict[str, bytes]] = {}
    for side, command in sides.items():  # (the state each second run starts from)
        for kind in kinds[1:]:
            timing = timings[side, kind]
            reset_dir(timing.out_dir)
            timing.command = build(command, site, timing.out_dir)
            if kind.endswith("--workers 1"):
                timing.command += ["--workers", "1"]
            first = run_once(timing.command, folder)
            assert first.exit_code == 0, first.log
        rebuilt(site)
        timings[side, kinds[0]].command = build(command, site, timings[side, kinds[0]].out_dir)
        before[side] = _files(timings[side, kinds[1]].out_dir)
    scratch = folder / "scratch"
    scratch.mkdir(exist_ok=True)
    for round_number in range(1, repeat + 1):
        for (_side, kind), timing in timings.items():
            print(f"  [{round_number}/{repeat}] {timing.label} …", flush=True)
            if kind == kinds[0]:
                shutil.rmtree(timing.out_dir, ignore_errors=True)
            timing.runs.append(run_once(timing.command, scratch))
    section.timings.extend(timings.values())
    _check(section, timings, sides, kinds, before, pages)


def _check(
    section: Any,
    timings: dict[tuple[str, str], Timing],
    sides: dict[str, list[str]],
    kinds: tuple[str, ...],
    before: dict[str, dict[str, bytes]],
    pages: int,
) -> None:
    ours = timings["sitemill", kinds[0]]
    sitemap = (ours.out_dir / "sitemap.xml").read_text() if ours.ok else ""
    listed, dated = sitemap.count("<loc>"), sitemap.count("<lastmod>")
    section.check(
        "first run: no page dated", f"{pages:,} URLs, no lastmod", f"{listed:,}, {dated:,}",
        ours.ok and listed == pages and dated == 0,
    )  # fmt: skip
    same = _files(timings["sitemill", kinds[1]].out_dir) == before["sitemill"]
    section.check("second run writes nothing", "same bytes", "same" if same else "changed", same)
    if "baseline" not in sides:
        section.notes.append("  no BASELINE given: the ladder's cost is not compared")
        return
    section.notes.append(f"  {len(ours.runs)} rounds; ratios: the median of the rounds' pairs")
    for kind, target, figure in (
        (kinds[0], FIRST_TARGET, "wall"),
        (kinds[1], SECOND_TARGET, "wall"),
        (kinds[2], SECOND_TARGET, "cpu"),
    ):
        ratio = paired_ratio(timings["sitemill", kind].runs, timings["baseline", kind].runs, figure)
        section.check(
            f"{kind} / baseline ({figure})", f"≤ {target:.2f}×", f"{ratio:.3f}×", ratio <= target
        )


def paired_ratio(ours: list[Run], theirs: list[Run], figure: str) -> float:
    """The median of the ratios of the runs made in the same round (a drifting machine moves
    both of a pair alike)."""

    def value(run: Run) -> float:
        return run.wall_s if figure == "wall" else run.cpu_s

    return statistics.median(value(a) / value(b) for a, b in zip(ours, theirs, strict=True))
