"""`make bench` section extensions-30k: hreflang alternates and images on a generated tree.

The tree: 10,000 pages in each of three languages (en/, fr/, de/; 30,000 pages), each page's
head linking its three versions and x-default (relative hrefs, as Hugo and MkDocs write
them) and its body showing 20 images (relative, srcset, <picture>, one on another host, one
data: URI, one tracking pixel). Timed: `sitemill build` with alternates (the default), with
`--no-alternates`, and with `--images` added. Targets: alternates at most twice the time
without them; every URL's cluster complete and reciprocal; the output valid
(`sitemill validate`, XSDs and the extension rules).

    .venv/bin/python benchmarks/run.py --only extensions-30k
"""

from __future__ import annotations

import errno
import gzip
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from harness import Timing, clean_env, time_commands

LANGUAGES = ("en", "fr", "de")
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
}
BASE_URL = "https://bench.example.com/"
FIXED_MTIME = 1_709_294_400
IMAGES_PER_PAGE = 20  # of which 17 are listed: the data: URI, the pixel and the off-site one not


class Section(Protocol):
    timings: list[Timing]

    def check(self, name: str, target: str, measured: str, passed: bool) -> None: ...


def page(lang: str, number: int) -> str:
    links = "".join(
        f'<link rel="alternate" hreflang="{other}" href="../../{other}/p{number}/">'
        for other in LANGUAGES
    )
    links += f'<link rel="alternate" hreflang="x-default" href="/en/p{number}/">'
    # 14 + 1 + 2 listed, and 3 left out: 20 images on the page, 17 in the sitemap.
    images = [f'<img src="img/{n}.png" alt="figure {n}">' for n in range(IMAGES_PER_PAGE - 6)]
    images += [
        f'<img srcset="/shared/{number}-1x.jpg 1x, /shared/{number}-2x.jpg 2x">',
        f'<picture><source srcset="/shared/{number}.avif">'
        f'<img src="/shared/{number}.jpg"></picture>',
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
        '<img src="/pixel.gif" width="1" height="1">',
        '<img src="https://elsewhere.example.net/badge.svg">',
    ]
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>Page {number} ({lang})</title>{links}"
        '<link rel="stylesheet" href="/css/site.css"></head><body>'
        f"<h1>Page {number}</h1><p>{'Some text of the page. ' * 40}</p>"
        f"{''.join(images)}</body></html>"
    )


def ensure_tree(root: Path, pages_per_language: int) -> Path:
    """The generated site, with a file for every image its pages show on its own host (a
    sitemap lists only images whose file is in the site): hard links to one small file."""
    site = root / f"multilingual-{pages_per_language}-with-images"
    marker = site / ".complete"
    if marker.exists():
        return site
    site.mkdir(parents=True, exist_ok=True)
    blob = site / "pixel.gif"
    blob.write_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    shared = site / "shared"
    shared.mkdir(exist_ok=True)
    for number in range(pages_per_language):
        for name in (f"{number}-1x.jpg", f"{number}-2x.jpg", f"{number}.avif", f"{number}.jpg"):
            _link(blob, shared / name)
    for lang in LANGUAGES:
        for number in range(pages_per_language):
            folder = site / lang / f"p{number}"
            (folder / "img").mkdir(parents=True, exist_ok=True)
            for image in range(IMAGES_PER_PAGE - 6):
                _link(blob, folder / "img" / f"{image}.png")
            file = folder / "index.html"
            file.write_text(page(lang, number), encoding="utf-8")
            os.utime(file, (FIXED_MTIME, FIXED_MTIME))
    marker.write_text("")
    return site


def _link(source: Path, target: Path) -> None:
    """A hard link to the one image blob, or a copy once the file system holds no more links
    to it (ext4 allows 65,000; the 30,000 pages name more images than that)."""
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno != errno.EMLINK:
            raise
        shutil.copyfile(source, target)


