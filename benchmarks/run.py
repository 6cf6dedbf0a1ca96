"""`make bench`: sitemill's performance targets, measured, checked for correctness, reported.

    .venv/bin/python benchmarks/run.py [--quick] [--only NAME]

NAME: urls-1m, build-git-10k, validate-50k, bucket-20k, bucket-sharded, bucket-full-1m,
fingerprint, hostile, content-dates-2k, second-run, state-100k, extensions-30k, plan-100m,
tree-sharded, check-10k, tree-pool-5k, first-run-cores, ladder-3k, distributed-10m,
lambda-start, action-install or diff-50k.
--baseline SITEMILL: the sitemill ladder-3k compares with (make bench BASELINE=PATH).
--realsites DIR: second-run's and first-run-cores' checkouts of real sites (realsites/checkout.py
--data; default: $REALSITES_DATA).

Prints a table with PASS/FAIL per target and writes benchmarks/out/results.json; exits 1 when
any check fails. Inputs (a URL list, a git repository) are generated once under benchmarks/out/;
the npm `sitemap` package is installed from benchmarks/npm/package-lock.json on first use.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from action_bench import bench_action
from bucket_bench import bench_bucket
from bucket_full_bench import bench_bucket_full
from bucket_shards_bench import bench_bucket_shards
from check_bench import bench_check
from costs import Rates, table
from datasets import BASE_URL, RepoPlan, ensure_git_repo, ensure_url_list, listed_urls
from diff_bench import PAGES as DIFF_PAGES
from diff_bench import QUICK_PAGES as QUICK_DIFF_PAGES
from diff_bench import bench_diff
from distributed_bench import bench_distributed
from extensions_bench import bench_extensions
from fingerprint_bench import measure_fingerprint
from first_run_bench import bench_first_run
from harness import SitemapSet, Timing, clean_env, lastmod_timestamp, read_sitemaps, time_commands
from history_bench import bench_history
from hostile_bench import bench_hostile
from ladder_bench import PAGES as LADDER_PAGES
from ladder_bench import QUICK_PAGES as QUICK_LADDER_PAGES
from ladder_bench import bench_ladder
from lambda_bench import bench_lambda
from llms_build_bench import bench_llms_build
from llms_full_bench import PAGES as LLMS_PAGES
from llms_full_bench import QUICK_PAGES as QUICK_LLMS_PAGES
from llms_full_bench import bench_llms_full
from plan_bench import KEYS, QUICK_KEYS, bench_plan
from second_impls_bench import bench_second_impls
from secondrun_bench import NEW, bench_second_run
from state_bench import bench_state
from tree_pool_bench import PAGES as POOL_PAGES
from tree_pool_bench import QUICK_PAGES as QUICK_POOL_PAGES
from tree_pool_bench import bench_tree_pool, summed_pss
from tree_shards_bench import bench_tree_shards
from validate_bench import URLS, bench_validate

BENCH_DIR = Path(__file__).resolve().parent
OUT = BENCH_DIR / "out"
NPM_DIR = BENCH_DIR / "npm"
MAX_URLS_PER_CHILD = 50_000
MB = 1_000_000
# Outputs up to this many URLs are also checked with `sitemill validate` (the XSDs and the
# protocol rules); bigger ones get the structural check below only, to keep the run short.
VALIDATE_UP_TO = 100_000


@dataclass(frozen=True)
class Check:
    name: str
    target: str
    measured: str
    passed: bool


@dataclass
class Section:
    name: str
    description: str
    timings: list[Timing] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # printed after the checks

    def check(self, name: str, target: str, measured: str, passed: bool) -> None:
        self.checks.append(Check(name, target, measured, passed))


@dataclass(frozen=True)
class Context:
    quick: bool
    repeat: int
    sitemill: list[str]
    baseline: str | None = None  # ladder-3k's pre-ladder sitemill
    realsites: Path | None = None  # second-run's, first-run-cores' (realsites/checkout.py --data)


def sitemill_command() -> list[str]:
    script = Path(sys.executable).parent / "sitemill"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sitemill.cli"]


def compile_bytecode() -> str:
    """sitemill's modules compiled to bytecode, as an installed package has them: an editable
    install run with PYTHONDONTWRITEBYTECODE (or from a read-only checkout) would compile every
    module in every process of every timed run, some 0.1-0.2 s of CPU each, which no user
    pays. Returns what was done, for the header."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("sitemill")
    folders = list(spec.submodule_search_locations or []) if spec else []
    if not folders:
        return "sitemill not importable here: its bytecode is left as it is"
    done = all(compileall.compile_dir(folder, quiet=1) for folder in folders)
    return "bytecode compiled" if done else "bytecode: some modules did not compile"


