"""`make bench` section validate-50k: `sitemill validate` on a 50,000-URL sitemap vs xmllint.

xmllint (libxml2-utils) checks the same file against the same XSDs (sitemap-all.xsd, with the
project's catalog.xml for xml.xsd and --nonet); without xmllint that check fails, saying how to
install it. A 3 MB gzip bomb (3 GB of tiny elements) must be refused in bounded time and memory.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path
from typing import Any

from datasets import listed_urls, w3c
from harness import Timing, time_commands

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SCHEMAS = Path(__file__).resolve().parent.parent / "src" / "sitemill" / "schemas"
URLS = 50_000
RATIO_TARGET = 1.5
MB = 1_000_000


def ensure_sitemap(directory: Path, count: int = URLS) -> Path:
    """One <urlset> of `count` URLs with lastmods, as sitemill writes them; written once."""
    path = directory / f"sitemap-{count}.v1.xml"
    if path.is_file():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as out:
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n')
        out.writelines(
            f"<url><loc>{url}</loc><lastmod>{w3c(stamp)}</lastmod></url>\n"
            for url, stamp in listed_urls(count)
        )
        out.write("</urlset>\n")
    partial.replace(path)
    return path


def ensure_bomb(directory: Path) -> Path:
    """About 3 MB of gzip that inflates to 3 GB of `<a/>` inside one <url>."""
    path = directory / "sitemap-bomb.v1.xml.gz"
    if not path.is_file():
        directory.mkdir(parents=True, exist_ok=True)
        head = f'<?xml version="1.0"?>\n<urlset xmlns="{SITEMAP_NS}"><url><loc>https://x.example/</loc>'
        member = gzip.compress(b"<a/>" * (1 << 18), compresslevel=9, mtime=0)
        path.write_bytes(gzip.compress(head.encode(), mtime=0) + member * 3_000)
    return path


def bench_validate(section: Any, sitemill: list[str], *, repeat: int, out: Path) -> None:
    """Fill `section` (run.py's Section) with the timings and checks of this benchmark."""
    sitemap, bomb = ensure_sitemap(out / "data"), ensure_bomb(out / "data")
    scratch = out / "validate-50k"
    ours = Timing(
        f"sitemill validate {URLS:,} URLs", [*sitemill, "validate", str(sitemap)], scratch / "a"
    )
    # Exit 1 is the right answer for the bomb: the shell turns it into success for the harness.
    refuse = ["sh", "-c", '"$@"; test $? -eq 1', "sh", *sitemill, "validate", str(bomb)]
    refused = Timing("sitemill validate, 3 MB gzip bomb", refuse, scratch / "b")
    timings = [ours, refused]
    xmllint = shutil.which("xmllint")
    theirs: Timing | None = None
    if xmllint is None:  # (the peer is part of the target: without it, no PASS)
        section.check(
            "xmllint: installed", "present", "missing: apt-get install libxml2-utils", False
        )
    else:
        command = [
            "env",
            f"XML_CATALOG_FILES={SCHEMAS / 'catalog.xml'}",
            xmllint,
            "--noout",
            "--nonet",
        ]
        command += ["--schema", str(SCHEMAS / "sitemap-all.xsd"), str(sitemap)]
        theirs = Timing(f"xmllint --schema sitemap-all.xsd {URLS:,}", command, scratch / "c")
        timings.append(theirs)
    time_commands(timings, repeat=repeat, scratch=scratch)
    section.timings = timings
    for timing in timings:
        if not timing.ok:
            section.check(f"{timing.label}: runs", "exit 0", timing.failure(), False)
    if ours.ok:
        rss = ours.peak_rss_bytes / MB
        section.check(f"{URLS:,} URLs: peak RSS", "≤ 100 MB", f"{rss:.1f} MB", rss <= 100)
    if refused.ok:
        seconds, rss = refused.wall_s, refused.peak_rss_bytes / MB
        measured = f"{seconds:.2f} s, {rss:.1f} MB"
        section.check(
            "gzip bomb: refused", "≤ 2 s, ≤ 100 MB", measured, seconds <= 2 and rss <= 100
        )
    if theirs is not None and ours.ok and theirs.ok:
        for name, ratio in (
            ("wall", ours.wall_s / theirs.wall_s),
            ("CPU", ours.cpu_s / theirs.cpu_s),
        ):
            section.check(
                f"sitemill vs xmllint: {name} time",
                f"≤ {RATIO_TARGET:.2f}×",
                f"{ratio:.2f}×",
                ratio <= RATIO_TARGET,
            )
