"""`make bench` section first-run-cores: a first run with content dates on every core against
one process, and what an older version costs against the fingerprint section's page (issue 64).

Sites: archcraft and hugegraph of benchmarks/realsites/sites.json, checked out under the folder
given by --realsites (or $REALSITES_DATA), and content-dates-2k's repository (history_bench;
200 pages with --quick). Each is built three ways, round-robin, into fresh folders, no state (a
first run): content dates with the default workers, the same with --workers 1, and plain git
dates (--no-content-dates). Every process a run starts is counted: the runs go through a
wrapper that adopts orphans (PR_SET_CHILD_SUBREAPER), so the fork server's workers, which
outlive their parent's wait, are in its CPU time.

Checked, per site: the default's wall time against --workers 1 (at least SPEEDUP_TARGET on 2
cores or more), the same sitemap either way; and the CPU of --workers 1 above the plain run,
per blob fingerprinted (the state's remembered fingerprints: every older version compared and
each page's own), against the fingerprint section's figure measured here, scaled to the
blobs' mean size (its CPU time: a loaded machine stretches wall time): at most COST_TARGET;
and the same excess against the CPU of fingerprinting exactly those blobs once each in a plain
loop (blob_floor.py), beside it: real pages may cost more per byte than the synthetic page, and
this says whether the walk's own overhead is within COST_TARGET.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path
from typing import Any

from blob_floor import MAX_BLOB_BYTES, blob_floor, remembered_blobs
from fingerprint_bench import make_page
from harness import clean_env, reset_dir
from history_bench import PAGES, QUICK_PAGES, ensure_history_repo
from sitemill.lastmod.fingerprint.digest import fingerprint_html

SPEEDUP_TARGET = 1.6
COST_TARGET = 1.5
REAL_SITES = ("archcraft", "hugegraph")
SITES_JSON = Path(__file__).resolve().parent / "realsites" / "sites.json"
CHECKOUT = (
    "benchmarks/realsites/checkout.py --sites benchmarks/realsites/sites.json "
    "--mirrors /work/.mirror --data DIR --only archcraft --only hugegraph"
)
# Runs ``argv[2:]`` adopting its orphans; writes wall, CPU of every descendant, exit code.
_WRAPPER = r"""
import ctypes, json, os, resource, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
started = time.perf_counter()
with open(sys.argv[1] + ".log", "wb") as log:
    code = subprocess.call(sys.argv[2:], stdout=log, stderr=subprocess.STDOUT)
wall = time.perf_counter() - started
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "code": code},
          open(sys.argv[1], "w"))
"""


def _run(command: list[str], scratch: Path) -> dict[str, Any]:
    result = scratch / "run.json"
    subprocess.run([sys.executable, "-c", _WRAPPER, str(result), *command], env=clean_env())
    return dict(json.loads(result.read_text()))


def _sites(realsites: Path | None, out: Path, quick: bool) -> list[tuple[str, Path, str]] | str:
    """(name, checkout, base URL) of each site; a one-line reason when a checkout is missing."""
    pages = QUICK_PAGES if quick else PAGES
    synthetic = (
        "content-dates-2k",
        ensure_history_repo(out / "data", pages),
        "https://example.com/",
    )
    listed = {site["name"]: site for site in json.loads(SITES_JSON.read_text())}
    named = os.environ.get("REALSITES_DATA")
    folder = realsites or (Path(named) if named else None)
    if folder is None or not all((folder / name / ".git").exists() for name in REAL_SITES):
        return f"no checkouts of {', '.join(REAL_SITES)} under {folder}: run {CHECKOUT}"
    real = [(name, folder / name, listed[name]["base_url"]) for name in REAL_SITES]
    return [*real, synthetic]


def _fingerprinted(out_dir: Path, checkout: Path) -> tuple[int, int]:
    """How many blobs the state remembers fingerprints of, and their bytes as read."""
    blobs = remembered_blobs(out_dir / "sitemill-state.json.gz")
    ids = sorted({key[1:41] for key in blobs})
    found = subprocess.run(
        ["git", "-C", str(checkout), "cat-file", "--batch-check=%(objectsize)"],
        input="\n".join(ids) + "\n", capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return len(blobs), sum(min(int(size), MAX_BLOB_BYTES) for size in found if size.isdigit())


def bench_first_run(
    section: Any,
    sitemill: list[str],
    *,
    out: Path,
    quick: bool,
    repeat: int,
    realsites: Path | None,
) -> None:
    """Fill ``section`` (run.Section) with each site's checks (see above)."""
    page = make_page()
    calls = 20 if quick else 100
    # CPU time, as the runs' (the fingerprint section's wall time grows with the load).
    spent = timeit.repeat(lambda: fingerprint_html(page), number=calls, timer=time.process_time)
    per_page = statistics.median(spent) / calls * 1e6
    section.notes.append(
        f"  fingerprint of a {len(page) / 1000:.0f} KB page: {per_page:,.0f} µs of CPU"
    )
    sites = _sites(realsites, out, quick)
    if isinstance(sites, str):
        section.check("real sites checked out", "present", sites, False)
        return
    cores = len(os.sched_getaffinity(0))
    for name, checkout, base in sites:
        _site(
            section,
            sitemill,
            (name, checkout, base),
            out / "first-run",
            repeat,
            cores,
            per_page / len(page),
        )