def validate(section: Section, ctx: Context, label: str, out_dir: Path) -> None:
    done = subprocess.run(
        [*ctx.sitemill, "validate", str(out_dir), "--base-url", BASE_URL],
        capture_output=True,
        text=True,
        env=clean_env(),
        cwd=OUT,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    measured = (
        "valid" if done.returncode == 0 else " | ".join(lines[:3]) or f"exit {done.returncode}"
    )
    section.check(f"{label}: sitemill validate", "exit 0", measured, done.returncode == 0)


def verify_url_output(
    section: Section, label: str, out_dir: Path, count: int, *, index_lastmods: bool
) -> None:
    """The output lists exactly the input's URLs, in order, with their lastmods, 50,000 a file."""
    sitemaps = SitemapSet()
    expected = listed_urls(count)
    newest: dict[int, int] = {}
    problem = ""
    seen = 0
    try:
        for child, entry in read_sitemaps(out_dir, sitemaps):
            want = next(expected, None)
            seen += 1
            stamp = lastmod_timestamp(entry.lastmod)
            if want is None or (entry.loc, stamp) != want:
                problem = f"URL #{seen}: {entry.loc} {entry.lastmod}, expected {want}"
                break
            newest[child] = max(newest.get(child, 0), want[1])
    except (OSError, ValueError, SyntaxError) as exc:
        problem = f"unreadable output: {exc}"
    children = math.ceil(count / MAX_URLS_PER_CHILD)
    if not problem and seen != count:
        problem = f"{seen:,} URLs, expected {count:,}"
    if not problem and len(sitemaps.children) != children:
        problem = f"{len(sitemaps.children)} sitemap files, expected {children}"
    if not problem and index_lastmods and sitemaps.is_index:
        written = [lastmod_timestamp(text) for text in sitemaps.child_lastmods]
        if written != [newest[i] for i in range(len(written))]:
            problem = "an index <lastmod> is not the newest lastmod of its child"
    files = len(sitemaps.children)
    measured = problem or f"{seen:,} URLs in {files} file{'s' if files != 1 else ''}"
    section.check(f"{label}: output correct", "all URLs + lastmods", measured, not problem)


def ratio_check(section: Section, name: str, target: str, value: float | None, ok: bool) -> None:
    measured = "n/a (a run failed)" if value is None else f"{value:.2f}×"
    section.check(name, target, measured, value is not None and ok)


def median_or_none(timing: Timing) -> float | None:
    return timing.wall_s if timing.ok else None


def ensure_npm_sitemap() -> str:
    """Install the pinned npm `sitemap` (npm ci, from the committed lock file) unless present."""
    lock = json.loads((NPM_DIR / "package-lock.json").read_text())
    pinned = str(lock["packages"]["node_modules/sitemap"]["version"])
    installed = NPM_DIR / "node_modules" / "sitemap" / "package.json"
    if installed.is_file() and json.loads(installed.read_text())["version"] == pinned:
        return pinned
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise RuntimeError("node and npm are needed for the npm comparison")
    print(f"installing npm sitemap {pinned} into {NPM_DIR}/node_modules …", flush=True)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NPM_DIR, check=True
    )
    return pinned


