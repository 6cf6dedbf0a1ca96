"""Measure how sitemill dates a first deploy of real source repositories against the oracle.

    python benchmarks/sourcedates/run.py --sitemill PATH/TO/sitemill [--sites a,b] [--no-shallow]

Per site (sites.json): a full clone of the mirrored repository at its head, the site built there
with its own generator (generators.py, which also asks the generator which source made each
page), the oracle's date for each source (textoracle.py), then ``sitemill build <built folder>
--base-url <base> --out <tmp>`` with no state (a first deploy). Then the same on a depth-1 clone.
Writes ``sites.jsonl`` (one line a site), ``pages.jsonl`` (one line a listed page) and
``table.md`` under --results.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generators import BUILDERS, INCLUDES
from textoracle import Blobs, SourceDates, source_dates

HERE = Path(__file__).resolve().parent
MIRRORS = Path("/work/.mirror")
RUNG_WORDS = [  # a phrase of the report's "lastmod:" line -> the rung it counts
    ("without a date", "none"),
    ("source", "source"),
    ("declared", "declared"),
    ("commit", "history"),
    ("history", "history"),
    ("remembered", "history"),
    ("file time", "file time"),
]


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def clone(site: dict[str, Any], into: Path, depth1: bool) -> None:
    mirror = MIRRORS / site["repo"].replace("/", "+") / "repo"
    if into.exists():
        return
    cmd = ["clone", "-q", "--branch", site["branch"]]
    at_head = site.get("missing_blobs") == "head"  # "history": only older commits lack some
    if at_head:
        # the snapshot lacks some blobs (large images): clone without them, check out the rest
        cmd += ["--no-checkout"]
        if depth1:
            cmd += ["--filter=blob:none", "-u", "git -c uploadpack.allowFilter=true upload-pack"]
    if depth1:
        cmd += ["--depth", "1", f"file://{mirror}"]
    else:
        cmd += [str(mirror)]
    git(*cmd, str(into))
    if at_head:
        checkout_present(mirror, into)
    if site.get("missing_blobs") and not depth1:
        stand_ins(mirror, into)


def stand_ins(mirror: Path, into: Path) -> None:
    """A replace ref to a one-line stand-in for each blob the snapshot lacks anywhere in its
    history (old images), so that ``git log -M`` (the oracle's and sitemill's) can run; each
    stand-in's text differs, so no two pair up as an exact rename."""
    objs = git("rev-list", "--objects", "--all", "--missing=print", cwd=mirror).splitlines()
    missing = sorted({ln[1:].split()[0] for ln in objs if ln.startswith("?")})
    for sha in missing:
        stub = subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=into,
            input=f"blob {sha} is absent from the snapshot\n",
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        git("update-ref", f"refs/replace/{sha}", stub, cwd=into)
    print(f"{into.name}: {len(missing)} absent blob(s) given stand-ins", flush=True)


def checkout_present(mirror: Path, into: Path) -> None:
    """Check out HEAD but the files whose blobs the mirror lacks (left skip-worktree)."""
    tree = git("ls-tree", "-r", "HEAD", cwd=mirror).splitlines()
    blobs = {ln.split()[2]: ln.split("\t", 1)[1] for ln in tree if ln.split()[1] == "blob"}
    probe = subprocess.run(
        ["git", "cat-file", "--batch-check"],
        cwd=mirror,
        input="".join(f"{b}\n" for b in blobs),
        capture_output=True,
        text=True,
    ).stdout
    missing = [blobs[ln.split()[0]] for ln in probe.splitlines() if ln.endswith(" missing")]
    git("read-tree", "HEAD", cwd=into)
    for i in range(0, len(missing), 200):
        git("update-index", "--skip-worktree", "--", *missing[i : i + 200], cwd=into)
    git("checkout-index", "-a", cwd=into)
    print(f"{into.name}: {len(missing)} file(s) without a blob left out", flush=True)