def url_elements(out_dir: Path) -> Iterator[ET.Element]:
    for file in sorted(out_dir.glob("sitemap*.xml*")):
        data = file.read_bytes()
        if file.suffix == ".gz":
            data = gzip.decompress(data)
        root = ET.fromstring(data)
        if root.tag == f"{{{NS['s']}}}urlset":
            yield from root.iterfind("s:url", NS)


def check_clusters(out_dir: Path, expected_urls: int) -> str:
    """'' when every URL has its full, reciprocal cluster of four links; else the problem."""
    clusters: dict[str, frozenset[tuple[str, str]]] = {}
    for url in url_elements(out_dir):
        loc = url.findtext("s:loc", namespaces=NS) or ""
        clusters[loc] = frozenset(
            (link.get("hreflang") or "", link.get("href") or "")
            for link in url.iterfind("xhtml:link", NS)
        )
    if len(clusters) != expected_urls:
        return f"{len(clusters):,} URLs, expected {expected_urls:,}"
    for loc, cluster in clusters.items():
        if len(cluster) != len(LANGUAGES) + 1 or loc not in {href for _, href in cluster}:
            return f"{loc}: cluster {sorted(cluster)}"
        for _, href in cluster:
            if clusters.get(href) != cluster:
                return f"{loc} and {href} list different clusters"
    return ""


def count_images(out_dir: Path) -> tuple[int, int]:
    urls = images = 0
    for url in url_elements(out_dir):
        urls += 1
        images += len(url.findall("image:image", NS))
    return urls, images


def bench_extensions(
    section: Section, sitemill: list[str], *, out: Path, quick: bool, repeat: int
) -> None:
    per_language = 1_000 if quick else 10_000
    total = per_language * len(LANGUAGES)
    site = ensure_tree(out / "data", per_language)
    base = out / "extensions-30k"
    command = [*sitemill, "build", str(site), "--base-url", BASE_URL, "--lastmod", "mtime"]
    command += ["--no-content-dates"]
    on = Timing(
        f"build {total:,} pages, alternates", [*command, "--out", str(base / "on")], base / "on"
    )
    off = Timing(
        "the same, --no-alternates",
        [*command, "--no-alternates", "--out", str(base / "off")],
        base / "off",
    )
    images = Timing(
        f"the same, alternates + --images ({IMAGES_PER_PAGE}/page)",
        [*command, "--images", "--out", str(base / "images")],
        base / "images",
    )
    timings = [on, off, images]
    time_commands(timings, repeat=repeat, scratch=base)
    section.timings += timings
    failed = [timing for timing in timings if not timing.ok]
    if failed:
        section.check(f"{failed[0].label}: runs", "exit 0", failed[0].failure(), False)
        return
    problem = check_clusters(on.out_dir, total)
    section.check(
        "alternates: clusters",
        "4 links per URL, reciprocal",
        problem or f"{total:,} URLs",
        not problem,
    )
    urls, found = count_images(images.out_dir)
    expected = urls * (IMAGES_PER_PAGE - 3)
    section.check(
        "images: listed",
        f"{expected:,} (17 per page)",
        f"{found:,} in {urls:,} URLs",
        found == expected,
    )
    for timing in (on, images):
        done = subprocess.run(
            [*sitemill, "validate", str(timing.out_dir), "--base-url", BASE_URL],
            capture_output=True,
            text=True,
            env=clean_env(),
            check=False,
        )
        last = (done.stdout.strip().splitlines() or [""])[-1]
        section.check(
            f"{timing.label}: sitemill validate",
            "exit 0",
            last[:60] or "valid",
            done.returncode == 0,
        )
    ratio = on.wall_s / off.wall_s
    section.check("alternates vs none", "≤ 2.00×", f"{ratio:.2f}×", ratio <= 2.0)
    section.check("with images", "reported", f"{images.wall_s:.2f} s", True)