def bench_urls(ctx: Context) -> Section:
    big, small = (100_000, 10_000) if ctx.quick else (1_000_000, 100_000)
    section = Section("urls-1m", f"`sitemill urls`, {big:,} URLs (and {small:,}) vs npm sitemap")
    base = OUT / "urls-1m"
    lists = {count: ensure_url_list(OUT / "data", count) for count in (big, small)}

    def sitemill(label: str, count: int, name: str, *extra: str) -> Timing:
        command = [*ctx.sitemill, "urls", str(lists[count]), "--base-url", BASE_URL]
        return Timing(label, [*command, "--out", str(base / name), *extra], base / name)

    plain = sitemill(f"sitemill urls {big:,}", big, "sitemill")
    gzipped = sitemill(f"sitemill urls --gzip {big:,}", big, "sitemill-gzip", "--gzip")
    smaller = sitemill(f"sitemill urls {small:,}", small, "sitemill-small")
    # One process: the duplicate check not handed to a helper (sitemill.bounded.repeatfinder).
    alone = sitemill(f"sitemill urls --workers 1 {big:,}", big, "sitemill-alone", "--workers", "1")
    # The floor: a plain loop writing the same bytes with no check (benchmarks/urls_floor.py).
    floor_script = str(BENCH_DIR / "urls_floor.py")
    floor = Timing(
        f"floor: a plain loop, same bytes {big:,}",
        [sys.executable, floor_script, str(lists[big]), str(base / "floor"), BASE_URL],
        base / "floor",
    )
    timings = [plain, gzipped, smaller, alone, floor]
    counts = {plain.label: big, gzipped.label: big, smaller.label: small, floor.label: big}
    counts[alone.label] = big
    npm: Timing | None = None
    try:
        version = ensure_npm_sitemap()
        command = ["node", str(NPM_DIR / "bench.mjs"), str(lists[big]), str(base / "npm"), BASE_URL]
        npm = Timing(f"npm sitemap {version} {big:,}", command, base / "npm")
        timings.append(npm)
        counts[npm.label] = big
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        section.check("npm sitemap: set up", "installed", str(exc), False)

    time_commands(timings, repeat=ctx.repeat, scratch=base)
    section.timings = timings
    for timing in timings:
        if not timing.ok:
            section.check(f"{timing.label}: runs", "exit 0", timing.failure(), False)
            continue
        if timing is floor:
            same = plain.ok and _same_files(floor.out_dir, plain.out_dir)
            measured = "same" if same else "differ (or sitemill failed)"
            section.check("floor: the same bytes as sitemill", "same", measured, same)
            continue
        if timing is alone:
            same = plain.ok and _same_files(alone.out_dir, plain.out_dir)
            measured = "same" if same else "differ (or sitemill failed)"
            section.check("--workers 1: the same bytes", "same", measured, same)
            continue
        ours = timing is not npm
        count = counts[timing.label]
        verify_url_output(section, timing.label, timing.out_dir, count, index_lastmods=ours)
        if ours and count <= VALIDATE_UP_TO:
            validate(section, ctx, timing.label, timing.out_dir)

    plain_s, gzip_s = median_or_none(plain), median_or_none(gzipped)
    floor_s = median_or_none(floor)
    over = plain_s / floor_s if plain_s and floor_s else None
    ratio_check(section, "sitemill vs its floor: time", "≤ 1.30×", over, (over or 9) <= 1.3)
    npm_s = median_or_none(npm) if npm else None
    speedup = npm_s / plain_s if npm_s and plain_s else None
    ratio_check(section, "sitemill vs npm: speed-up", "≥ 2.00×", speedup, (speedup or 0) >= 2)
    slowdown = gzip_s / plain_s if gzip_s and plain_s else None
    ratio_check(
        section, "--gzip vs uncompressed: time", "≤ 1.50×", slowdown, (slowdown or 9) <= 1.5
    )
    # The helper is a second process: their memory together (PSS: shared pages once).
    pss_dir = base / "sitemill-pss"
    shutil.rmtree(pss_dir, ignore_errors=True)
    command = [*ctx.sitemill, "urls", str(lists[big]), "--base-url", BASE_URL, "--out"]
    summed = summed_pss([*command, str(pss_dir)], base) if plain.ok else None
    section.check(
        f"sitemill {big:,}: peak memory, its processes summed (PSS)",
        "≤ 64 MB",
        "n/a (a run failed)" if summed is None else f"{summed / MB:.1f} MB",
        summed is not None and summed <= 64 * MB,
    )
    growth = plain.peak_rss_bytes / smaller.peak_rss_bytes if plain.ok and smaller.ok else None
    ratio_check(section, f"peak RSS {big:,} vs {small:,}", "≤ 1.50×", growth, (growth or 9) <= 1.5)
    return section


