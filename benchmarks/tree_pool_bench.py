"""`make bench` section tree-pool-5k: a tree's pages read on every core (issue 24, target 1).

A generated site of PAGES pages of about 100 KB (fingerprint_bench.make_page, each with its own
canonical URL and a fixed mtime): `sitemill build --lastmod mtime` with content dates (every
page read whole and fingerprinted, a first run: no state), with one worker and with the
machine's (the default), into fresh folders, round-robin; then once more each for memory: the
sum of the PSS of its processes (the command and its workers, their shared pages counted
once), sampled every SAMPLE_S seconds from /proc (ru_maxrss would only see the largest single
process). The timed runs are not sampled: reading /proc that often slows the workers.

The same is run on a site just over the pool's threshold (MIN_POOL_BYTES): the smallest site
that gets a pool must not be slower with it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fingerprint_bench import make_page
from harness import clean_env, reset_dir

BASE_URL = "https://example.com/"
PAGES, QUICK_PAGES = 5_000, 1_000
SECTIONS = 50
# Just over sitemill.workers.workpool.MIN_POOL_BYTES (32 MiB) of pages of about 100 KB.
THRESHOLD_PAGES = 360
SAMPLE_S = 0.02
MTIME = 1_700_000_000
SPEEDUP_TARGET = 1.8
MEMORY_TARGET = 1.5
# "Peak memory <= 1.5x today's" (issue 24): one process before the pool's memory work (commit
# 3702ba0, whose LineMemo held 32 MiB), measured by this sampler on the 5,000-page site.
BEFORE_BYTES = 72_700_000


@dataclass(frozen=True)
class PoolRun:
    wall_s: float
    memory_bytes: int
    exit_code: int
    log: str


def ensure_tree(folder: Path, pages: int) -> Path:
    """A site of ``pages`` pages under ``folder``/site, made once (a marker names the count)."""
    site, marker = folder / "site", folder / "pages.txt"
    if marker.is_file() and marker.read_text() == str(pages):
        return site
    reset_dir(site)
    for number in range(pages):
        section, page = divmod(number, max(1, pages // SECTIONS))
        path = site / f"s{section:02d}" / f"p{page:04d}" / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        own = f'<link rel="canonical" href="{BASE_URL}s{section:02d}/p{page:04d}/">'
        body = make_page(number).replace(
            b'<link rel="canonical" href="https://example.com/docs/page/">', own.encode()
        )
        path.write_bytes(body)
        os.utime(path, (MTIME + number, MTIME + number))
    marker.write_text(str(pages))
    return site


def _pss(pid: int) -> int:
    """The PSS of ``pid`` and its descendants, in bytes (0 for what has gone)."""
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
                    break
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            kids = [int(word) for word in children.read().split()]
    except (OSError, ValueError):
        return total
    return total + sum(_pss(kid) for kid in kids)


def run_once(command: Sequence[str], scratch: Path, *, sample: bool = False) -> PoolRun:
    """Run ``command``; its wall time and, with ``sample``, the largest sum of its processes'
    PSS (else 0)."""
    log_path = scratch / "pool.log"
    with open(log_path, "wb") as log:
        started = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=clean_env(), cwd=scratch
        )
        peak = [0]

        def sample_pss() -> None:
            while process.poll() is None:
                peak[0] = max(peak[0], _pss(process.pid))
                time.sleep(SAMPLE_S)

        sampler = threading.Thread(target=sample_pss, daemon=True)
        if sample:
            sampler.start()
        code = process.wait()
        wall = time.perf_counter() - started
        if sample:
            sampler.join()
    return PoolRun(wall, peak[0], code, log_path.read_text(errors="replace"))


def summed_pss(command: Sequence[str], scratch: Path) -> int | None:
    """The largest sum of the PSS of ``command``'s processes over one run (None: it failed)."""
    run = run_once(command, scratch, sample=True)
    return run.memory_bytes if run.exit_code == 0 else None


def _same_output(left: Path, right: Path) -> bool:
    names = sorted(path.name for path in left.iterdir())
    if names != sorted(path.name for path in right.iterdir()):
        return False
    return all((left / name).read_bytes() == (right / name).read_bytes() for name in names)


