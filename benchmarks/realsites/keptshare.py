"""How much of each page's main text the fingerprint keeps: every tracked HTML page at a site's
checked-out commit reduced as sitemill reduces it (content_scope "main", the site's base URL), its
letters and digits held against those of two readings of the page's main text: trafilatura's
(textoracle.main_text) and oracle.py's article (oracle.content_key). A page whose reduction keeps
less than half of either reading is listed: a list page (its teasers counted as their links and
titles) may keep little by design; any other such page is a rule dropping the page's own words.

    python benchmarks/realsites/keptshare.py --sites benchmarks/realsites/tuning79.json \
        --data /work/realsites-data/tuning79 [--only NAME ...] [--under 0.5] [--json OUT]

One line per site (pages measured, the median share against each reading, the pages under the
bound), then the pages under it, lowest first. The sitemill measured is the one this Python
imports (PYTHONPATH=OTHER/src measures another checkout's). Pages of fewer than MIN_LETTERS
letters in both readings (a stub, a redirect) are not measured.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

import oracle  # (this folder's own)
import textoracle

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.fingerprint.excerpts import letters

MIN_LETTERS = 200
_REFRESH = re.compile(rb"<meta[^>]+http-equiv=[\"']?refresh", re.IGNORECASE)


def tracked_html(checkout: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(checkout), "ls-files", "-z", "--", "*.html", "*.htm"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    return sorted(path for path in listed.split("\0") if path)


def measure_page(data: bytes, url: str, article_xpath: str | None) -> dict[str, object] | None:
    """The page's kept letters and both readings' letters, None for a page not measured."""
    if _REFRESH.search(data[:65536]):
        return None
    kept = len(letters(reduce_html(data, (), url=url)))
    tree = textoracle.main_text(data)
    text = len(letters("".join(tree.itertext()))) if tree is not None else 0
    article = len(letters(oracle.content_key(data, article_xpath)))
    if max(text, article) < MIN_LETTERS:
        return None
    return {
        "kept": kept,
        "text": text,
        "article": article,
        "share_text": round(kept / text, 3) if text else None,
        "share_article": round(kept / article, 3) if article else None,
    }


def measure_site(site: dict, data: Path, under: float) -> dict[str, object]:
    checkout = data / site["name"]
    pages: dict[str, dict[str, object]] = {}
    for path in tracked_html(checkout):
        if path.rsplit("/", 1)[-1].startswith("404."):
            continue
        try:
            raw = (checkout / path).read_bytes()
        except OSError:
            continue
        found = measure_page(
            raw, textoracle.page_url(site["base_url"], path), site.get("article_xpath")
        )
        if found is not None:
            pages[path] = found
    low = {
        path: page
        for path, page in pages.items()
        if any(
            page[key] is not None and page[key] < under for key in ("share_text", "share_article")
        )
    }

    def median(key: str) -> float | None:
        values = [p[key] for p in pages.values() if p[key] is not None]
        return round(statistics.median(values), 3) if values else None

    return {
        "site": site["name"],
        "pages": len(pages),
        "median_text": median("share_text"),
        "median_article": median("share_article"),
        "under": len(low),
        "low": dict(
            sorted(
                low.items(),
                key=lambda item: min(
                    v for v in (item[1]["share_text"], item[1]["share_article"]) if v is not None
                ),
            )
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--under", type=float, default=0.5)
    parser.add_argument("--json")
    args = parser.parse_args()
    sites = json.loads(Path(args.sites).read_text())
    if args.only:
        sites = [s for s in sites if s["name"] in args.only]
    results = []
    print(f"{'site':<20} {'pages':>6} {'median/text':>12} {'median/article':>15} {'under':>6}")
    for site in sites:
        result = measure_site(site, Path(args.data), args.under)
        results.append(result)
        print(
            f"{result['site']:<20} {result['pages']:>6} {result['median_text']!s:>12} "
            f"{result['median_article']!s:>15} {result['under']:>6}",
            flush=True,
        )
    for result in results:
        for path, page in result["low"].items():
            print(
                f"  {result['site']}: {path}: kept {page['kept']} of {page['text']} (text, "
                f"{page['share_text']}) / {page['article']} (article, {page['share_article']})"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