def _same_files(left: Path, right: Path) -> bool:
    """Whether two folders hold the same files with the same bytes."""
    names = sorted(path.name for path in left.iterdir())
    if names != sorted(path.name for path in right.iterdir()):
        return False
    return all((left / name).read_bytes() == (right / name).read_bytes() for name in names)


def bench_build_git(ctx: Context) -> Section:
    plan = RepoPlan(1_000, 100) if ctx.quick else RepoPlan(10_000, 1_000)
    section = Section(
        "build-git-10k",
        f"`sitemill build --lastmod git`, {plan.files:,} pages, {plan.commits:,} commits",
    )
    repo = ensure_git_repo(OUT / "data", plan)
    base = OUT / "build-git-10k"
    out_dir = base / "sitemill"
    command = [*ctx.sitemill, "build", str(repo), "--base-url", BASE_URL, "--lastmod", "git"]
    label = f"sitemill build {plan.files:,} pages"
    timing = Timing(label, [*command, "--out", str(out_dir)], out_dir)
    # Content dates (the default) against plain git dates: the fingerprint of every page,
    # and each file's walk back through its versions (one cat-file for the blobs it needs).
    plain_dir = base / "plain"
    plain = Timing(
        "the same, --no-content-dates",
        [*command, "--out", str(plain_dir), "--no-content-dates"],
        plain_dir,
    )
    # The floor (issue 64): `import sitemill`, sitemill's one git log pass, every page read once.
    floor_dir = base / "floor"
    floor = Timing(
        "floor: import, git log, every page read",
        [sys.executable, str(BENCH_DIR / "git_floor.py"), str(repo)],
        floor_dir,
    )
    time_commands([timing, plain, floor], repeat=ctx.repeat, scratch=base)
    section.timings += [timing, plain, floor]
    if not timing.ok or not plain.ok or not floor.ok:
        failed = next(run for run in (timing, plain, floor) if not run.ok)
        section.check(f"{failed.label}: runs", "exit 0", failed.failure(), False)
        section.check("end-to-end time", "≤ 0.50 s", "n/a (a run failed)", False)
        return section
    expected = plan.expected_lastmods()
    today = datetime.now(UTC).date()
    problem = ""
    seen: set[str] = set()
    try:
        for _, entry in read_sitemaps(out_dir, SitemapSet()):
            stamp = lastmod_timestamp(entry.lastmod)
            if entry.loc in seen or entry.loc not in expected:
                problem = f"unexpected or repeated URL {entry.loc}"
            elif stamp is not None and datetime.fromtimestamp(stamp, UTC).date() == today:
                problem = f"{entry.loc}: lastmod {entry.lastmod} is today, not a commit date"
            elif stamp != expected[entry.loc]:
                problem = f"{entry.loc}: lastmod {entry.lastmod}, last commit {expected[entry.loc]}"
            if problem:
                break
            seen.add(entry.loc)
    except (OSError, ValueError, SyntaxError) as exc:
        problem = f"unreadable output: {exc}"
    if not problem and len(seen) != plan.files:
        problem = f"{len(seen):,} URLs, expected {plan.files:,}"
    measured = problem or f"{len(seen):,} URLs, lastmods = last commit dates"
    section.check(f"{label}: output correct", "URLs + commit dates", measured, not problem)
    validate(section, ctx, label, out_dir)
    wall = timing.wall_s
    # Every page check on (each head read for noindex, redirects, canonicals, not a page)
    # and content dates: every page fingerprinted, git's versions walked back.
    section.check("end-to-end time", "≤ 0.50 s", f"{wall:.2f} s", wall <= 0.5)
    section.check("--no-content-dates", "< 1.00 s", f"{plain.wall_s:.2f} s", plain.wall_s < 1)
    over = wall / floor.wall_s if floor.wall_s else None
    ratio_check(section, "end-to-end vs its floor: time", "≤ 5.00×", over, (over or 9) <= 5)
    return section


def bench_validate_50k(ctx: Context) -> Section:
    section = Section("validate-50k", f"`sitemill validate`, {URLS:,} URLs, vs xmllint --schema")
    bench_validate(section, ctx.sitemill, repeat=ctx.repeat, out=OUT)
    return section


