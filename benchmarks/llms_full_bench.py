"""`make bench` section llms-full: llms-full.txt of a 1,500-page site against its fingerprints.

The pages are real: a Docusaurus site's 388 built pages (/work/rs-speed/archcraft, or the folder
LLMS_BENCH_SITE names), else the 24 committed pages of tests/llms/realpages; repeated (each copy
at its own URL) to 1,500. In a child process per size, in this order: each page's content
fingerprint (the floor: what a build already pays per page), then llms-full.txt's two passes
(the site's repeated blocks and each page's Markdown on a guess of them, then the pages the guess
missed; llms.conversion, as a build calls it) and the file (llms.full), in one process. Reported:
the conversion's cost per page as a ratio to the fingerprint's, the seconds for 1,500 pages, and
the child's peak memory at 1,500 pages against 375 (the passes hold hashes, one page at a time
and at most about the file's limit of Markdown: it must not grow with the pages beyond the file,
which is bounded by its byte limit).

    .venv/bin/python benchmarks/run.py --only llms-full
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import own_peak_rss_bytes

PAGES, QUICK_PAGES = 1_500, 300
# The two passes (one bs4 parse and one markdownify conversion per page, beside a sample's
# parses) against one fingerprint of the same page: measured 15-16x on archcraft's pages with two
# parses a page (2 shared cores, load 4-5; issue 81).
TARGET_RATIO = 20.0
MEMORY_GROWTH = 1.5  # peak memory at 4x the pages
# The first pass converts each page on a guess of the site's repeated blocks, the second only
# the pages the guess missed: most of the work is the first's (0.99 on archcraft's pages).
FIRST_SHARE = 0.80
SITE = Path(os.environ.get("LLMS_BENCH_SITE", "/work/rs-speed/archcraft"))
REAL_PAGES = Path(__file__).resolve().parent.parent / "tests" / "llms" / "realpages"
BASE = "https://example.org/"


def _site_pages(folder: Path) -> list[tuple[str, Path]]:
    if not (SITE / "index.html").exists():
        for archive in sorted(REAL_PAGES.glob("*.tar.xz")):
            with tarfile.open(archive) as tar:
                tar.extractall(folder / archive.name.removesuffix(".tar.xz"), filter="data")
        root = folder
    else:
        root = SITE
    found = []
    for path in sorted(root.rglob("*.html")):
        relative = path.relative_to(root).as_posix()
        if "404" not in relative and b"http-equiv" not in path.read_bytes()[:4096]:
            found.append((relative.removesuffix("index.html"), path))
    return found


def _child(count: int) -> dict[str, Any]:
    from sitemill.config.llms import DEFAULT_LLMS_FULL_BYTES
    from sitemill.lastmod.fingerprint.digest import fingerprint_html
    from sitemill.llms.conversion import site_markdowns
    from sitemill.llms.full import llms_full_text
    from sitemill.llms.page import LlmsPage, LlmsSite

    with tempfile.TemporaryDirectory() as scratch:
        site = _site_pages(Path(scratch))
        pages = [
            (LlmsPage(f"{BASE}c{n // len(site)}/{site[n % len(site)][0]}", f"Page {n}"), path)
            for n in range(count)
            for path in [site[n % len(site)][1]]
        ]
        listed = [(page, functools.partial(Path.read_bytes, path)) for page, path in pages]
        start = time.process_time()
        for _, read in listed:
            fingerprint_html(read())
        floor = time.process_time() - start
        start = time.process_time()
        converted = site_markdowns(listed, budget=DEFAULT_LLMS_FULL_BYTES)  # (as a build)
        first = time.process_time() - start
        llms = LlmsSite(BASE, BASE + "sitemap.xml", summary="A site.")
        text = llms_full_text(llms, "Site", converted, urls=[page.url for page, _ in listed])
        both = time.process_time() - start
    return {
        "floor_s": floor,
        "first_s": first,
        "both_s": both,
        "bytes": len(text),
        "site_pages": len(site),
        "stopped": b"llms-full.txt stops here" in text,
        "peak_rss": own_peak_rss_bytes(),  # (ru_maxrss would be run.py's peak as well)
    }


def _run_child(count: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(count)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def bench_llms_full(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the checks above."""
    count = QUICK_PAGES if quick else PAGES
    small, big = _run_child(count // 4), _run_child(count)
    per_page = big["both_s"] / count * 1e6
    ratio = big["both_s"] / big["floor_s"]
    section.check(
        f"llms-full of {count:,} pages vs their fingerprints (CPU)",
        f"≤ {TARGET_RATIO:.0f}×",
        f"{ratio:.1f}× ({per_page / 1000:,.1f} ms a page, "
        f"{big['floor_s'] / count * 1e6:,.0f} µs a fingerprint)",
        ratio <= TARGET_RATIO,
    )
    share = big["first_s"] / big["both_s"]
    section.check(
        "of which the first pass (repeated blocks, pages converted on its guess)",
        f"≥ {FIRST_SHARE:.2f}",
        f"{share:.2f} ({big['first_s']:,.1f} s of {big['both_s']:,.1f} s)",
        share >= FIRST_SHARE,
    )
    growth = big["peak_rss"] / small["peak_rss"]
    section.check(
        f"peak memory, {count:,} pages vs {count // 4:,}",
        f"≤ {MEMORY_GROWTH:.1f}×",
        f"{growth:.2f}× ({big['peak_rss'] / 2**20:,.0f} MiB vs "
        f"{small['peak_rss'] / 2**20:,.0f} MiB)",
        growth <= MEMORY_GROWTH,
    )
    stop = "stopped at its limit" if big["stopped"] else "whole"
    section.notes.append(
        f"{big['site_pages']} real pages repeated to {count:,}; llms-full.txt "
        f"{big['bytes']:,} bytes ({stop})"
    )


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    print(json.dumps(_child(int(sys.argv[2]))))
