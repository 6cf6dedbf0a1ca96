"""`make bench` section check-10k: `sitemill check --all` of 10,000 pages on loopback.

Run as a child process (`python benchmarks/check_bench.py N [CONCURRENCY]`) so that its peak
RSS is the check's own: a generated site of N pages of about 10 KB (each with its canonical and
an hreflang pair of two languages), built once by `sitemill build` for a base URL on a reserved
name, served by `python -m http.server` in another process, and checked with every URL asked
(its origin sent to the server), 8 requests at once (or CONCURRENCY). Prints one JSON line:
requests, seconds, requests per second, problems, peak RSS.
"""

from __future__ import annotations

import json
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
BASE = "https://check-bench.example/"
WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "the",
    "lazy",
    "dog",
    "while",
    "sitemill",
    "reads",
    "every",
    "page",
]


def make_site(root: Path, count: int) -> None:
    """``count`` pages in two languages (``en/`` and ``fr/``), each naming the other."""
    if (root / "sitemill-state.json.gz").is_file():
        return
    for number in range(count):
        lang, other = ("en", "fr") if number % 2 == 0 else ("fr", "en")
        name = f"section-{number // 2 % 50:02d}/page-{number // 2:05d}.html"
        path = root / lang / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = " ".join(WORDS[(number + k) % len(WORDS)] for k in range(1500))
        path.write_text(
            f"<!doctype html><html><head><title>Page {number}</title>"
            f'<link rel="canonical" href="{BASE}{lang}/{name}">'
            f'<link rel="alternate" hreflang="{lang}" href="/{lang}/{name}">'
            f'<link rel="alternate" hreflang="{other}" href="/{other}/{name}">'
            f"</head><body><nav>menu</nav><main><h1>Page {number}</h1><p>{text}</p></main>"
            "</body></html>",
            encoding="utf-8",
        )
    subprocess.run(
        [str(Path(sys.executable).with_name("sitemill")), "build", str(root), "--base-url", BASE,
         "--lastmod", "mtime", "-q"],
        check=True,
    )  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def check_site(count: int, concurrency: int = 8) -> dict[str, float]:
    from sitemill.check.run import CheckOptions
    from sitemill.config.model import load_config
    from sitemill.jobs.check import check_tree
    from sitemill.web.livesite import Limits

    root = OUT / f"check-{count}"
    make_site(root, count)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        config = load_config({"base_url": BASE}, {}, {})
        limits = Limits(concurrency, timeout=10.0, request_deadline=30.0, run_deadline=600.0)
        started = time.perf_counter()
        checked = check_tree(
            config, root, root, None, CheckOptions(every=True), limits,
            connect={BASE.rstrip("/"): f"http://127.0.0.1:{port}"},
        )  # fmt: skip
        seconds = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait()
    report = checked.report
    return {
        "urls": report.listed,
        "checked": report.pages,
        "passed": len(report.passed),
        "problems": len(report.sorted_problems()),
        "requests": report.requests,
        "seconds": seconds,
        "requests_per_s": report.requests / seconds,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def bench_check(section: object, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the check's requests per second and peak RSS."""
    from harness import run_child

    count = 1_000 if quick else 10_000
    result = run_child(section, Path(__file__), count, label="check")
    if result is None:
        return
    rss = result["peak_rss_bytes"] / 1_000_000
    add = section.check  # type: ignore[attr-defined]
    every = result["passed"] == result["checked"] == result["urls"] == count
    add(f"{count:,} URLs: every one passed", "all, 0 problems",
        f"{result['passed']:,} passed, {result['problems']} problems",
        every and result["problems"] == 0)  # fmt: skip
    rate = result["requests_per_s"]
    measured = f"{result['requests']:,} in {result['seconds']:.1f} s: {rate:.0f}/s"
    add(f"{count:,} URLs: requests per second", "≥ 300/s", measured, rate >= 300)
    add(f"{count:,} URLs: peak RSS", "≤ 100 MB", f"{rss:.0f} MB", rss <= 100)


if __name__ == "__main__":
    print(json.dumps(check_site(int(sys.argv[1]), *map(int, sys.argv[2:3]))))