def bench_bucket_20k(ctx: Context) -> Section:
    count = "2,000" if ctx.quick else "20,000"
    section = Section("bucket-20k", f"bucket rebuilds of {count} HTML pages: S3 requests (moto)")
    bench_bucket(section, quick=ctx.quick)
    return section


def bench_bucket_sharded(ctx: Context) -> Section:
    sizes = "2,000 and 20,000" if ctx.quick else "20,000 and 200,000"
    section = Section(
        "bucket-sharded", f"a one-page deploy on sharded buckets of {sizes} pages (moto server)"
    )
    bench_bucket_shards(section, quick=ctx.quick)
    return section


def bench_bucket_full_1m(ctx: Context) -> Section:
    keys = "100,000" if ctx.quick else "1,000,000"
    section = Section(
        "bucket-full-1m", f"a sharded bucket's full rebuild of {keys} keys, then again"
    )
    bench_bucket_full(section, quick=ctx.quick)
    return section


def bench_fingerprint(ctx: Context) -> Section:
    section = Section("fingerprint", "content fingerprint of a generated 100 KB page (in process)")
    measure_fingerprint(section, quick=ctx.quick)
    return section


def bench_llms_full_1500(ctx: Context) -> Section:
    pages = QUICK_LLMS_PAGES if ctx.quick else LLMS_PAGES
    section = Section(
        "llms-full",
        f"llms-full.txt of {pages:,} real pages against their content fingerprints; "
        "`sitemill build --llms-full` against `sitemill build`",
    )
    bench_llms_full(section, quick=ctx.quick)
    bench_llms_build(section, ctx.sitemill, out=OUT, quick=ctx.quick, repeat=ctx.repeat)
    return section


def bench_hostile_inputs(ctx: Context) -> Section:
    section = Section("hostile", "the worst inputs each reader is given, at the most it reads")
    bench_hostile(section, quick=ctx.quick)
    return section


def bench_state_100k(ctx: Context) -> Section:
    count = "10,000" if ctx.quick else "100,000"
    section = Section("state-100k", f"the state of {count} pages: dump, parse, peak RSS")
    bench_state(section, quick=ctx.quick)
    return section


def bench_check_10k(ctx: Context) -> Section:
    count = "1,000" if ctx.quick else "10,000"
    section = Section("check-10k", f"`sitemill check --all` of {count} URLs on loopback")
    bench_check(section, quick=ctx.quick)
    return section


def bench_action_install(ctx: Context) -> Section:
    section = Section("action-install", "the GitHub Action's steps on a new runner, cold and warm")
    bench_action(section, repeat=ctx.repeat)
    return section


def bench_extensions_30k(ctx: Context) -> Section:
    count = "3,000" if ctx.quick else "30,000"
    section = Section(
        "extensions-30k", f"`sitemill build`, {count} pages in 3 languages: alternates, images"
    )
    bench_extensions(section, ctx.sitemill, out=OUT, quick=ctx.quick, repeat=ctx.repeat)
    return section


def bench_plan_100m(ctx: Context) -> Section:
    count = f"{QUICK_KEYS if ctx.quick else KEYS:,}"
    section = Section(
        "plan-100m", f"the shard plan of {count} keys, streamed; shards a change touches"
    )
    bench_plan(section, quick=ctx.quick)
    return section


def bench_content_dates_2k(ctx: Context) -> Section:
    pages = "200" if ctx.quick else "2,000"
    section = Section(
        "content-dates-2k",
        f"content dates from git, {pages} pages of 200 KB x 5 versions, vs plain git dates",
    )
    bench_history(section, quick=ctx.quick, sitemill=ctx.sitemill, repeat=ctx.repeat, out=OUT)
    return section


def bench_second_run_sites(ctx: Context) -> Section:
    section = Section(
        "second-run",
        f"a second run of three real sites with long histories (nothing new; {NEW} new commits) "
        "vs the plain run",
    )
    bench_second_run(section, data=ctx.realsites, sitemill=ctx.sitemill, repeat=ctx.repeat, out=OUT)
    return section


