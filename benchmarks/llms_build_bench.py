"""`make bench` section llms-full, its second half: `sitemill build --llms-full` against a plain
`sitemill build` of the same 1,500 real pages (a first run each: no state, a fresh --out),
round-robin; the plain build's sitemap and the --llms-full build's must be the same bytes.

The tree: llms_full_bench's real pages (a Docusaurus site's 388, or tests/llms/realpages)
copied into folders c0/, c1/, … until 1,500 pages (300 with --quick), each page's mtime fixed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from harness import Timing, time_commands
from llms_full_bench import BASE, _site_pages

# Wall time, not CPU: a build of 1,500 such pages (48 MB) reads them in worker processes, whose
# CPU the timing wrapper does not see (they are the fork server's children). Measured: 41.5 s
# with --llms-full against 4.8 s (8.6x; the conversion runs in the build's own process), median
# of 3 interleaved runs, load 5 on 2 cores; 300 pages (no pool): 7.9 s of CPU against 1.0 s.
BUILD_RATIO = 12.0
MTIME = 1_700_000_000


def ensure_tree(folder: Path, count: int) -> Path:
    """A tree of ``count`` real pages under ``folder`` (made once)."""
    site = folder / f"site-{count}"
    if (site / "done").exists():
        return site
    shutil.rmtree(site, ignore_errors=True)
    pages = _site_pages(folder / "scratch")
    for n in range(count):
        relative, source = pages[n % len(pages)]
        target = (
            site
            / f"c{n // len(pages)}"
            / (relative or "")
            / ("" if relative.endswith(".html") else "index.html")
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        os.utime(target, (MTIME, MTIME))
    (site / "done").write_text("")
    return site


def bench_llms_build(
    section: Any, sitemill: list[str], *, out: Path, quick: bool, repeat: int
) -> None:
    """Fill ``section`` (run.Section) with the builds' timings and checks."""
    count = 300 if quick else 1_500
    site = ensure_tree(out / "data", count)
    base = out / "llms-full"
    command = [*sitemill, "-q", "build", str(site), "--base-url", BASE, "--lastmod", "mtime"]
    plain = Timing(
        f"build {count:,} pages", [*command, "--out", str(base / "plain")], base / "plain"
    )
    full = Timing(
        "the same, --llms-full",
        [*command, "--llms-full", "--out", str(base / "full")],
        base / "full",
    )
    time_commands([plain, full], repeat=repeat, scratch=base)
    section.timings += [plain, full]
    failed = [timing for timing in (plain, full) if not timing.ok]
    if failed:
        section.check(f"{failed[0].label}: runs", "exit 0", failed[0].failure(), False)
        return
    ratio = full.wall_s / plain.wall_s
    section.check(
        "build --llms-full vs build (wall, medians)",
        f"≤ {BUILD_RATIO:.0f}×",
        f"{ratio:.1f}× ({full.wall_s:,.1f} s vs {plain.wall_s:,.1f} s)",
        ratio <= BUILD_RATIO,
    )
    same = (plain.out_dir / "sitemap.xml").read_bytes() == (
        full.out_dir / "sitemap.xml"
    ).read_bytes()
    written = (full.out_dir / "llms-full.txt").exists()
    section.check(
        "the sitemap; llms-full.txt",
        "the same bytes; written",
        f"{'the same' if same else 'different'}; {'written' if written else 'missing'}",
        same and written,
    )
