"""Judge sitemill's llms.txt, llms-full.txt and Markdown twins on real built sites (issue 67).

    python benchmarks/realsites/llmseval.py --sites benchmarks/realsites/llms-tuning.json \
        --sitemill 'env PYTHONPATH=src .venv/bin/sitemill' [--only NAME] [--cost 3] \
        [--details out.json]

Each site of the list (name, path of a checked-out built site, base_url, optional article_xpath)
is built as a new user would, into a temporary folder (the checkout is only read):
``sitemill build PATH --base-url URL --out OUT --llms-txt --llms-full --llms-pages --lastmod
mtime``. What it wrote is then judged by an independent reading: lxml and oracle.py's article
reading (no sitemill code), and two readings of llms.txt, the reference parser
(``llms_txt.miniparse``) and our own line reading (``llmsread.py``):

- links: the llms.txt files' links vs the sitemap's ``<loc>`` set; each page once; each file's
  pages of one language (a page's language: its own hreflang entry, else none);
- titles and descriptions: each item's vs the page's ``<title>`` (as is, and without the part
  most of the site's titles share) and meta description; the name and summary vs the home page;
- llms-full.txt: per page, the article's words found in its block (recall, counted with
  repeats) and the furniture's words (the page's words that its article does not hold) in it;
- twins: one per listed HTML page, each twin's words among its page's words;
- cost (``--cost N``): wall time and peak RSS of the llms build vs a plain build, interleaved.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import llmsread  # (beside this file)

LLMS_FLAGS = ["--llms-txt", "--llms-full", "--llms-pages"]


def build(sitemill: list[str], site: dict[str, Any], out: Path, llms: bool) -> tuple[float, int]:
    """Run one build; its wall time (s) and peak RSS (KiB) as /usr/bin/time reads it (a child
    forked from this process would start from this process's peak, execve keeps it: time's
    own child starts small)."""
    args = [*sitemill, "build", site["path"], "--base-url", site["base_url"], "--out", str(out)]
    args += ["--lastmod", "mtime", *(LLMS_FLAGS if llms else [])]
    peak_file = out.parent / f"{out.name}.maxrss"
    start = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", str(peak_file), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{site['name']}: {shlex.join(args)} failed:\n{proc.stdout.decode()}")
    return wall, int(peak_file.read_text().split()[-1])


def measure_cost(sitemill: list[str], site: dict[str, Any], runs: int) -> dict[str, Any]:
    walls: dict[bool, list[float]] = {False: [], True: []}
    rss: dict[bool, list[int]] = {False: [], True: []}
    for _ in range(runs):
        for llms in (False, True):
            with tempfile.TemporaryDirectory(prefix="llmseval-cost-") as tmp:
                wall, peak = build(sitemill, site, Path(tmp) / "out", llms)
            walls[llms].append(wall)
            rss[llms].append(peak)
    return {
        "plain_s": round(median(walls[False]), 2),
        "llms_s": round(median(walls[True]), 2),
        "ratio": round(median(walls[True]) / median(walls[False]), 2),
        "plain_rss_mb": round(median(rss[False]) / 1024, 1),
        "llms_rss_mb": round(median(rss[True]) / 1024, 1),
        "load": os.getloadavg()[0],
    }


def judge_site(
    sitemill: list[str], site: dict[str, Any], cost: int, cost_only: bool = False
) -> dict[str, Any]:
    if cost_only:
        return {"cost": measure_cost(sitemill, site, cost)}
    with tempfile.TemporaryDirectory(prefix="llmseval-") as tmp:
        out = Path(tmp) / "out"
        wall, peak = build(sitemill, site, out, llms=True)
        result = llmsread.judge(
            Path(site["path"]), out, site["base_url"], site.get("article_xpath")
        )
    result["build_s"] = round(wall, 2)
    result["build_rss_mb"] = round(peak / 1024, 1)
    if cost:
        result["cost"] = measure_cost(sitemill, site, cost)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", required=True, type=Path)
    parser.add_argument(
        "--sitemill", default="sitemill", help="the command, split as a shell would"
    )
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--cost", type=int, default=0, help="runs of each build for the cost")
    parser.add_argument("--cost-only", action="store_true", help="measure the cost alone")
    parser.add_argument("--details", type=Path)
    parser.add_argument("--markdown", type=Path, help="write the per-site tables here")
    args = parser.parse_args(argv)
    sites = json.loads(args.sites.read_text())
    sitemill = shlex.split(args.sitemill)
    results: dict[str, Any] = {}
    for site in sites:
        if args.only and site["name"] not in args.only:
            continue
        if not Path(site["path"]).is_dir():
            results[site["name"]] = {"error": f"not checked out: {site['path']}"}
            continue
        try:
            results[site["name"]] = judge_site(sitemill, site, args.cost, args.cost_only)
        except RuntimeError as exc:
            results[site["name"]] = {"error": str(exc)[-2000:]}
        print(llmsread.summary_line(site["name"], results[site["name"]]), flush=True)
    if args.details:
        args.details.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    if args.markdown:
        args.markdown.write_text(llmsread.tables(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
