"""`make bench` section tree-sharded: what a change costs a 200,000-page tree written as shards.

The tree (generated once under benchmarks/out/data/): 40 sections of 5,000 small pages,
s000/ s002/ ... s078/, dated by mtime with content dates on (the state keeps the plan). Four
builds into one output folder, in order: the first (every child written); one new section of
50,000 pages (s041/, between two others); one page edited; nothing changed. After each, the
files whose bytes changed are counted. Targets: the new section rewrites the child it lands in,
that child's new parts and the index, nothing else; the edit rewrites one child and the index;
the unchanged rebuild writes no sitemap. Times are whole `sitemill build` runs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from datasets import BASE_URL
from harness import clean_env

SECTIONS, PER_SECTION, NEW_SECTION = 40, 5_000, 50_000
_VERSION = 1
_MTIME = 1_709_294_400  # 2024-03-01T12:00:00Z
OWN = ("sitemap", "sitemill-state")


def _page(section: int, number: int) -> bytes:
    return (
        f"<!doctype html><html><head><title>Section {section} page {number}</title></head>"
        f"<body><main><h1>Page {number}</h1><p>Text of page {number}.</p></main></body></html>"
    ).encode()


def _write_section(root: Path, section: int, count: int) -> None:
    folder = root / f"s{section:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        path = folder / f"p{number:05d}.html"
        path.write_bytes(_page(section, number))
        os.utime(path, (_MTIME, _MTIME))


def ensure_tree(directory: Path, sections: int, per_section: int) -> Path:
    """The base tree (without the new section), built once."""
    tree = directory / f"tree-sharded-{sections}x{per_section}.v{_VERSION}"
    if not tree.is_dir():
        partial = tree.with_name(tree.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        for section in range(0, 2 * sections, 2):
            _write_section(partial, section, per_section)
        partial.replace(tree)
    return tree


def _snapshot(out: Path) -> dict[str, str]:
    return {
        path.name: hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
        for path in out.iterdir()
        if path.name.startswith(OWN)
    }


def _changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    names = set(before) | set(after)
    return sorted(
        name
        for name in names
        if before.get(name) != after.get(name) and not name.startswith("sitemill-state")
    )


def _build(sitemill: list[str], site: Path, out: Path, *extra: str) -> float:
    command = [*sitemill, "build", str(site), "--base-url", BASE_URL, "--lastmod", "mtime"]
    start = time.perf_counter()
    subprocess.run(
        [*command, *extra, "--out", str(out), "-q"],
        check=True,
        env=clean_env(),
        capture_output=True,
    )
    return time.perf_counter() - start


def bench_tree_shards(section: Any, *, sitemill: list[str], out: Path, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the builds' times and the files each changed."""
    sections, per_section, new = (
        (20, 1_000, 5_000) if quick else (SECTIONS, PER_SECTION, NEW_SECTION)
    )
    # (--quick: shards of 1,000, so that 20,000 pages make children too)
    extra = ("--shard-fill", "1000", "--max-urls", "1250") if quick else ()
    base = ensure_tree(out / "data", sections, per_section)
    work = out / "tree-sharded"
    shutil.rmtree(work, ignore_errors=True)
    site, output = work / "site", work / "out"
    shutil.copytree(base, site)
    output.mkdir(parents=True)
    pages = sections * per_section
    first = _build(sitemill, site, output, *extra)
    before = _snapshot(output)
    children = len([name for name in before if name.startswith("sitemap-")])
    section.check(
        f"first build, {pages:,} pages", "report", f"{first:.2f} s, {children} children", True
    )
    _write_section(site, 2 * (sections // 2) + 1, new)  # between two sections
    added = _build(sitemill, site, output, *extra)
    after = _snapshot(output)
    changed = _changed(before, after)
    grown = [name for name in changed if name not in before]
    kept = [name for name in changed if name in before and name in after and name != "sitemap.xml"]
    ok = "sitemap.xml" in changed and len(kept) <= 1 and all(n in after for n in changed)
    section.check(
        f"{new:,} pages added in one section",
        "its children + index",
        f"{len(changed)} files ({len(grown)} new, {len(kept)} rewritten, index), {added:.2f} s",
        ok,
    )
    edited = site / "s000" / "p00007.html"
    edited.write_bytes(_page(0, 7).replace(b"Text of page", b"New text of page"))
    os.utime(edited, (_MTIME + 86_400, _MTIME + 86_400))
    again = _snapshot(output)
    edit = _build(sitemill, site, output, *extra)
    changed = _changed(again, _snapshot(output))
    section.check(
        "one page edited", "2 files", f"{len(changed)} files, {edit:.2f} s", len(changed) == 2
    )
    still = _snapshot(output)
    rerun = _build(sitemill, site, output, *extra)
    changed = _changed(still, _snapshot(output))
    section.check("nothing changed", "0 files", f"{len(changed)} files, {rerun:.2f} s", not changed)
