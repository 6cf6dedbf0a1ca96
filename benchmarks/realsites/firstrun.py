"""A first run with no history, as a site built fresh in CI meets sitemill: each checkout copied
without .git (fresh file times), built, and every <lastmod> held against the oracle's date from
the page's own git history (oracle.py): same day, later, earlier, or no date; of the earlier,
how many the oracle dates by the page's first version in the branch (``earlier_first``: the
history starts there, so the content may be older: a declared date before it is not proven
wrong). One JSON line per site and sitemill (comma-separated paths, to compare two versions
on the same oracle run):

    python benchmarks/realsites/firstrun.py benchmarks/realsites/sites.json /work/realsites-data \
        OLD/bin/sitemill,.venv/bin/sitemill [SITE ...]
"""

import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import oracle  # (this folder's own)

import run


def judge(site, by_key, sitemill, checkout):
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "site"
        shutil.copytree(checkout, copy, ignore=shutil.ignore_patterns(".git"))
        out = Path(tmp) / "out"
        started = time.monotonic()
        subprocess.run(
            [sitemill, "build", str(copy), "--base-url", site["base_url"], "--out", str(out)],
            check=True,
            capture_output=True,
        )
        took = time.monotonic() - started
        entries = run.read_sitemaps(out)
    base = site["base_url"]
    c = dict(same_day=0, later=0, earlier=0, earlier_first=0, no_date=0, dated_unjudged=0)
    for loc, lastmod in entries.items():
        rel = loc[len(base) :] if loc.startswith(base) else None
        truth = by_key.get(rel) if rel is not None else None
        if lastmod is None:
            c["no_date"] += 1
        elif truth is None:
            c["dated_unjudged"] += 1
        else:
            a = datetime.fromtimestamp(run.epoch(lastmod), UTC).date()
            b = datetime.fromtimestamp(truth.time, UTC).date()
            c["same_day" if a == b else "later" if a > b else "earlier"] += 1
            first = truth.versions[-1].commit if truth.versions else None
            c["earlier_first"] += a < b and truth.commit == first
    return dict(
        site=site["name"],
        sitemill=sitemill.split("/")[2],
        pages=len(entries),
        **c,
        seconds=round(took, 1),
    )


def main(sites_json, data, sitemills, only):
    for site in json.loads(Path(sites_json).read_text()):
        if only and site["name"] not in only:
            continue
        checkout = Path(data) / site["name"]
        by_key = {}
        for path, verdict in oracle.date_pages(
            checkout, site.get("article_xpath"), base_url=site["base_url"]
        ).items():
            if verdict.time is not None:
                for key in run.url_keys(path):
                    by_key.setdefault(key, verdict)
        for sitemill in sitemills.split(","):
            print(json.dumps(judge(site, by_key, sitemill, checkout)), flush=True)


main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