def _median(runs: list[PoolRun], what: str) -> float:
    return statistics.median(getattr(run, what) for run in runs)


def _memory(runs: list[PoolRun]) -> float:
    return max(run.memory_bytes for run in runs)


def _compare(
    section: Any, sitemill: list[str], site: Path, work: Path, repeat: int, label: str
) -> tuple[list[PoolRun], list[PoolRun]] | None:
    """Round-robin runs with one worker and with the default; None (after a FAIL) on error."""
    command = [*sitemill, "build", str(site), "--base-url", BASE_URL, "--lastmod", "mtime", "-q"]
    one_dir, many_dir = work / "one", work / "many"
    one: list[PoolRun] = []
    many: list[PoolRun] = []
    for round_number in range(1, repeat + 2):
        sample = round_number > repeat  # the last round: memory
        print(f"  [{round_number}/{repeat + 1}] {label}{' (memory)' * sample} …", flush=True)
        for runs, out, extra in ((one, one_dir, ["--workers", "1"]), (many, many_dir, [])):
            reset_dir(out)
            run = run_once([*command, "--out", str(out), *extra], work, sample=sample)
            if run.exit_code != 0:
                tail = " | ".join(run.log.strip().splitlines()[-2:])
                section.check(f"{label}: runs", "exit 0", f"exit {run.exit_code}: {tail}", False)
                return None
            runs.append(run)
    same = _same_output(one_dir, many_dir)
    section.check(f"{label}: 1 worker and the default", "same bytes", str(same), same)
    return one, many


def bench_tree_pool(
    section: Any, *, sitemill: list[str], out: Path, quick: bool, repeat: int, cores: int
) -> None:
    """Fill ``section`` (run.Section) with the timings and checks described above."""
    pages = QUICK_PAGES if quick else PAGES
    work = out / "tree-pool-5k"
    big = ensure_tree(out / "data" / f"tree-pool-{pages}", pages)
    small = ensure_tree(out / "data" / f"tree-pool-{THRESHOLD_PAGES}", THRESHOLD_PAGES)
    compared = _compare(section, sitemill, big, work, repeat, f"{pages:,} pages")
    if compared is not None:
        one, many = compared
        speedup = _median(one[:-1], "wall_s") / _median(many[:-1], "wall_s")
        memory = _memory(many) / _memory(one)
        section.notes.append(
            f"  {pages:,} pages: 1 worker {_median(one[:-1], 'wall_s'):.2f} s, "
            f"{_memory(one) / 1e6:.0f} MB; {cores} workers "
            f"{_median(many[:-1], 'wall_s'):.2f} s, {_memory(many) / 1e6:.0f} MB "
            "(median wall times; memory: the processes' PSS summed)"
        )
        section.check(
            f"{cores} workers vs 1: speed-up",
            f"≥ {SPEEDUP_TARGET:.2f}×" if cores >= 2 else "n/a (1 core)",
            f"{speedup:.2f}×",
            cores < 2 or speedup >= SPEEDUP_TARGET,
        )
        section.check(
            f"{cores} workers: memory vs one process before (72.7 MB)",
            f"≤ {MEMORY_TARGET:.2f}×",
            f"{_memory(many) / BEFORE_BYTES:.2f}×",
            quick or _memory(many) <= MEMORY_TARGET * BEFORE_BYTES,
        )
        section.check(f"{cores} workers vs 1: memory", "report", f"{memory:.2f}×", True)
    compared = _compare(
        section, sitemill, small, work, repeat, f"{THRESHOLD_PAGES} pages (just over the threshold)"
    )
    if compared is not None:
        one, many = compared[0][:-1], compared[1][:-1]
        ratio = _median(many, "wall_s") / _median(one, "wall_s")
        section.check(
            f"{THRESHOLD_PAGES} pages: the default vs 1 worker",
            "≤ 1.00× (not slower)",
            f"{ratio:.2f}× ({_median(one, 'wall_s'):.2f} s → {_median(many, 'wall_s'):.2f} s)",
            ratio <= 1.0,
        )