def bench_distributed_10m(ctx: Context) -> Section:
    rows = "1,000,000" if ctx.quick else "10,000,000"
    section = Section(
        "distributed-10m",
        f"a distributed rebuild's stages over a {rows}-row S3 Inventory; its cost calculator",
    )
    figures = bench_distributed(section, quick=ctx.quick)
    plan, shuffles, renders = figures["plan"], figures["shuffle"], figures["render"]
    rates = Rates(
        render_urls_s=sum(r["rows"] for r in renders) / sum(r["seconds"] for r in renders),
        shuffle_rows_s=sum(s["rows"] for s in shuffles) / sum(s["seconds"] for s in shuffles),
        sample_rows_s=figures["rows"] / plan["seconds"],
    )
    section.notes = ["  cost and wall clock, estimated from the rates above:", *table(rates)]
    return section


def bench_lambda_start(ctx: Context) -> Section:
    section = Section("lambda-start", "the Lambda's cold start: its import, a first event, its zip")
    bench_lambda(section)
    return section


def bench_tree_sharded(ctx: Context) -> Section:
    pages = "20,000" if ctx.quick else "200,000"
    section = Section("tree-sharded", f"a {pages}-page tree as shards: the files a change rewrites")
    bench_tree_shards(section, sitemill=ctx.sitemill, out=OUT, quick=ctx.quick)
    return section


def bench_tree_pool_5k(ctx: Context) -> Section:
    pages = QUICK_POOL_PAGES if ctx.quick else POOL_PAGES
    section = Section(
        "tree-pool-5k", f"`sitemill build`, {pages:,} pages of 100 KB: every core vs one process"
    )
    cores = len(os.sched_getaffinity(0))
    bench_tree_pool(
        section, sitemill=ctx.sitemill, out=OUT, quick=ctx.quick, repeat=ctx.repeat, cores=cores
    )
    return section


def bench_first_run_cores(ctx: Context) -> Section:
    section = Section(
        "first-run-cores", "a first run with content dates: every core vs one process; CPU per blob"
    )
    bench_first_run(
        section, ctx.sitemill, out=OUT, quick=ctx.quick, repeat=ctx.repeat, realsites=ctx.realsites
    )
    return section


def bench_ladder_3k(ctx: Context) -> Section:
    pages = QUICK_LADDER_PAGES if ctx.quick else LADDER_PAGES
    section = Section(
        "ladder-3k", f"`sitemill build`, {pages:,} pages, no evidence: a first and a second run"
    )
    bench_ladder(
        section,
        sitemill=ctx.sitemill,
        baseline=ctx.baseline,
        out=OUT,
        quick=ctx.quick,
        repeat=5 if ctx.baseline else ctx.repeat,
    )
    return section


def bench_second_impls_section(ctx: Context) -> Section:
    section = Section("second-impls", "each second implementation of a job against the first")
    bench_second_impls(section, out=OUT, quick=ctx.quick, repeat=ctx.repeat)
    return section


def bench_diff_50k(ctx: Context) -> Section:
    pages = QUICK_DIFF_PAGES if ctx.quick else DIFF_PAGES
    section = Section(
        "diff-50k", f"the diff of a {pages:,}-page site against its state, and its floor"
    )
    bench_diff(section, sitemill=ctx.sitemill, out=OUT, quick=ctx.quick, repeat=ctx.repeat)
    return section


BENCHMARKS: dict[str, Callable[[Context], Section]] = {
    "urls-1m": bench_urls,
    "build-git-10k": bench_build_git,
    "validate-50k": bench_validate_50k,
    "bucket-20k": bench_bucket_20k,
    "bucket-sharded": bench_bucket_sharded,
    "bucket-full-1m": bench_bucket_full_1m,
    "fingerprint": bench_fingerprint,
    "llms-full": bench_llms_full_1500,
    "hostile": bench_hostile_inputs,
    "content-dates-2k": bench_content_dates_2k,
    "second-run": bench_second_run_sites,
    "state-100k": bench_state_100k,
    "extensions-30k": bench_extensions_30k,
    "plan-100m": bench_plan_100m,
    "tree-sharded": bench_tree_sharded,
    "tree-pool-5k": bench_tree_pool_5k,
    "first-run-cores": bench_first_run_cores,
    "ladder-3k": bench_ladder_3k,
    "distributed-10m": bench_distributed_10m,
    "lambda-start": bench_lambda_start,
    "check-10k": bench_check_10k,
    "action-install": bench_action_install,
    "diff-50k": bench_diff_50k,
    "second-impls": bench_second_impls_section,
}


