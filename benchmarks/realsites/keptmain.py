"""How much of each page's main text (trafilatura's, textoracle.py) sitemill's fingerprint keeps.

    python benchmarks/realsites/keptmain.py --sites benchmarks/realsites/tuning79.json \
        --data /work/realsites-data/tuning79 [--only SITE] [--below 0.5] [--json out.json]

Issue 79's cluster 9: a fingerprint that keeps only the end of a page's prose (the text after
the last link to another page, read as a teaser) misses a rewrite of the rest. For every page of
the checkout at its tip (redirect stubs, ``noindex`` and 404 pages left out, as the oracle does),
the words (letters and digits, case ignored; each Han or kana character one word) of
trafilatura's main text are held against the words of the fingerprint's reduction of the same
file (``reduce_html`` of the installed sitemill, the page's URL given, its link and image targets
and JSON-LD left out: words only). The ratio is the
share of the main text's words, counted with their repeats, that the reduction holds too. Per
site: the median ratio and every page under ``--below``. Pages trafilatura finds no main text in
(or fewer than 20 words) are counted apart.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import oracle
import textoracle

# (a Han or kana character is a word of its own: Chinese and Japanese prose has no spaces)
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
WORD = re.compile(f"[{CJK}]|[^\\W{CJK}]+")
MARKED_TARGET = re.compile("\x01[HI][^\x01]*\x01E")
MIN_WORDS = 20


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in WORD.findall(text))


def fingerprint_words(data: bytes, url: str) -> Counter[str]:
    """The words of sitemill's reduction of the page (its main region, title, description),
    without its target marks and without its JSON-LD."""
    from sitemill.lastmod.fingerprint import reduction
    from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION
    from sitemill.lastmod.fingerprint.targetmarks import escape_kept_values

    reduced = reduction.reduce_markup(
        escape_kept_values(data), (), FINGERPRINT_VERSION, main=True, url=url
    )
    return words(MARKED_TARGET.sub(" ", reduced).replace("\x01", " "))


def main_words(data: bytes) -> Counter[str]:
    tree = textoracle.main_text(data)
    if tree is None:
        return Counter()
    return words(" ".join(tree.itertext()))


def kept_share(main: Counter[str], kept: Counter[str]) -> float:
    """The share of ``main``'s words (with repeats) that ``kept`` holds too."""
    total = sum(main.values())
    return sum((main & kept).values()) / total if total else 1.0


def measure_site(folder: Path, base: str, below: float) -> dict[str, object]:
    listed = subprocess.run(
        ["git", "-C", str(folder), "ls-files", "-z", "--", "*.html", "*.htm"],
        capture_output=True,
        check=True,
    ).stdout
    ratios: dict[str, float] = {}
    sizes: dict[str, tuple[int, int]] = {}
    no_main = 0
    for path in sorted(p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p):
        file = folder / path
        if not file.is_file():
            continue
        data = file.read_bytes()
        if oracle.page_facts(path, data).skip:
            continue
        main = main_words(data)
        if sum(main.values()) < MIN_WORDS:
            no_main += 1
            continue
        kept = fingerprint_words(data, base.rstrip("/") + "/" + path)
        ratios[path] = kept_share(main, kept)
        sizes[path] = (sum(main.values()), sum((main & kept).values()))
    low = {p: r for p, r in ratios.items() if r < below}
    return {
        "pages": len(ratios),
        "no_main_text": no_main,
        "median": round(statistics.median(ratios.values()), 3) if ratios else None,
        "below": below,
        "pages_below": [
            {"page": p, "ratio": round(r, 3), "main_words": sizes[p][0], "kept": sizes[p][1]}
            for p, r in sorted(low.items(), key=lambda item: item[1])
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--only", action="append", help="a site name (repeat)")
    parser.add_argument("--below", type=float, default=0.5)
    parser.add_argument("--json", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    sites = json.loads(args.sites.read_text())
    found = {}
    for site in sites:
        if args.only and site["name"] not in args.only:
            continue
        folder = args.data / site["name"] / site.get("subdir", "")
        if not folder.exists():
            print(f"{site['name']}: no checkout")
            continue
        figures = measure_site(folder, site["base_url"], args.below)
        found[site["name"]] = figures
        low = figures["pages_below"]
        print(
            f"{site['name']}: {figures['pages']} pages, median {figures['median']}, "
            f"{len(low)} under {args.below}, {figures['no_main_text']} without main text",
            flush=True,
        )
        for entry in low:
            print(
                f"   {entry['ratio']:.3f}  {entry['kept']}/{entry['main_words']} words  "
                f"{entry['page']}"
            )
    if args.json:
        args.json.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
