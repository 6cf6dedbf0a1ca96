"""What the oracle's version 6 leaves out of a site's pages at the checkout's tip.

    python benchmarks/realsites/leftout.py --sites benchmarks/realsites/sites.json \
        --data /work/realsites-data [--only NAME]

Per site: the blocks that stand on most pages of the tip's version (template.py), each with the
number of pages that hold it and its text, and the self-dates whose label stands apart or is an
icon (selfdates.py), counted by their text with the digits blanked. A measuring aid, no test
depends on it; lxml and git only, no sitemill code.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import blocks
import oracle
import selfdates
import template

DIGITS = re.compile(r"\d")


def block_texts(block: blocks.Block, wanted: frozenset[int], into: dict[int, str]) -> None:
    """The text of every block of ``wanted`` that ``block`` holds (the outermost)."""
    stack = [block]
    while stack:
        for part in stack.pop().parts:
            if isinstance(part, blocks.Block):
                if part.key in wanted and part.key is not None:
                    if part.key not in into:
                        text, targets = blocks.article(
                            blocks.Reading("", blocks.Block(None, (part,)), frozenset(), True),
                            frozenset(),
                        )
                        into[part.key] = text[:70] + (
                            f" [{len(targets)} targets]" if targets else ""
                        )
                else:
                    stack.append(part)


def left_out(checkout: Path, article_xpath: str | None) -> dict[str, object]:
    histories = oracle.file_histories(checkout)
    reader = oracle.BlobReader(checkout)
    site = template.SiteVersions(checkout, reader, article_xpath, histories)
    try:
        tip = site.repeated("HEAD")
        texts: dict[int, str] = {}
        holders: Counter[int] = Counter()
        self_dates: Counter[str] = Counter()
        pages = 0
        for path, blob in site._tree("HEAD"):
            reading = site.reading(blob, path)
            if reading is None or not reading.page:
                continue
            pages += 1
            holders.update(reading.keys & tip)
            block_texts(reading.article, tip, texts)
            data = reader.read(blob)
            doc = oracle.parse(data) if data is not None else None
            if doc is not None:
                for text in selfdates.strip_apart(oracle.find_article(doc, article_xpath)):
                    if not text.startswith("(v5) "):  # (read by version 5 already)
                        self_dates[DIGITS.sub("9", text)[:60]] += 1
    finally:
        reader.close()
    return {
        "pages": pages,
        "repeated": [
            f"{holders[k]:>5}  {texts[k]}" for k, _ in holders.most_common() if k in texts
        ],
        "self_dates": [f"{n:>5}  {text}" for text, n in self_dates.most_common()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, default=Path(__file__).with_name("sites.json"))
    parser.add_argument("--data", type=Path, default=Path("/work/realsites-data"))
    parser.add_argument("--only", action="append", help="a site name (repeat)")
    parser.add_argument("--top", type=int, default=6, help="blocks and self-dates shown per site")
    args = parser.parse_args()
    for site in json.loads(args.sites.read_text()):
        if args.only and site["name"] not in args.only:
            continue
        if not (args.data / site["name"]).exists():
            continue
        found = left_out(args.data / site["name"], site.get("article_xpath"))
        repeated, dates = found["repeated"], found["self_dates"]
        print(
            f"== {site['name']}: {found['pages']} pages, {len(repeated)} repeated blocks, "  # type: ignore[arg-type]
            f"{len(dates)} kinds of self-dates apart"  # type: ignore[arg-type]
        )
        for line in [*repeated[: args.top], *dates[: args.top]]:  # type: ignore[index]
            print("   " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
