"""Timing and peak memory of a command, and reading back the sitemaps it wrote."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"

# Runs in a fresh interpreter per measurement, so RUSAGE_CHILDREN holds only this one command
# (and whatever it waited for, e.g. git): its peak RSS and CPU time, not the harness's.
_WRAPPER = """
import json, resource, subprocess, sys, time
result_path, log_path, *command = sys.argv[1:]
with open(log_path, "wb") as log:
    start = time.perf_counter()
    code = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
with open(result_path, "w") as out:
    json.dump({"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
               "peak_rss_bytes": peak, "exit_code": code}, out)
"""


@dataclass(frozen=True)
class Run:
    wall_s: float
    cpu_s: float
    peak_rss_bytes: int
    exit_code: int
    log: str


@dataclass
class Timing:
    """A command run `len(runs)` times, each into a fresh `out_dir`; the targets use medians."""

    label: str
    command: list[str]
    out_dir: Path
    runs: list[Run] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.runs) and all(run.exit_code == 0 for run in self.runs)

    @property
    def wall_s(self) -> float:
        return statistics.median(run.wall_s for run in self.runs)

    @property
    def cpu_s(self) -> float:
        return statistics.median(run.cpu_s for run in self.runs)

    @property
    def peak_rss_bytes(self) -> int:
        return int(statistics.median(run.peak_rss_bytes for run in self.runs))

    def failure(self) -> str:
        """The last lines the failing run printed."""
        bad = next((run for run in self.runs if run.exit_code != 0), None)
        if bad is None:
            return ""
        tail = " | ".join(bad.log.strip().splitlines()[-3:])
        return f"exit {bad.exit_code}: {tail}"

    def as_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "ok": self.ok,
            "median_wall_s": self.wall_s if self.ok else None,
            "median_cpu_s": self.cpu_s if self.ok else None,
            "median_peak_rss_bytes": self.peak_rss_bytes if self.ok else None,
            "runs": [
                {
                    "wall_s": run.wall_s,
                    "cpu_s": run.cpu_s,
                    "peak_rss_bytes": run.peak_rss_bytes,
                    "exit_code": run.exit_code,
                }
                for run in self.runs
            ],
        }


def own_peak_rss_bytes() -> int:
    """This process's peak RSS since its exec (VmHWM, Linux). ``ru_maxrss`` keeps the peak of the
    process it was forked from across exec: late in `make bench`, run.py itself holds about
    500 MB, which a child measured so reported as its own (state-100k read 495 MB, alone 216)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage if sys.platform == "darwin" else usage * 1024


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def moto_server() -> Iterator[str]:
    """A moto server on a free loopback port, with dummy credentials; its endpoint URL."""
    import logging

    from moto.server import ThreadedMotoServer

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(name, "testing")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # (the server's request log)
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


def clean_env() -> dict[str, str]:
    """The environment minus SITEMILL_* settings, so a user's shell cannot change the result."""
    return {key: value for key, value in os.environ.items() if not key.startswith("SITEMILL_")}


def reset_dir(path: Path) -> Path:
    """An empty directory: each timed run writes everything (no 'nothing changed' shortcut)."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def _measure(timing: Timing, scratch: Path) -> None:
    reset_dir(timing.out_dir)
    timing.runs.append(run_once(timing.command, scratch))


def run_once(command: Sequence[str], scratch: Path) -> Run:
    """One run of ``command`` in a fresh wrapper process: its wall and CPU time and peak RSS
    (what it writes is left where it is: a second run starts from the first's)."""
    result_path, log_path = scratch / "measure.json", scratch / "measure.log"
    subprocess.run(
        [sys.executable, "-c", _WRAPPER, str(result_path), str(log_path), *command],
        cwd=scratch,
        env=clean_env(),
        check=True,
    )
    data = json.loads(result_path.read_text())
    log = log_path.read_text(encoding="utf-8", errors="replace")
    return Run(data["wall_s"], data["cpu_s"], data["peak_rss_bytes"], data["exit_code"], log)


def time_commands(timings: Sequence[Timing], *, repeat: int, scratch: Path) -> None:
    """Run each command `repeat` times, round-robin, so that a busy spell on the machine hits
    every command alike rather than one; a command that fails is not run again."""
    scratch.mkdir(parents=True, exist_ok=True)
    for round_number in range(1, repeat + 1):
        for timing in timings:
            if timing.ok or not timing.runs:
                print(f"  [{round_number}/{repeat}] {timing.label} …", flush=True)
                _measure(timing, scratch)


# --- reading sitemaps back ------------------------------------------------------------------


@dataclass(frozen=True)
class UrlEntry:
    loc: str
    lastmod: str | None


@dataclass
class SitemapSet:
    """What an output directory's `sitemap.xml` lists: child files, index lastmods, URLs."""

    children: list[Path] = field(default_factory=list)
    child_lastmods: list[str | None] = field(default_factory=list)
    urls_per_child: list[int] = field(default_factory=list)
    is_index: bool = False


def _parse(path: Path) -> ET.Element:
    if path.suffix == ".gz":
        with gzip.open(path) as handle:
            return ET.parse(handle).getroot()
    return ET.parse(path).getroot()


def _urls_of(root: ET.Element) -> Iterator[UrlEntry]:
    if root.tag != f"{SITEMAP_NS}urlset":
        raise ValueError(f"expected a <urlset>, found <{root.tag}>")
    for url in root.iter(f"{SITEMAP_NS}url"):
        yield UrlEntry(url.findtext(f"{SITEMAP_NS}loc", ""), url.findtext(f"{SITEMAP_NS}lastmod"))


def read_sitemaps(out_dir: Path, sitemap_set: SitemapSet) -> Iterator[tuple[int, UrlEntry]]:
    """(child number, URL) for every URL reachable from `out_dir/sitemap.xml`, in file order.

    Fills `sitemap_set` as it goes. A lone `<urlset>` counts as child 0.
    """
    root = _parse(out_dir / "sitemap.xml")
    if root.tag == f"{SITEMAP_NS}urlset":
        sitemap_set.children.append(out_dir / "sitemap.xml")
        sitemap_set.urls_per_child.append(0)
        for entry in _urls_of(root):
            sitemap_set.urls_per_child[0] += 1
            yield 0, entry
        return
    sitemap_set.is_index = True
    for number, item in enumerate(root.iter(f"{SITEMAP_NS}sitemap")):
        # Children sit beside the index (location rule), so the URL's last segment is the file.
        name = urlsplit(item.findtext(f"{SITEMAP_NS}loc", "")).path.rsplit("/", 1)[-1]
        child = out_dir / name
        sitemap_set.children.append(child)
        sitemap_set.child_lastmods.append(item.findtext(f"{SITEMAP_NS}lastmod"))
        sitemap_set.urls_per_child.append(0)
        for entry in _urls_of(_parse(child)):
            sitemap_set.urls_per_child[number] += 1
            yield number, entry


def lastmod_timestamp(text: str | None) -> int | None:
    """A W3C datetime as a Unix timestamp (None when absent); raises ValueError when malformed."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:  # a bare date: the protocol's dates are UTC here
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


def run_child(section: Any, script: Path, count: int, *, label: str) -> dict[str, Any] | None:
    """Run ``python script count`` (a benchmark whose peak RSS must be its own) and return the
    JSON line it prints; None, with a failed check in ``section`` (run.Section), if it fails."""
    done = subprocess.run(
        [sys.executable, str(script), str(count)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        section.check(f"{label}: runs", "exit 0", done.stderr.strip()[-300:], False)
        return None
    result: dict[str, Any] = json.loads(done.stdout)
    return result