def prepare(site: dict[str, Any], work: Path, full: Path, log: Path) -> None:
    """The generator's packages: installed once in the full clone, linked into the shallow one."""
    if not site.get("prepare"):
        return
    if work != full:
        # a hard-linked copy, not a symlink: a bundler resolving real paths would load two
        # copies of a module (Docusaurus's SSG then fails)
        if not (work / "node_modules").exists():
            subprocess.run(
                ["cp", "-al", str(full / "node_modules"), str(work / "node_modules")], check=True
            )
        return
    if not (work / "node_modules").exists():
        with log.open("a") as out:
            subprocess.run(
                site["prepare"],
                shell=True,
                cwd=work,
                stdout=out,
                stderr=subprocess.STDOUT,
                check=True,
            )


def run_sitemill(sitemill: str, site: dict[str, Any], work: Path) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix="sourcedates-"))
    t = time.monotonic()
    proc = subprocess.run(
        [
            sitemill,
            "build",
            site["site_dir"],
            "--base-url",
            site["base_url"],
            "--out",
            str(out),
            "--indexnow",
            "off",
            *site.get("sitemill_args", []),
        ],
        cwd=work,
        capture_output=True,
        text=True,
    )
    secs = time.monotonic() - t
    text = proc.stdout + proc.stderr
    pages: dict[str, str | None] = {}
    state = out / "sitemill-state.json.gz"
    if state.exists():
        for path, fact in json.loads(gzip.decompress(state.read_bytes()))["pages"].items():
            pages[path] = fact.get("lastmod")
    lastmods = []
    for xml in out.rglob("*.xml*"):
        data = xml.read_bytes()
        if xml.suffix == ".gz":
            data = gzip.decompress(data)
        lastmods += re.findall(r"<lastmod>([^<]+)</lastmod>", data.decode())
    shutil.rmtree(out)
    return {
        "rc": proc.returncode,
        "seconds": round(secs, 2),
        "output": text,
        "pages": pages,
        "xml_lastmods": lastmods,
        "rungs": rungs(text),
    }


