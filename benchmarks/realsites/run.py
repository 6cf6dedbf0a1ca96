"""Run sitemill on real built sites and hold its lastmod against the oracle's (oracle.py).

    python benchmarks/realsites/run.py --sites benchmarks/realsites/sites.json \
        --data /work/realsites-data [--only NAME] [--details results.json]

Runs ``sitemill build <checkout> --base-url <url> --out <tmp>`` as a new user would (nothing else),
reads the sitemaps it wrote, and prints per site: pages listed, pages the oracle dated, pages
sitemill dates later than their content (furniture re-dated them) and earlier (a real change
missed), the commits behind "later", and the page-set problems seen in the listing. A measuring
tool run by hand on checkouts made by checkout.py; no test depends on it.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.metadata
import json
import os
import pickle
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import lxml.etree

sys.path.insert(0, str(Path(__file__).parent))
import oracle

# The readings this tool can hold sitemill's dates against: oracle.py's, and trafilatura's
# (textoracle.py: the main text an extraction library nobody here wrote finds, its targets and
# the page's JSON-LD less dates).
READINGS = (*oracle.READINGS, "text")

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
SOURCE_SHA = re.compile(r"\b[0-9a-f]{40}\b")


def read_sitemaps(out: Path) -> dict[str, str | None]:
    """Every <loc> sitemill wrote, with its <lastmod>, following an index to its children."""
    entries: dict[str, str | None] = {}
    pending = [out / name for name in ("sitemap.xml", "sitemap.xml.gz") if (out / name).exists()]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        root = lxml.etree.fromstring(data)
        if root.tag == SM + "sitemapindex":
            for loc in root.iter(SM + "loc"):
                pending.append(out / urlsplit(loc.text or "").path.rsplit("/", 1)[-1])
            continue
        for url in root.iter(SM + "url"):
            loc = url.findtext(SM + "loc") or ""
            entries[loc] = url.findtext(SM + "lastmod")
    return entries


def children_cpu() -> float:
    """CPU seconds (user + system) the finished children of this process used so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_sitemill(sitemill: str, checkout: Path, base_url: str, out: Path) -> tuple[float, str]:
    started = time.monotonic()
    done = subprocess.run(
        [sitemill, "build", str(checkout), "--base-url", base_url, "--out", str(out)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"sitemill build failed ({done.returncode}): {done.stderr.strip()}")
    return time.monotonic() - started, (done.stdout + done.stderr).strip()


def url_keys(path: str) -> list[str]:
    """The URL paths a file can be served as: x/index.html, x/, x; x.html, x."""
    keys = [path]
    for index in ("index.html", "index.htm"):
        if path == index or path.endswith("/" + index):
            keys.append(path[: -len(index)])
            keys.append(path[: -len(index)].rstrip("/"))
    for suffix in oracle.HTML_SUFFIXES:
        if path.endswith(suffix):
            keys.append(path[: -len(suffix)])
    return keys


def comparable(url: str) -> str:
    """A URL in one spelling, to tell a canonical that names another page from one spelled
    differently: percent-decoded, no index.html, no .html, no trailing slash, lower-case host."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    for tail in ("index.html", "index.htm"):
        if path.endswith("/" + tail) or path == tail:
            path = path[: -len(tail)]
    for suffix in oracle.HTML_SUFFIXES:
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path.rstrip('/')}"


def spelling_kind(loc: str, canonical: str) -> str:
    a, b = urlsplit(loc).path, urlsplit(canonical).path
    if unquote(a) == unquote(b):
        return "percent-encoding"
    if a.rstrip("/") == b.rstrip("/"):
        return "trailing slash"
    if re.sub(r"(index)?\.html?$", "", a) == re.sub(r"(index)?\.html?$", "", b) or (
        re.sub(r"\.html?$", "", a).rstrip("/") == re.sub(r"\.html?$", "", b).rstrip("/")
    ):
        return ".html vs clean"
    return "other spelling"


def epoch(lastmod: str | None) -> int | None:
    if not lastmod:
        return None
    if len(lastmod) == 10:
        lastmod += "T00:00:00+00:00"
    return int(datetime.fromisoformat(lastmod.replace("Z", "+00:00")).timestamp())


def day(seconds: int | None) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(seconds)) if seconds is not None else "-"


def source_subject(checkout: Path, subject: str) -> str:
    """A deploy commit names its source commit: show that commit's subject when git has it."""
    match = SOURCE_SHA.search(subject)
    if not match:
        return subject
    done = subprocess.run(
        ["git", "-C", str(checkout), "log", "-1", "--format=%s", match.group(0)],
        capture_output=True,
        text=True,
    )
    return f"{subject} [{done.stdout.strip()}]" if done.returncode == 0 else subject


def links_differ(old: bytes, new: bytes, xpath: str | None) -> bool:
    return oracle.link_key(old, xpath) != oracle.link_key(new, xpath)


def targets_only(old: bytes, new: bytes, url: str) -> bool:
    """Whether sitemill's reductions of the two versions differ in link and image targets only
    (their text, marks and all, the same with every target blanked): a change a crawler follows
    and a reader of the text does not see. From sitemill's own reduction, not the oracle's."""
    from sitemill.lastmod.fingerprint.digest import reduce_html

    blanked = [TARGET_MARK.sub("\x01\\1\x01", reduce_html(data, url=url)) for data in (old, new)]
    return blanked[0] == blanked[1]


TARGET_MARK = re.compile("\x01([HIS])[^\x01]*\x01")


def what_sitemill_saw(
    reader: oracle.BlobReader, before: str, after: str, url: str = ""
) -> list[str]:
    """The first words sitemill's fingerprint read differently in the two versions of the page
    at ``url`` (an explanation of the culprit, from the installed package's own reduction: not
    the oracle), its links resolved from that URL as a build resolves them."""
    from explain import word_changes

    old, new = reader.read(before), reader.read(after)
    if old is None or new is None:
        return []
    return word_changes(old, new, url)[:3]


def tally(
    listed: dict[str, str | None], dates: dict[str, oracle.OracleDate], base: str
) -> dict[str, int]:
    """How sitemill's lastmods stand against one reading's dates: pages (listed and mapped to a
    file), same, later, earlier, no date (the oracle or sitemill gives none)."""
    by_key: dict[str, str] = {}
    for path in dates:
        for key in url_keys(path):
            by_key.setdefault(key, path)
    counts = Counter(pages=0, same=0, later=0, earlier=0, undated=0, dated=0)
    counts["dated"] = sum(1 for d in dates.values() if d.time is not None)
    for loc, lastmod in listed.items():
        path = by_key.get(unquote(loc[len(base) :])) if loc.startswith(base) else None
        if path is None:
            continue
        counts["pages"] += 1
        theirs, ours = dates[path].time, epoch(lastmod)
        if theirs is None or ours is None:
            counts["undated"] += 1
        elif ours == theirs:
            counts["same"] += 1
        else:
            counts["later" if ours > theirs else "earlier"] += 1
    return dict(counts)


def differing(
    listed: dict[str, str | None], dates: dict[str, oracle.OracleDate], base: str
) -> dict[str, list[dict[str, str]]]:
    """The pages one reading dates apart from sitemill, each with both dates and the commit
    the reading dates it by: ``later`` (sitemill's date after the reading's) and ``earlier``."""
    by_key: dict[str, str] = {}
    for path in dates:
        for key in url_keys(path):
            by_key.setdefault(key, path)
    found: dict[str, list[dict[str, str]]] = {"later": [], "earlier": []}
    for loc, lastmod in sorted(listed.items()):
        path = by_key.get(unquote(loc[len(base) :])) if loc.startswith(base) else None
        if path is None:
            continue
        verdict = dates[path]
        theirs, ours = verdict.time, epoch(lastmod)
        if theirs is None or ours is None or ours == theirs:
            continue
        at = next((v for v in verdict.versions if v.time == ours), None)
        found["later" if ours > theirs else "earlier"].append(
            {
                "page": path,
                "sitemill": lastmod or "",
                "sitemill_commit": at.commit[:10] if at else "",
                "reading": day(theirs),
                "reading_commit": (verdict.commit or "")[:10],
            }
        )
    return found


def date_with(
    reading: str, folder: Path, xpath: str | None, base: str
) -> dict[str, oracle.OracleDate]:
    """One reading's dates for every page of the site folder."""
    if reading == "text":
        import textoracle  # (trafilatura: the realsites extra of pyproject.toml)

        return textoracle.date_pages(folder, base)
    return oracle.date_pages(folder, xpath, reading, base)


def _version(library: str) -> str:
    try:
        return importlib.metadata.version(library)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


# The readings' own code: the oracle, the text reading and the modules version 6 reads with (a
# change of template.py or stamps.py is a new reading as much as one of oracle.py is).
READING_SOURCES = (
    *("oracle.py", "textoracle.py", "blocks.py", "commitedits.py"),
    *("selfdates.py", "stamps.py", "teasers.py", "template.py"),
)


def oracle_key(reading: str, site: dict[str, str], head: str) -> str:
    """What one reading of one site depends on: the site's commit, where its article is and its
    URL, the readings' own source and the libraries they parse with. Never sitemill."""
    here = Path(__file__).parent
    sources = [(here / name).read_bytes() for name in READING_SOURCES]
    libraries = [_version(name) for name in ("lxml", "trafilatura")]
    said = [reading, head, site.get("subdir", ""), site.get("article_xpath"), site["base_url"]]
    digest = hashlib.sha256(json.dumps([said, libraries]).encode())
    for source in sources:
        digest.update(hashlib.sha256(source).digest())
    return digest.hexdigest()[:32]


def cached_dates(
    reading: str, site: dict[str, str], checkout: Path, head: str, cache: Path | None
) -> dict[str, oracle.OracleDate]:
    """One reading's dates, from ``cache`` (a folder of this tool's own pickles) when an
    earlier run read the same commit with the same readings' code, else read and kept there:
    a reading of the oracle depends on the site alone, so it can be made while sitemill
    changes, and a count made later runs only sitemill."""
    xpath, base = site.get("article_xpath"), site["base_url"]
    if cache is None:
        return date_with(reading, checkout, xpath, base)
    kept = cache / f"{site['name']}-{reading}-{oracle_key(reading, site, head)}.pickle"
    if kept.exists():
        dates: dict[str, oracle.OracleDate] = pickle.loads(kept.read_bytes())
        return dates
    dates = date_with(reading, checkout, xpath, base)
    cache.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(pickle.dumps(dates, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(partial, kept)
    return dates


def head_of(checkout: Path) -> str:
    """The commit checked out."""
    return subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def warm_cache(
    sites: list[dict[str, str]], data: Path, readings: tuple[str, ...], cache: Path
) -> int:
    """Read every site with every reading into ``cache`` and nothing else (no sitemill run, no
    count): the slow half of a count, made ahead of it."""
    for site in sites:
        checkout = site_folder(site, data)
        if not checkout.exists():
            print(f"{site['name']}: no checkout under {data}", file=sys.stderr)
            continue
        for reading in readings:
            started = time.monotonic()
            cached_dates(reading, site, checkout, head_of(checkout), cache)
            took = time.monotonic() - started
            print(f"{site['name']}: {reading} read in {took:.0f} s", file=sys.stderr, flush=True)
    return 0


def site_folder(site: dict[str, str], data: Path) -> Path:
    """The built site's folder: the checkout, or its ``subdir`` (a site built into ``docs/`` of
    the source branch, as GitHub Pages' "main, folder docs" publishes it)."""
    return data / site["name"] / site.get("subdir", "")


class OverBudget(Exception):
    """A reading of the oracle took longer than the run's --budget (a very large site)."""


def _over_budget(signum: int, frame: object) -> None:
    raise OverBudget()


def measure(
    site: dict[str, str],
    data: Path,
    sitemill: str,
    top: int = 5,
    readings: tuple[str, ...] = ("v6",),
    budget: int = 0,
    cache: Path | None = None,
) -> dict[str, object]:
    checkout = site_folder(site, data)
    head = head_of(checkout)
    base = site["base_url"]
    with tempfile.TemporaryDirectory(prefix="sitemill-realsites-") as tmp:
        cpu_before = children_cpu()
        seconds, said = run_sitemill(sitemill, checkout, base, Path(tmp))
        cpu_seconds = children_cpu() - cpu_before
        listed = read_sitemaps(Path(tmp))
    by_reading: dict[str, dict[str, oracle.OracleDate]] = {}
    seconds_by_reading: dict[str, float] = {}
    for reading in readings:
        started = time.monotonic()
        signal.alarm(budget)
        try:
            by_reading[reading] = cached_dates(reading, site, checkout, head, cache)
        except OverBudget:
            print(
                f"{site['name']}: oracle {reading} over {budget} s, not measured", file=sys.stderr
            )
            continue
        finally:
            signal.alarm(0)
        seconds_by_reading[reading] = round(time.monotonic() - started, 1)
    if not by_reading:
        raise OverBudget(site["name"])
    readings = tuple(reading for reading in readings if reading in by_reading)
    dates = by_reading[readings[0]]  # (the details: from the first reading measured)
    oracle_seconds = seconds_by_reading[readings[0]]

    by_key: dict[str, str] = {}
    for path in dates:
        for key in url_keys(path):
            by_key.setdefault(key, path)

    result: dict[str, object] = {
        "name": site["name"],
        "head": head,
        "expected_commit": site["commit"],
        "sitemill_seconds": round(seconds, 1),
        "sitemill_cpu_seconds": round(cpu_seconds, 1),
        "oracle_seconds": round(oracle_seconds, 1),
        "sitemill_said": said,
        "listed": len(listed),
        "oracle_dated": sum(1 for d in dates.values() if d.time is not None),
        "reading": readings[0],
        "readings": {
            reading: {
                **tally(listed, by_reading[reading], base),
                "seconds": seconds,
                "pages_apart": differing(listed, by_reading[reading], base),
            }
            for reading, seconds in seconds_by_reading.items()
        },
    }
    same = later = earlier = undated = 0
    later_commits: Counter[tuple[str, str]] = Counter()
    later_links: Counter[tuple[str, str]] = Counter()
    # Pages whose culprit changed link or image targets: the oracle's article links, or targets
    # alone in sitemill's own reduction (targets_only).
    later_targets = 0
    later_pages: dict[tuple[str, str], list[str]] = defaultdict(list)
    later_blobs: dict[tuple[str, str], tuple[str, str, str]] = {}
    reader = oracle.BlobReader(checkout)
    xpath = site.get("article_xpath")
    later_examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    earlier_examples: list[dict[str, str]] = []
    earlier_why: Counter[str] = Counter()
    problems: dict[str, list[str]] = defaultdict(list)
    listed_files: set[str] = set()
    for loc, lastmod in sorted(listed.items()):
        if not loc.startswith(base):
            problems["outside the base URL"].append(loc)
            continue
        rel = unquote(loc[len(base) :])
        path = by_key.get(rel)
        if path is None:
            suffix = rel.rsplit(".", 1)[-1].lower() if "." in rel.rsplit("/", 1)[-1] else "?"
            problems[f"non-HTML listed (.{suffix})"].append(loc)
            if "_static/" in rel:
                problems["_static/ asset listed"].append(loc)
            continue
        listed_files.add(path)
        verdict = dates[path]
        facts = verdict.facts
        if facts.skip in ("redirect", "noindex", "404"):
            problems[f"{facts.skip} page listed"].append(loc)
        if facts.canonical:
            canonical = urljoin(loc, facts.canonical)
            if canonical != loc:
                if urlsplit(canonical).netloc.lower() != urlsplit(loc).netloc.lower():
                    problems["canonical on another host"].append(f"{loc} -> {canonical}")
                elif comparable(canonical) != comparable(loc):
                    problems["canonical names another page (a copy)"].append(
                        f"{loc} -> {canonical}"
                    )
                else:
                    kind = spelling_kind(loc, canonical)
                    problems[f"<loc> spelled unlike its canonical ({kind})"].append(
                        f"{loc} vs {canonical}"
                    )
        if verdict.time is None:
            undated += 1
            continue
        ours = epoch(lastmod)
        if ours is None:
            undated += 1
        elif ours == verdict.time:
            same += 1
        elif ours > verdict.time:
            later += 1
            at = next((i for i, v in enumerate(verdict.versions) if v.time == ours), None)
            culprit = verdict.versions[at] if at is not None else None
            commit = (
                (culprit.commit[:10], source_subject(checkout, culprit.subject))
                if culprit
                else ("?", f"no commit of this page at {lastmod}")
            )
            later_commits[commit] += 1
            if at is not None and at + 1 < len(verdict.versions):
                before, after = verdict.versions[at + 1].blob, verdict.versions[at].blob
                if before and after:
                    later_blobs.setdefault(commit, (before, after, base + path))
                old = reader.read(before) if before else None
                new = reader.read(after) if after else None
                if old is not None and new is not None:
                    links = links_differ(old, new, xpath)
                    later_links[commit] += links
                    later_targets += links or targets_only(old, new, base + path)
            later_pages[commit].append(path)
            if len(later_examples[commit]) < 3:
                later_examples[commit].append(path)
        else:
            earlier += 1
            first = min(v.time for v in verdict.versions)
            why = (
                "older than the page's first version on the branch (its first-parent line): "
                "a merged branch's commit, or a rename the oracle does not follow"
                if ours < first
                else "a text change the oracle sees was not counted"
            )
            earlier_why[why] += 1
            if len(earlier_examples) < 10:
                earlier_examples.append(
                    {
                        "page": path,
                        "sitemill": lastmod or "",
                        "oracle": day(verdict.time),
                        "why": why,
                        "oracle_commit": (verdict.commit or "")[:10],
                        "subject": next(
                            (v.subject for v in verdict.versions if v.commit == verdict.commit), ""
                        ),
                    }
                )
    seen_by_sitemill = {
        commit: what_sitemill_saw(reader, *later_blobs[commit])
        for commit, _ in later_commits.most_common(top)
        if commit in later_blobs
    }
    reader.close()
    unlisted = [p for p, d in dates.items() if d.time is not None and p not in listed_files]
    result.update(
        {
            "later_article_links": sum(later_links.values()),
            "later_targets_only": later_targets,
            "compared": same + later + earlier,
            "same": same,
            "later": later,
            "earlier": earlier,
            "listed_undated": undated,
            "later_commits": [
                {
                    "commit": c,
                    "subject": s,
                    "pages": n,
                    "examples": later_examples[(c, s)],
                    "article_links_changed": later_links[(c, s)],
                    "sitemill_saw": seen_by_sitemill.get((c, s), []),
                    "all_pages": later_pages[(c, s)],
                }
                for (c, s), n in later_commits.most_common()
            ],
            "earlier_examples": earlier_examples,
            "earlier_why": dict(earlier_why),
            "problems": {k: v for k, v in sorted(problems.items())},
            "oracle_dated_unlisted": unlisted,
            "oracle_skipped": dict(Counter(d.facts.skip for d in dates.values() if d.facts.skip)),
        }
    )
    return result


def failure(error: Exception, budget: int) -> str:
    """Why a site was not measured, in one line: the oracle over its budget, or the error that
    stopped sitemill or the oracle (a git command's own last words: a blob the mirror lacks)."""
    if isinstance(error, OverBudget):
        return f"the oracle over its {budget} s budget"
    if isinstance(error, subprocess.CalledProcessError):
        said = error.stderr.decode(errors="replace") if isinstance(error.stderr, bytes) else ""
        last = said.strip().splitlines()[-1:] or [f"exit status {error.returncode}"]
        words = [str(word) for word in error.cmd]
        command = words[:1] + (words[3:4] if words[1:2] == ["-C"] else words[1:2])
        return f"{' '.join(command)}: {last[0]}"
    return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error) else ''}"


def measure_sites(
    sites: list[dict[str, str]],
    data: Path,
    sitemill: str,
    top: int = 5,
    readings: tuple[str, ...] = ("v6",),
    budget: int = 0,
    cache: Path | None = None,
) -> tuple[list[dict[str, object]], dict[str, str]]:
    """Each site measured in turn: the results, and per site not measured why. One site's
    failure (a blob the mirror lacks, the oracle over its budget, sitemill's exit) is that
    site's alone: the run goes on with the others and keeps their results."""
    results: list[dict[str, object]] = []
    not_measured: dict[str, str] = {}
    for site in sites:
        if not (data / site["name"]).exists():
            not_measured[site["name"]] = f"no checkout under {data} (run checkout.py)"
        else:
            try:
                results.append(measure(site, data, sitemill, top, readings, budget, cache))
            except Exception as error:  # (any failure of one site: reported, the run goes on)
                signal.alarm(0)
                not_measured[site["name"]] = failure(error, budget)
            else:
                print(f"{site['name']}: measured", file=sys.stderr, flush=True)
                continue
        print(f"{site['name']}: not measured: {not_measured[site['name']]}", file=sys.stderr)
    return results, not_measured


def print_readings(results: list[dict[str, object]]) -> None:
    """Per site, the oracle's readings side by side: pages, later, earlier, no date."""
    readings = [reading for reading in READINGS if any(reading in r["readings"] for r in results)]  # type: ignore[operator]  # type: ignore[call-overload]
    columns = ("pages", "dated", "same", "later", "earlier", "undated", "seconds")
    print(f"{'site':22}" + "".join(f" {c + ' ' + r:>13}" for c in columns for r in readings))
    totals: Counter[str] = Counter()
    for r in results:
        counts = r["readings"]
        row = ""
        for column in columns:
            for reading in readings:
                value = counts.get(reading, {}).get(column, "-")  # type: ignore[attr-defined]
                row += f" {value:>13}"
                if value != "-":
                    totals[f"{column} {reading}"] += value
        print(f"{r['name']:22}{row}")
    print(
        f"{'total':22}"
        + "".join(f" {round(totals[c + ' ' + r], 1):>13}" for c in columns for r in readings)
    )
    print()


def print_table(results: list[dict[str, object]], top: int) -> None:
    print(
        f"{'site':20} {'listed':>6} {'dated':>6} {'same':>6} {'later':>6} {'(links)':>7} "
        f"{'(targets)':>9} {'earlier':>7} {'unlisted':>8} {'sitemill s':>10} {'oracle s':>8}"
    )
    for r in results:
        print(
            f"{r['name']:20} {r['listed']:>6} {r['oracle_dated']:>6} {r['same']:>6} "
            f"{r['later']:>6} {r['later_article_links']:>7} {r['later_targets_only']:>9} "
            f"{r['earlier']:>7} "
            f"{len(r['oracle_dated_unlisted']):>8} "  # type: ignore[arg-type]
            f"{r['sitemill_seconds']:>10} {r['oracle_seconds']:>8}"
        )
    for r in results:
        print(f"\n== {r['name']} (HEAD {str(r['head'])[:12]})")
        if r["head"] != r["expected_commit"]:
            print(f"   warning: checkout is not at the listed commit {r['expected_commit']}")
        for entry in r["later_commits"][:top]:  # type: ignore[index]
            links = entry["article_links_changed"]
            note = f" ({links} of them: article link/image targets changed)" if links else ""
            print(
                f"   later {entry['pages']:>4}  {entry['commit']}  {entry['subject'][:100]}{note}"
            )
            print(f"              e.g. {', '.join(entry['examples'])}")
            for change in entry["sitemill_saw"]:
                print(f"              sitemill saw: {change[:150]}")
        for why, count in r["earlier_why"].items():  # type: ignore[union-attr]
            print(f"   earlier {count:>4}  {why}")
        for entry in r["earlier_examples"][:top]:  # type: ignore[index]
            print(
                f"   earlier  {entry['page']}: sitemill {entry['sitemill'][:10]}, oracle "
                f"{entry['oracle']} ({entry['oracle_commit']} {entry['subject'][:60]})"
            )
        for kind, locs in r["problems"].items():  # type: ignore[union-attr]
            print(f"   page set: {kind}: {len(locs)}, e.g. {locs[0]}")
        if r["oracle_dated_unlisted"]:
            unlisted = r["oracle_dated_unlisted"]
            print(f"   not listed, dated by the oracle: {len(unlisted)}, e.g. {unlisted[:3]}")  # type: ignore[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, default=Path(__file__).with_name("sites.json"))
    parser.add_argument("--data", type=Path, default=Path("/work/realsites-data"))
    parser.add_argument("--sitemill", default=str(Path(sys.executable).with_name("sitemill")))
    parser.add_argument("--only", action="append", help="a site name (repeat)")
    parser.add_argument("--top", type=int, default=5, help="commits and examples shown per site")
    parser.add_argument("--details", type=Path, help="write every finding as JSON here")
    parser.add_argument(
        "--oracle",
        default="both",
        help="the readings, comma-separated, the details from the first: v6 (oracle.py: "
        "repeated blocks, self-dates apart, targets), v5 (the reading before the dates issue's "
        "decision 3), text (textoracle.py: trafilatura's main text, its targets, JSON-LD less "
        "dates); both is v6,v5",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=0,
        help="seconds one reading of the oracle may take per site (0: no bound); a reading "
        "over it is not measured (its columns show -)",
    )
    parser.add_argument(
        "--oracle-cache",
        type=Path,
        help="a folder keeping each reading of a site's commit (by the readings' source): a "
        "later run reads it back instead of reading the site again",
    )
    parser.add_argument(
        "--warm-cache",
        action="store_true",
        help="with --oracle-cache: only read the sites into the cache (no sitemill, no count)",
    )
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _over_budget)
    sites = [
        site
        for site in json.loads(args.sites.read_text())
        if not args.only or site["name"] in args.only
    ]
    readings = oracle.READINGS if args.oracle == "both" else tuple(args.oracle.split(","))
    unknown = [reading for reading in readings if reading not in READINGS]
    if unknown:
        parser.error(f"no reading {', '.join(unknown)} (one of {', '.join(READINGS)}, or both)")
    if args.warm_cache:
        if args.oracle_cache is None:
            parser.error("--warm-cache needs --oracle-cache")
        return warm_cache(sites, args.data, readings, args.oracle_cache)
    results, not_measured = measure_sites(
        sites, args.data, args.sitemill, args.top, readings, args.budget, args.oracle_cache
    )
    print_readings(results)
    print_table(results, args.top)
    for name, why in not_measured.items():
        print(f"\n== {name}: not measured: {why}")
    if args.details:
        args.details.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
