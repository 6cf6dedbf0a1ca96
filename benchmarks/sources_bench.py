"""Rung 2's cost: a first run over a built site inside its source repository (3,000 markdown
sources, 2,000 commits, public/ untracked), with the sources' history read, against the same
run without rung 2 (a checkout of main, or the placeholder map that knows no source).

    python benchmarks/sources_bench.py make DIR        # the repository and its built site
    python benchmarks/sources_bench.py run DIR/repo/public [--no-map]

``make`` writes the history with one ``git fast-import`` (a Hugo project: hugo.toml,
content/pNNNN.md -> public/pNNNN/index.html): commit n edits three sources, the body of one,
the front matter only (its date) of another, and the title of a third. ``run`` times one
first run (no state, fresh sitemaps) of the interpreter's sitemill, its own source map
included; ``--no-map``: a map that knows no source (rung 2 asks, finds none). Run it with
each checkout's own interpreter to compare. A run that dates pages by their sources is
checked against an oracle replayed from ``make``'s rules (the last body or title change).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

SOURCES, COMMITS = 3_000, 2_000
START = 1_600_000_000
BASE = "https://bench.example.com/"


def source(number: int, title: str, body: str, date: int) -> bytes:
    text = f"---\ntitle: {title}\ndate: {date}\ntags: [t{number % 7}]\n---\n\n{body}\n"
    return text.encode()


def body_of(number: int, edit: int) -> str:
    lines = [f"Paragraph {line} of source {number}, edit {edit}." for line in range(20)]
    return "\n\n".join(lines)


def make(folder: Path) -> Path:
    repo = folder / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    state = {n: (f"Source {n}", 0, START) for n in range(SOURCES)}
    stream: list[bytes] = []

    def blob(path: str, data: bytes) -> None:
        stream.append(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")

    for number in range(COMMITS):
        when = START + number * 3600
        message = f"commit {number}"
        head = f"commit refs/heads/main\ncommitter B <b@b> {when} +0000\n"
        stream.append(f"{head}data {len(message)}\n{message}\n".encode())
        if number == 0:
            blob(".gitignore", b"public/\n")
            blob("hugo.toml", f'baseURL = "{BASE}"\n'.encode())
            for n in range(SOURCES):
                blob(f"content/p{n:04d}.md", source(n, f"Source {n}", body_of(n, 0), START))
            continue
        edited, dated, titled = (
            (number * 7) % SOURCES,
            (number * 13) % SOURCES,
            (number * 29) % SOURCES,
        )
        title, edit, _ = state[edited]
        state[edited] = (title, edit + 1, when)
        title, edit, date = state[dated]
        state[dated] = (title, edit, when)  # the date only
        title, edit, date = state[titled]
        state[titled] = (f"Source {titled}, v{number}", edit, date)
        for n in {edited, dated, titled}:
            title, edit, date = state[n]
            blob(f"content/p{n:04d}.md", source(n, title, body_of(n, edit), date))
    data = b"".join(stream)
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input=data, check=True)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "repack", "-adq"], check=True)
    site = repo / "public"
    site.mkdir()
    for n in range(SOURCES):
        head = f"<!doctype html><html><head><title>Source {n}</title></head>"
        text = f"{head}<body><main><p>{body_of(n, 0)}</p></main></body></html>"
        (site / f"p{n:04d}").mkdir()
        (site / f"p{n:04d}" / "index.html").write_text(text)
    return site


def oracle() -> dict[str, str]:
    """Each page's expected lastmod, replayed from make()'s own rules: when its source's
    body or title last changed (a date-only change is none)."""
    titles = {n: f"Source {n}" for n in range(SOURCES)}
    last = dict.fromkeys(range(SOURCES), START)
    for number in range(1, COMMITS):
        when = START + number * 3600
        last[(number * 7) % SOURCES] = when  # the body
        titled = (number * 29) % SOURCES
        if titles[titled] != (title := f"Source {titled}, v{number}"):
            titles[titled], last[titled] = title, when
    return {
        f"{BASE}p{n:04d}/": datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
        for n, when in last.items()
    }


class NoSources:
    """A map that knows no source: rung 2 off (``--no-map``)."""

    def sources(self, page: str) -> tuple[str, ...]:
        return ()


def run(site: Path, with_map: bool) -> None:
    from sitemill.config.model import load_config
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS
    from sitemill.jobs.tree import build_tree
    from sitemill.sinks import LocalDirSink

    try:
        from sitemill.lastmod.sourcefiles import rung
    except ImportError:
        rung = None  # type: ignore[assignment]  # main: no rung 2
    if rung is not None and not with_map:
        rung.source_map = lambda repo, site_dir, root: NoSources()  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        config, sink = load_config({"base_url": BASE}), LocalDirSink(Path(out))
        report = build_tree(config, site, sink, RunAsked(OUTPUTS))
        took = time.perf_counter() - started
        text = (Path(out) / "sitemap.xml").read_text()
    if report.dates.get("source"):
        written = dict(re.findall(r"<loc>([^<]*)</loc><lastmod>([^<]*)</lastmod>", text))
        wrong = sum(1 for url, when in oracle().items() if written.get(url) != when)
        print(f"{wrong} of {SOURCES:,} pages differ from the oracle")
    where = os.path.dirname(rung.__file__) if rung else "no rung 2"
    print(f"{took:.2f} s  {dict(report.dates)}  ({where})")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        print(make(Path(sys.argv[2])))
    else:
        run(Path(sys.argv[2]), "--no-map" not in sys.argv)