def rungs(output: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in output.splitlines():
        if not line.startswith("lastmod:"):
            continue
        for part in re.split(r",\s*(?=\d)", line[len("lastmod:") :]):
            m = re.match(r"\s*([\d,]+)\s+(.*)", part)
            if not m:
                continue
            n, phrase = int(m.group(1).replace(",", "")), m.group(2)
            key = next((r for w, r in RUNG_WORDS if w in phrase), "other: " + phrase[:40])
            counts[key] = counts.get(key, 0) + n
    return counts


def why(sitemill: str, site: dict[str, Any], work: Path, page: str) -> str:
    proc = subprocess.run(
        [
            sitemill,
            "why",
            page,
            site["site_dir"],
            "--base-url",
            site["base_url"],
            *site.get("sitemill_args", []),
        ],
        cwd=work,
        capture_output=True,
        text=True,
    )
    return (proc.stdout + proc.stderr).strip()


def day(iso: str | None) -> str | None:
    if not iso:
        return None
    if len(iso) == 10:
        return iso
    return datetime.fromisoformat(iso).astimezone(UTC).date().isoformat()


def oracle(work: Path, mapping: dict[str, str], site: dict[str, Any]) -> dict[str, Any]:
    """Each tracked source's oracle dates; a source that includes others (pymdownx.snippets'
    ``--8<-- "file"`` line, the generator's own include) takes the newest of them all."""
    tracked = set(git("ls-files", cwd=work).splitlines())
    blobs = Blobs(work)
    found = {}
    for src in sorted(set(mapping.values())):
        if src in tracked:
            parts = [source_dates(work, src, blobs)]
            for inc in includes(work / src, site.get("snippets", []), tracked, work):
                parts.append(source_dates(work, inc, blobs))
            found[src] = newest(parts)
    blobs.close()
    return found


SNIPPET = re.compile(r'^\s*-{1,}8<-{1,}\s+"([^"]+)"\s*$', re.MULTILINE)


def includes(path: Path, bases: list[str], tracked: set[str], work: Path) -> list[str]:
    """The tracked files a source includes with pymdownx.snippets (its ``base_path``s), or,
    where the generator recorded them (Sphinx's dependencies), those."""
    recorded = work / INCLUDES
    if recorded.exists():
        deps = json.loads(recorded.read_text()).get(path.relative_to(work).as_posix(), [])
        return [d for d in deps if d in tracked]
    if not bases:
        return []
    found = []
    for name in SNIPPET.findall(path.read_text(errors="replace")):
        for base in bases:
            cand = base if base.rsplit("/", 1)[-1] == name else f"{base}/{name}"
            if cand in tracked:
                found.append(cand)
                break
    return found


def newest(parts: list[SourceDates]) -> SourceDates:
    if len(parts) == 1:
        return parts[0]
    strict = max((p.strict for p in parts if p.strict), key=lambda c: c.committed, default=None)
    words = max((p.words for p in parts if p.words), key=lambda c: c.committed, default=None)
    return SourceDates(parts[0].path, sum(p.versions for p in parts), strict, words)


def compare(
    pages: dict[str, str | None],
    mapping: dict[str, str],
    dates: dict[str, Any],
    sitemill: str,
    site: dict[str, Any],
    work: Path,
    why_limit: int,
) -> tuple[dict[str, int], list[dict[str, Any]]]:
    counts = dict.fromkeys(
        [
            "pages",
            "with_source",
            "same_day",
            "later",
            "earlier",
            "undated_with_source",
            "dated_no_source",
            "undated_no_source",
            "earlier_words",
            "earlier_authored",
            "same_day_authored",
        ],
        0,
    )
    rows = []
    asked = 0
    for page, lastmod in sorted(pages.items()):
        counts["pages"] += 1
        src = mapping.get(page)
        od = dates.get(src) if src else None
        row: dict[str, Any] = {
            "site": site["name"],
            "page": page,
            "sitemill": lastmod,
            "source": src,
        }
        if od is None or od.strict is None:
            counts["dated_no_source" if lastmod else "undated_no_source"] += 1
            rows.append(row)
            continue
        counts["with_source"] += 1
        o, ow, sm = day(od.strict.committed), day(od.words.committed), day(lastmod)
        row.update(
            oracle=od.strict.committed,
            oracle_sha=od.strict.sha,
            oracle_authored=od.strict.authored,
            oracle_words=od.words.committed,
        )
        if sm is None:
            counts["undated_with_source"] += 1
            verdict = "undated"
        elif sm == o:
            counts["same_day"] += 1
            verdict = "same day"
        elif sm > o:
            counts["later"] += 1
            verdict = "later"
        else:
            counts["earlier"] += 1
            verdict = "earlier"
            # still earlier when whitespace-only edits do not count, or against the author date
            counts["earlier_words"] += sm < (ow or "")
            counts["earlier_authored"] += sm < (day(od.strict.authored) or "")
        counts["same_day_authored"] += sm == day(od.strict.authored)
        row["verdict"] = verdict
        # every earlier page is explained; later ones up to the limit
        if verdict == "earlier" or (verdict == "later" and asked < why_limit):
            asked += verdict == "later"
            row["why"] = why(sitemill, site, work, page)
        rows.append(row)
    return counts, rows


def build_stamps(lastmods: list[str], started: float) -> int:
    """<lastmod>s within the run's own minutes (from the build's start, a minute's slack)."""
    floor = started - 60
    n = 0
    for lm in lastmods:
        if len(lm) == 10:
            n += lm == datetime.fromtimestamp(started, UTC).date().isoformat()
        elif datetime.fromisoformat(lm).timestamp() >= floor:
            n += 1
    return n


def measure(site: dict[str, Any], args: argparse.Namespace, depth1: bool) -> dict[str, Any]:
    full = args.work / site["name"]
    work = args.work / (site["name"] + ("-depth1" if depth1 else ""))
    log = args.results / f"{site['name']}{'-depth1' if depth1 else ''}.log"
    clone(site, work, depth1)
    prepare(site, work, full, log)
    cache = work / "sourcedates-build.json"
    if args.reuse_builds and cache.exists():  # the built folder and map of an earlier run
        kept = json.loads(cache.read_text())
        started, build_secs, mapping = kept["started"], kept["seconds"], kept["mapping"]
    else:
        started = time.time()
        t = time.monotonic()
        # a depth-1 clone needs its build, not the full page map (no extra locale builds)
        built = {**site, "locales": []} if depth1 else site
        mapping = BUILDERS[site["generator"]](work, built, log)
        build_secs = time.monotonic() - t
        cache.write_text(
            json.dumps({"started": started, "seconds": build_secs, "mapping": mapping})
        )
    res = run_sitemill(args.sitemill, site, work)
    summary: dict[str, Any] = {
        "site": site["name"],
        "set": site["set"],
        "generator": site["generator"],
        "clone": "depth 1" if depth1 else "full",
        "head": git("rev-parse", "HEAD", cwd=work),
        "build_seconds": round(build_secs, 1),
        "sitemill_seconds": res["seconds"],
        "sitemill_rc": res["rc"],
        "rungs": res["rungs"],
        "mapped_pages": len(mapping),
        "build_stamps": build_stamps(res["xml_lastmods"], started),
        "xml_lastmods": len(res["xml_lastmods"]),
        "report": [ln for ln in res["output"].splitlines() if ln.strip()],
    }
    if depth1:
        summary["pages"] = len(res["pages"])
        summary["dated"] = sum(1 for v in res["pages"].values() if v)
        summary["deepen_hint"] = [
            ln for ln in summary["report"] if re.search(r"shallow|deepen|unshallow|fetch", ln, re.I)
        ]
        return summary
    summary["mapcheck"] = mapcheck(args.sitemill, site, work, res["pages"], mapping)
    dates = oracle(work, mapping, site)
    counts, rows = compare(res["pages"], mapping, dates, args.sitemill, site, work, args.why_limit)
    summary.update(counts)
    keep = args.results / "pages.jsonl"
    if keep.exists():  # a site measured again replaces its rows
        lines = keep.read_text().splitlines()
        keep.write_text(
            "".join(f"{ln}\n" for ln in lines if json.loads(ln)["site"] != site["name"])
        )
    with keep.open("a") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    return summary


def mapcheck(
    sitemill: str, site: dict[str, Any], work: Path, pages: dict[str, Any], mapping: dict[str, str]
) -> dict[str, Any] | str:
    """sitemill's own page->source map (rung 2) against the generator's, where it has one."""
    tracked = set(git("ls-files", cwd=work).splitlines())
    want: dict[str, list[str] | None] = {}
    for p in pages:
        src = mapping.get(p)
        if src in tracked:
            want[p] = [src, *includes(work / src, site.get("snippets", []), tracked, work)]
        else:
            want[p] = None
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(want, f)
    python = str(Path(sitemill).parent / "python")
    proc = subprocess.run(
        [python, str(HERE / "mapcheck.py"), str(work), site["site_dir"], f.name],
        capture_output=True,
        text=True,
    )
    Path(f.name).unlink()
    if proc.returncode:
        return "not run: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:200]
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def maps(check: Any) -> str:
    if not isinstance(check, dict):
        return "–"
    c = check["counts"]
    return (
        f"{c['agree']} / {c['other source']} / {c['none found']} / {c['source for no-source page']}"
    )


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f} %" if d else "–"