def print_section(section: Section, repeat: int) -> None:
    runs = "1 run" if repeat == 1 else f"median of {repeat} runs"
    print(f"\n{section.name}: {section.description} ({runs})")
    print(f"  {'command':<44} {'wall':>9} {'CPU':>9} {'peak RSS':>10}")
    for timing in section.timings:
        if timing.ok:
            wall, cpu = f"{timing.wall_s:.2f} s", f"{timing.cpu_s:.2f} s"
            rss = f"{timing.peak_rss_bytes / MB:.1f} MB"
        else:
            wall, cpu, rss = "failed", "-", "-"
        print(f"  {timing.label:<44} {wall:>9} {cpu:>9} {rss:>10}")
    print(f"  {'check':<44} {'target':>20}  result")
    for check in section.checks:
        verdict = "PASS" if check.passed else "FAIL"
        print(f"  {check.name:<44} {check.target:>20}  {verdict}  {check.measured}")
    for note in section.notes:
        print(note)


def environment(ctx: Context) -> dict[str, str]:
    version = subprocess.run(
        [*ctx.sitemill, "--version"], capture_output=True, text=True, env=clean_env()
    )
    node = shutil.which("node")
    node_version = (
        subprocess.run([node, "--version"], capture_output=True, text=True) if node else None
    )
    return {
        "sitemill": version.stdout.strip() or f"unavailable (exit {version.returncode})",
        "python": platform.python_version(),
        "node": node_version.stdout.strip() if node_version else "missing",
        "platform": platform.platform(),
        "cpus": str(os.cpu_count()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="10× smaller sizes, 1 run each")
    parser.add_argument("--only", choices=sorted(BENCHMARKS), help="run one benchmark")
    parser.add_argument(
        "--baseline", metavar="SITEMILL", help="ladder-3k: the sitemill before the ladder (0fab719)"
    )
    parser.add_argument(
        "--realsites",
        metavar="DIR",
        type=Path,
        help="second-run, first-run-cores: the real sites' checkouts (realsites/checkout.py "
        "--data; default: $REALSITES_DATA)",
    )
    args = parser.parse_args(argv)
    ctx = Context(
        quick=args.quick,
        repeat=1 if args.quick else 3,
        sitemill=sitemill_command(),
        baseline=args.baseline,
        realsites=args.realsites,
    )
    OUT.mkdir(parents=True, exist_ok=True)
    env = environment(ctx)
    env["bytecode"] = compile_bytecode()
    print(
        f"sitemill benchmarks{' (--quick)' if ctx.quick else ''}: {env['sitemill']}, "
        f"Python {env['python']}, node {env['node']}, {env['cpus']} CPUs, {env['bytecode']}"
    )
    load = os.getloadavg()[0]
    if load > 0.5 * (os.cpu_count() or 1):
        print(
            f"note: load average {load:.1f} on {env['cpus']} CPUs: other work is running, so "
            "timings are noisy (CPU times and ratios less so)"
        )
    sections = []
    for name, bench in BENCHMARKS.items():
        if args.only in (None, name):
            print(f"running {name} …", flush=True)
            section = bench(ctx)
            print_section(section, ctx.repeat)
            sections.append(section)
    failed = [check for section in sections for check in section.checks if not check.passed]
    results = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": ctx.quick,
        "runs_per_command": ctx.repeat,
        "environment": env,
        "load_average_at_start": load,
        "load_average_at_end": os.getloadavg()[0],
        "passed": not failed,
        "benchmarks": {
            section.name: {
                "description": section.description,
                "timings": {timing.label: timing.as_json() for timing in section.timings},
                "checks": [asdict(check) for check in section.checks],
            }
            for section in sections
        },
    }
    results_path = OUT / "results.json"
    results_path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(
        f"\n{len(failed)} of {sum(len(s.checks) for s in sections)} checks failed; "
        f"results in {results_path.relative_to(BENCH_DIR.parent)}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
