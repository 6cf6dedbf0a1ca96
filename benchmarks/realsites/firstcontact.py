"""First contact on real built sites: what a new user's first `sitemill build` deletes and leaves.

    python benchmarks/realsites/firstcontact.py --mirrors /work/.mirror --out /tmp/firstcontact \
        [--sitemill .venv/bin/sitemill] [SITE ...]

Each site's published branch is copied from a local mirror (a blob the mirror lacks, a large
image, is left out) into a fresh folder, once per format (xml, txt), and sitemill is run on it as
a new user would. An independent oracle (lxml, no sitemill code) then says which files the run
deleted and whether each was a sitemap (root urlset/sitemapindex in the sitemaps.org
namespace), whether a live index names a child that is missing, and whether `sitemill validate`
of the entry file passes. One JSON line per site and format; results.json in --out.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from checkout import find_mirror  # (this folder's own: a mirror's bare git directory)
from lxml import etree

# Generators' own sitemaps as they publish them: (name, repository, branch, base URL).
SITES = [
    ("pymdown", "facelessuser/pymdown-extensions", "gh-pages",
     "https://facelessuser.github.io/pymdown-extensions/"),  # MkDocs (+ sitemap.xml.gz)
    ("archcraft", "archcraft-os/documentation", "gh-pages",
     "https://wiki.archcraft.io/"),  # Docusaurus, i18n
    ("typescript-book", "gibbok/typescript-book", "gh-pages",
     "https://gibbok.github.io/typescript-book/"),  # Astro: sitemap-index.xml + sitemap-0.xml
    ("geekdude", "Geekdude/Geekdude.github.io", "gh-pages",
     "https://geekdude.github.io/"),  # Jekyll (jekyll-sitemap), feed.xml beside it
    ("hugegraph", "apache/hugegraph-doc", "asf-site",
     "https://hugegraph.apache.org/"),  # Hugo, en + cn: an index naming both; index.xml feeds
]  # fmt: skip
NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def is_sitemap(data: bytes) -> bool:
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    try:
        root = etree.fromstring(data, PARSER)
    except etree.XMLSyntaxError:
        return False
    return root.tag in (NS + "urlset", NS + "sitemapindex")


def dangling(folder: Path, base: str) -> list[str]:
    """Children that a sitemap index in the folder names and that are not there."""
    base_path = urlsplit(base).path
    gone = []
    for index in folder.rglob("*.xml"):
        data = index.read_bytes()
        if not is_sitemap(data) or etree.fromstring(data, PARSER).tag != NS + "sitemapindex":
            continue
        for loc in etree.fromstring(data, PARSER).iter(NS + "loc"):
            path = urlsplit((loc.text or "").strip()).path
            rel = path[len(base_path) :] if path.startswith(base_path) else path.lstrip("/")
            if not (folder / rel).is_file():
                gone.append(f"{index.relative_to(folder)} -> {rel}")
    return gone


def export(repo: Path, branch: str, dest: Path) -> None:
    """The branch's files into ``dest`` (blobs the mirror lacks left out)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "-z", branch], check=True, capture_output=True
    ).stdout
    entries = []
    for record in filter(None, listing.split(b"\0")):
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000":
            entries.append((sha.decode(), path.decode()))
    batch = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        input="".join(sha + "\n" for sha, _ in entries).encode(),
        capture_output=True,
        check=True,
    ).stdout
    pos = 0
    for _, path in entries:
        end = batch.index(b"\n", pos)
        header, pos = batch[pos:end].split(), end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(batch[pos : pos + size])
        pos += size + 1


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def first_contact(sitemill: str, folder: Path, base: str, fmt: str) -> dict[str, object]:
    before = snapshot(folder)
    run = subprocess.run(
        [sitemill, "build", str(folder), "--base-url", base, "--format", fmt],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    after = snapshot(folder)
    deleted = sorted(set(before) - set(after))
    entry = folder / ("sitemap.xml" if fmt == "xml" else "sitemap.txt")
    valid = subprocess.run([sitemill, "validate", str(entry)], capture_output=True, text=True)
    return {
        "rc": run.returncode,
        "traceback": "Traceback" in run.stderr,
        "deleted": deleted,
        "deleted_not_sitemap": [name for name in deleted if not is_sitemap(before[name])],
        "index_names_missing": dangling(folder, base),
        "validate_rc": valid.returncode,
        "said": [line for line in run.stderr.splitlines() if "sitemap" in line.lower()][:4],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sitemill", default=str(Path(sys.executable).with_name("sitemill")))
    parser.add_argument("sites", nargs="*", help="names to run (default: all)")
    args = parser.parse_args()
    rows = []
    for name, repo, branch, base in SITES:
        mirror = find_mirror(args.mirrors, repo)
        if (args.sites and name not in args.sites) or mirror is None:
            continue
        for fmt in ("xml", "txt"):
            folder = args.out / f"{name}-{fmt}"
            export(mirror, branch, folder)
            rows.append(
                {"site": name, "format": fmt, **first_contact(args.sitemill, folder, base, fmt)}
            )
            print(json.dumps(rows[-1]), flush=True)
    (args.out / "results.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