def _site(
    section: Any,
    sitemill: list[str],
    site: tuple[str, Path, str],
    work: Path,
    repeat: int,
    cores: int,
    us_per_byte: float,
) -> None:
    name, checkout, base = site
    build = [*sitemill, "-q", "build", str(checkout), "--base-url", base]
    ways = {"cores": [], "one": ["--workers", "1"], "plain": ["--no-content-dates"]}
    runs: dict[str, list[dict[str, Any]]] = {way: [] for way in ways}
    for round_number in range(1, repeat + 1):
        print(f"  [{round_number}/{repeat}] {name} …", flush=True)
        for way, extra in ways.items():
            target = reset_dir(work / way)
            runs[way].append(_run([*build, "--out", str(target), *extra], work))
            if runs[way][-1]["code"] != 0:
                section.check(f"{name}: {way}", "exit 0", f"exit {runs[way][-1]['code']}", False)
                return
    wall = {way: statistics.median(run["wall"] for run in done) for way, done in runs.items()}
    cpu = {way: statistics.median(run["cpu"] for run in done) for way, done in runs.items()}
    same = (work / "cores" / "sitemap.xml").read_bytes() == (
        work / "one" / "sitemap.xml"
    ).read_bytes()
    speedup = wall["one"] / wall["cores"]
    section.check(
        f"{name}: first run, {cores} cores vs 1",
        f"≥ {SPEEDUP_TARGET}× (2+ cores)",
        f"{speedup:.2f}× ({wall['one']:.2f} s vs {wall['cores']:.2f} s wall; CPU "
        f"{cpu['cores']:.2f} s vs {cpu['one']:.2f} s; plain {wall['plain']:.2f} s)",
        same and (cores < 2 or speedup >= SPEEDUP_TARGET),
    )
    count, size = _fingerprinted(work / "one", checkout)
    excess_us = (cpu["one"] - cpu["plain"]) * 1e6
    ratio = excess_us / (us_per_byte * size) if size else float("inf")
    mean = size / max(1, count)
    section.check(
        f"{name}: CPU per blob vs fingerprint",
        f"≤ {COST_TARGET}×",
        f"{ratio:.2f}× ({excess_us / max(1, count):,.0f} µs for each of {count:,} blobs of "
        f"{mean / 1000:.0f} KB; the fingerprint's {us_per_byte * mean:,.0f} µs)",
        ratio <= COST_TARGET,
    )
    floor, done, lost = blob_floor(work / "one" / "sitemill-state.json.gz", checkout, base)
    exact = excess_us / (floor * 1e6) if floor else float("inf")
    section.check(
        f"{name}: CPU per blob vs the blobs'",
        f"≤ {COST_TARGET}×",
        f"{exact:.2f}× ({excess_us / max(1, count):,.0f} µs a blob; a plain loop that "
        f"fingerprints the {done:,} blobs once {floor * 1e6 / max(1, done):,.0f} µs"
        + (f"; {lost} HTML blobs at a path not found" if lost else "")
        + ")",
        exact <= COST_TARGET,
    )
