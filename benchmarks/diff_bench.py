"""`make bench` section diff-50k: the diff of a 50,000-page site against its state (issue 66).

A generated site of PAGES pages of about 3 KB (SECTIONS folders; each page an article of words
of its own drawn from a vocabulary of VOCABULARY made-up words, so that no two pages resemble)
is built once (`sitemill build --lastmod mtime`): its state is the one compared against. Then a
change like a documentation restructure: MOVED_SAME pages move with their bytes as they were,
MOVED_EDITED move with about 5 % of their words replaced, REMOVED are deleted and EDITED are
edited in place (about 5 % of their words). Timed, round by round:

- the diff (`diff_driver.py`: sitemill.commands.diff.diff_tree, as `sitemill diff SITE
  --against STATE` runs it): the ordinary build of the changed site as a dry run from the old
  state into memory, then the comparison by URL;
- its floor: a plain `sitemill build` of the same changed site from its own state, nothing new
  (the build the diff is made of, without the change to find and without the comparison).

Target: the diff's wall time at most TARGET times the floor's (the median of the rounds'
ratios): the diff is that build, plus reading and fingerprinting the 2,500 changed pages
again (5 % of the site) and one pass over both states by URL; 1.3 leaves that 30 % and no
more: a diff that compared pairs of pages, or read the unchanged ones, would cost several
times a build. Peak RSS is reported beside the floor's (the diff holds both states and the
sitemaps in memory), with a bound of RSS_TARGET. Checked, not timed: the moves with their
bytes found as renamed, the removed pages gone, the edited pages changed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from harness import Run, Timing, reset_dir, run_once

BASE_URL = "https://example.org/"
PAGES, QUICK_PAGES = 50_000, 5_000
SECTIONS = 50
VOCABULARY = 20_000
WORDS_PER_PAGE = 400
TARGET = 1.3
RSS_TARGET = 1.5
OLD_TIME, NEW_TIME = 1_767_225_600, 1_767_312_000  # 2026-01-01 and a day later (file times)
DRIVER = Path(__file__).resolve().parent / "diff_driver.py"


def sizes(pages: int) -> dict[str, int]:
    """How many pages each kind of change touches: 1,000 moved, 500 removed, 1,000 edited
    for 50,000 pages (and in proportion)."""
    scale = pages / PAGES
    return {
        "moved_same": round(500 * scale),
        "moved_edited": round(500 * scale),
        "removed": round(500 * scale),
        "edited": round(1_000 * scale),
    }


def _vocabulary(rng: random.Random) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [
        "".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(VOCABULARY)
    ]


def page(title: str, words: list[str]) -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        '</head>\n<body><header><nav><a href="/">Home</a> <a href="/about/">About</a></nav>'
        f"</header><main><article><h1>{title}</h1><p>{' '.join(words)}</p></article></main>\n"
        "<footer>Site</footer></body></html>\n"
    )


def _edited(words: list[str], rng: random.Random, vocabulary: list[str]) -> list[str]:
    """About 5 % of the words replaced."""
    out = list(words)
    for index in rng.sample(range(len(out)), len(out) // 20):
        out[index] = rng.choice(vocabulary)
    return out


def ensure_sites(folder: Path, pages: int) -> tuple[Path, Path, dict[str, list[str]]]:
    """The site before and after the change (made once), and which paths each change took."""
    old, new, marker = folder / "old", folder / "new", folder / "made.json"
    if marker.is_file():
        made = json.loads(marker.read_text())
        if made.get("pages") == pages:
            return old, new, made["changes"]
    for site in (old, new):
        reset_dir(site)
    rng = random.Random(66)
    vocabulary = _vocabulary(rng)
    counts = sizes(pages)
    order = rng.sample(range(pages), sum(counts.values()))
    picked: dict[int, str] = {}
    for kind, count in counts.items():
        picked.update(dict.fromkeys(order[:count], kind))
        order = order[count:]
    changes: dict[str, list[str]] = {kind: [] for kind in counts}
    for number in range(pages):
        path = f"section{number % SECTIONS}/page-{number}.html"
        words = [rng.choice(vocabulary) for _ in range(WORDS_PER_PAGE)]
        body = page(f"Page {number}", words)
        _write(old / path, body, OLD_TIME)
        kind = picked.get(number)
        if kind == "removed":
            changes[kind].append(path)
            continue
        if kind in ("moved_same", "moved_edited"):
            changes[kind].append(path)
            path = f"moved/section{number % SECTIONS}/page-{number}.html"
        if kind in ("moved_edited", "edited"):
            body = page(f"Page {number}", _edited(words, rng, vocabulary))
            if kind == "edited":
                changes[kind].append(path)
        _write(new / path, body, NEW_TIME if kind else OLD_TIME)
    marker.write_text(json.dumps({"pages": pages, "changes": changes}))
    return old, new, changes


def _write(path: Path, text: str, when: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (when, when))


def build(sitemill: list[str], site: Path, out: Path) -> list[str]:
    return [
        *sitemill, "build", str(site), "--out", str(out), "-q", "--base-url", BASE_URL,
        "--lastmod", "mtime",
    ]  # fmt: skip


def bench_diff(section: Any, *, sitemill: list[str], out: Path, quick: bool, repeat: int) -> None:
    pages = QUICK_PAGES if quick else PAGES
    folder = out / "diff"
    old, new, changes = ensure_sites(folder, pages)
    scratch = reset_dir(folder / "scratch")
    before = reset_dir(folder / "before")  # the old site's build: the state compared against
    made = run_once(build(sitemill, old, before), scratch)
    assert made.exit_code == 0, made.log
    against = folder / "against.json.gz"
    shutil.copyfile(before / "sitemill-state.json.gz", against)
    report = folder / "diff.json"
    diff = Timing("diff (diff_tree)", [], folder / "diff-out")
    diff.command = [sys.executable, str(DRIVER), str(new), str(against), BASE_URL, str(report)]
    floor = Timing("floor: build, nothing new", [], reset_dir(folder / "floor-out"))
    floor.command = build(sitemill, new, floor.out_dir)
    first = run_once(floor.command, scratch)  # (its state: the floor's runs find nothing new)
    assert first.exit_code == 0, first.log
    for round_number in range(1, repeat + 1):
        for timing in (diff, floor):
            print(f"  [{round_number}/{repeat}] {timing.label} …", flush=True)
            timing.runs.append(run_once(timing.command, scratch))
    section.timings.extend([diff, floor])
    _check(section, diff, floor, report, changes)


def _check(
    section: Any, diff: Timing, floor: Timing, report: Path, changes: dict[str, list[str]]
) -> None:
    ok = diff.ok and floor.ok and report.is_file()
    found = json.loads(report.read_text()) if ok else {}
    counts = found.get("counts", {})
    renamed = found.get("renamed", {})
    same = sum(1 for path in changes["moved_same"] if renamed.get(BASE_URL + path) == 1.0)
    near = sum(1 for path in changes["moved_edited"] if BASE_URL + path in renamed)
    section.check(
        "moved with their bytes: renamed", f"{len(changes['moved_same']):,}", f"{same:,}",
        same == len(changes["moved_same"]),
    )  # fmt: skip
    section.check(
        "moved and edited ~5 %: renamed (sketch)", f"{len(changes['moved_edited']):,}",
        f"{near:,}", near == len(changes["moved_edited"]),
    )  # fmt: skip
    gone, edited = counts.get("gone", -1), counts.get("changed", -1)
    section.check(
        "removed: gone; edited: changed",
        f"{len(changes['removed']):,}; {len(changes['edited']):,}",
        f"{gone:,}; {edited:,}",
        gone == len(changes["removed"]) + len(changes["moved_edited"]) - near
        and edited == len(changes["edited"]),
    )
    if not ok:
        return
    pairs = zip(diff.runs, floor.runs, strict=True)
    wall = statistics.median(ours.wall_s / theirs.wall_s for ours, theirs in pairs)
    section.check("diff / floor (wall)", f"≤ {TARGET:.2f}×", f"{wall:.3f}×", wall <= TARGET)
    rss = _median(diff.runs, "rss") / _median(floor.runs, "rss")
    target = f"≤ {RSS_TARGET:.2f}×"
    section.check("diff / floor (peak RSS)", target, f"{rss:.3f}×", rss <= RSS_TARGET)
    section.notes.append(
        f"  ratios: the median of the rounds' pairs (wall); CPU {_median(diff.runs, 'cpu'):.2f} s"
        f" against {_median(floor.runs, 'cpu'):.2f} s (main processes: workers not seen)"
    )


def _median(runs: list[Run], figure: str) -> float:
    return statistics.median(run.peak_rss_bytes if figure == "rss" else run.cpu_s for run in runs)
