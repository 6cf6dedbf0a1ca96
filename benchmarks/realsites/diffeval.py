"""`sitemill diff` on real restructures of built sites, judged by an independent reading.

A measuring tool, run by hand (it needs the repositories' mirrors, which no test may fetch):

    python benchmarks/realsites/diffeval.py --sites benchmarks/realsites/diff-tuning.json \
        --mirrors /work/.mirror --data /tmp/diffeval [--sitemill .venv/bin/sitemill] [NAME ...]

Each case is two commits of a built-site branch (before a restructure, and it). Both builds are
exported (the HTML, `_redirects` and CNAME files only, read with `git cat-file`, so a mirror that
lacks its large binary blobs still works), sitemill builds the first and diffs the second against
that state (`--url-style directory --no-respect-canonical`: the reading's URLs), and the reading of
tests/restructures.py (lxml and difflib, no sitemill code) judges the report: the added and removed
sets, and each removed URL's verdict and target. A verdict whose best ratio lies between 0.8 and
0.95 is borderline (either answer is fair), and where the built folder itself moved between the
commits (`root_before`, `root_after`) only the redirected verdicts are judged. Prints one table
row per case and the totals; writes each diff's JSON under --data."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
import restructures

SUFFIXES = (".html", ".htm", "_redirects", "CNAME")


def export(git: Path, commit: str, root: str, dest: Path) -> None:
    """The commit's files below ``root`` that a diff reads, into ``dest``."""
    if dest.exists():
        return
    listing = subprocess.run(
        ["git", "--git-dir", str(git), "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    ).stdout
    wanted = []
    for item in filter(None, listing.split(b"\0")):
        meta, raw = item.split(b"\t", 1)
        mode, kind, blob = meta.split()
        path = raw.decode("utf-8", "surrogateescape")
        if (
            kind == b"blob"
            and mode != b"120000"
            and path.startswith(root)
            and path.endswith(SUFFIXES)
        ):
            wanted.append((blob.decode(), path[len(root) :]))
    batch = "".join(blob + "\n" for blob, _ in wanted).encode()
    out = subprocess.run(
        ["git", "--git-dir", str(git), "cat-file", "--batch"],
        input=batch,
        capture_output=True,
        check=True,
    ).stdout
    position = 0
    for _, name in wanted:
        end = out.index(b"\n", position)
        header = out[position:end].split()
        position = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(out[position : position + size])
        position += size + 1


def short(url: str, base: str) -> str:
    return unquote("/" + url[len(base) :] if url.startswith(base) else url)


def judge(case: dict[str, Any], reading: dict[str, Any], report: dict[str, Any]) -> dict[str, Any]:
    base = case["base_url"]
    found = {short(item["url"], base): item for item in report["removed"]}
    added = sorted(short(url, base) for url in report["added"])
    mine, theirs = set(found) | set(added), set(reading["removed"]) | set(reading["added"])
    row: dict[str, Any] = {
        "sets": added == reading["added"] and sorted(found) == sorted(reading["removed"]),
        "only_sitemill": sorted(mine - theirs),
        "only_reading": sorted(theirs - mine),
        "agree": 0, "disagree": [], "borderline": 0,
    }  # fmt: skip
    moved_root = "root_before" in case
    for url, want in reading["removed"].items():
        got = found.get(url)
        if got is None or (moved_root and want["status"] != "redirected"):
            continue
        best = want["best_match"] or {"ratio": 0.0, "url": None}
        same = got["verdict"] == want["status"]
        if same and want["status"] == "renamed":
            same = short(got.get("target", ""), base) in {best["url"], *want["equally_good"]}
        if same:
            row["agree"] += 1
        elif 0.8 <= best["ratio"] < 0.95:
            row["borderline"] += 1
        else:
            target = short(got.get("target") or "", base)
            row["disagree"].append(
                (url, want["status"], best["url"], best["ratio"], got["verdict"], target)
            )
    return row


def run_case(case: dict[str, Any], mirrors: Path, data: Path, sitemill: str) -> dict[str, Any]:
    work = data / case["name"]
    git = mirrors / case["mirror"] / "repo"
    export(git, case["before"], case.get("root_before", case.get("root", "")), work / "before")
    export(git, case["after"], case.get("root_after", case.get("root", "")), work / "after")
    shutil.rmtree(work / "state", ignore_errors=True)
    base = case["base_url"]
    options = ["--base-url", base, "--url-style", "directory", "--no-respect-canonical"]
    built = [sitemill, "-q", "build", str(work / "before"), "--out", str(work / "state"), *options]
    subprocess.run(built, check=True, capture_output=True)
    against = str(work / "state" / "sitemill-state.json.gz")
    diffed = [sitemill, "diff", str(work / "after"), "--json", "--against", against, *options]
    report = json.loads(subprocess.run(diffed, check=True, capture_output=True, text=True).stdout)
    (work / "diff.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    reading = restructures.diff(
        restructures.Build(restructures.read_dir(str(work / "before"))),
        restructures.Build(restructures.read_dir(str(work / "after"))),
        base,
    )
    row = judge(case, reading, report)
    row["counts"], row["reading"] = report["counts"], reading["counts"]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, required=True)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sitemill", default="sitemill")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    cases = json.loads(args.sites.read_text(encoding="utf-8"))["sites"]
    print("| case | pages before/after | added | removed | redirected | renamed | gone "
          "| agree / disagree / borderline | sets equal |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    totals = {"agree": 0, "disagree": 0, "borderline": 0, "sets": 0, "cases": 0}
    for case in cases:
        if args.names and case["name"] not in args.names:
            continue
        row = run_case(case, args.mirrors, args.data, args.sitemill)
        c, r = row["counts"], row["reading"]
        pairs = " | ".join(  # (sitemill's / the reading's)
            f"{c[key]}/{r[key]}" for key in ("added", "removed", "redirected", "renamed", "gone")
        )
        print(
            f"| {case['name']} | {r['pages_before']}/{r['pages_after']} | {pairs} "
            f"| {row['agree']} / {len(row['disagree'])} / {row['borderline']} | {row['sets']} |"
        )
        for item in row["disagree"]:
            print(f"<!-- disagree: {item} -->")
        for url in row["only_sitemill"] + row["only_reading"]:
            side = "sitemill" if url in row["only_sitemill"] else "reading"
            print(f"<!-- only the {side} lists {url} -->")
        totals["cases"] += 1
        totals["sets"] += row["sets"]
        totals["agree"] += row["agree"]
        totals["disagree"] += len(row["disagree"])
        totals["borderline"] += row["borderline"]
    print(f"\n{totals}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