def table(summaries: list[dict[str, Any]]) -> str:
    lines = []
    for group in ("tuning", "held-out", "held-out-2"):
        full = [s for s in summaries if s["set"] == group and s["clone"] == "full"]
        if not full:
            continue
        lines += [
            f"### {group}",
            "",
            "| site | generator | pages | with source | rungs (report) | dated (with source)"
            " | same day | later | earlier (words / authored) | no date (with source)"
            " | no source: dated / undated | build-time lastmods | depth 1: dated / pages"
            " | sitemill's source map: agree / other / none / extra |",
            "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---:"
            " | ---: | ---: |",
        ]
        for s in full:
            d1 = next(
                (x for x in summaries if x["site"] == s["site"] and x["clone"] != "full"), None
            )
            dated = s["same_day"] + s["later"] + s["earlier"]
            shallow = f"{d1['dated']} / {d1['pages']}" if d1 and "dated" in d1 else "–"
            rung = ", ".join(f"{k} {v}" for k, v in sorted(s["rungs"].items())) or "–"
            lines.append(
                f"| {s['site']} | {s['generator']} | {s['pages']} | {s['with_source']} | {rung}"
                f" | {dated} ({pct(dated, s['with_source'])}) | {s['same_day']} | {s['later']}"
                f" | {s['earlier']} ({s['earlier_words']} / {s['earlier_authored']})"
                f" | {s['undated_with_source']} | {s['dated_no_source']} /"
                f" {s['undated_no_source']} | {s['build_stamps']} |"
                f" {shallow} | {maps(s.get('mapcheck'))} |"
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sitemill", required=True)
    ap.add_argument("--work", type=Path, default=Path("/work/measure-sites"))
    ap.add_argument("--results", type=Path, default=Path("/work/measure-sites/results"))
    ap.add_argument("--sites", default="")
    ap.add_argument(
        "--sites-file",
        type=Path,
        default=HERE / "sites.json",
        help="the sites to measure (sites.json, or heldout2.json: a later held-out set)",
    )
    ap.add_argument("--no-shallow", action="store_true")
    ap.add_argument("--why-limit", type=int, default=30)
    ap.add_argument(
        "--reuse-builds",
        action="store_true",
        help="keep a clone's built folder and page map from an earlier run",
    )
    ap.add_argument(
        "--table-only",
        action="store_true",
        help="only rewrite table.md from --results (the last line per site and clone)",
    )
    args = ap.parse_args()
    if args.table_only:
        last = {}
        for line in (args.results / "sites.jsonl").read_text().splitlines():
            s = json.loads(line)
            last[s["site"], s["clone"]] = s
        done = [s for s in last.values() if "error" not in s]
        text = table(done) + "\n" + earlier_list(args.results / "pages.jsonl")
        (args.results / "table.md").write_text(text)
        print(text)
        return
    args.work.mkdir(parents=True, exist_ok=True)
    args.results.mkdir(parents=True, exist_ok=True)
    sites = json.loads(args.sites_file.read_text())
    wanted = set(filter(None, args.sites.split(",")))
    summaries = []
    for site in sites:
        if wanted and site["name"] not in wanted:
            continue
        for depth1 in (False,) if args.no_shallow else (False, True):
            try:
                s = measure(site, args, depth1)
            except (subprocess.CalledProcessError, OSError, KeyError, ValueError) as e:
                s = {
                    "site": site["name"],
                    "set": site["set"],
                    "generator": site["generator"],
                    "clone": "depth 1" if depth1 else "full",
                    "error": repr(e)[:500],
                }
            print(json.dumps({k: v for k, v in s.items() if k != "report"}), flush=True)
            summaries.append(s)
            with (args.results / "sites.jsonl").open("a") as out:
                out.write(json.dumps(s) + "\n")
    ok = [s for s in summaries if "error" not in s]
    text = table(ok) + "\n" + earlier_list(args.results / "pages.jsonl")
    (args.results / "table.md").write_text(text)
    print(text)


def earlier_list(pages: Path) -> str:
    """The pages dated earlier than the oracle, one line each: what the lead acts on."""
    rows = [json.loads(line) for line in pages.read_text().splitlines()] if pages.exists() else []
    rows = [r for r in rows if r.get("verdict") == "earlier"]
    lines = [f"### Earlier than the oracle: {len(rows)} pages", ""]
    if rows:
        lines += [
            "| site | page | sitemill | oracle (committed / authored, sha) | source |",
            "| --- | --- | --- | --- | --- |",
        ]
    for r in rows:
        lines.append(
            f"| {r['site']} | {r['page']} | {r['sitemill']} | {r['oracle']} /"
            f" {r['oracle_authored']} {r['oracle_sha'][:10]} | {r['source']} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
