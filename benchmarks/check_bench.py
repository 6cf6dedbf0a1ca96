"""`make bench` section check-10k: `sitemill check --all` of 10,000 pages on loopback.

Run as a child process (`python benchmarks/check_bench.py N [CONCURRENCY [SERVER]]`) so that its
peak RSS is the check's own: a generated site of N pages of about 10 KB (each with its canonical
and an hreflang pair of two languages), built once by `sitemill build` for a base URL on a
reserved name, served in another process (check_server.py, HTTP/1.1 kept alive; SERVER
"http.server" for Python's), and checked with every URL asked (its origin sent to the server),
8 requests at once (or CONCURRENCY). In the same run, interleaved with it round by round: the
floor (check_floor.py, a plain asyncio client GETting the same pages as many at once, each body
read whole), and sitemill's client alone (the same GETs, nothing judged). Prints one JSON line:
requests, seconds, requests per second, the floor's, their ratio per round, CPU per request,
problems, peak RSS.
"""

from __future__ import annotations

import json
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _serve(root: Path, port: int, server: str) -> subprocess.Popen[bytes]:
    """``server`` "fast": check_server.py (HTTP/1.1, kept alive); "http.server": Python's."""
    command = [sys.executable, str(Path(__file__).with_name("check_server.py")), str(root),
               str(port)]  # fmt: skip
    if server == "http.server":
        command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                   "--directory", str(root)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process


def _check_once(root: Path, port: int, concurrency: int) -> tuple[Any, float, float]:
    """One `sitemill check --all`: its report, wall and CPU seconds."""
    from sitemill.check.run import CheckOptions
    from sitemill.config.model import load_config
    from sitemill.jobs.check import check_tree
    from sitemill.web.livesite import Limits

    config = load_config({"base_url": BASE}, {}, {})
    limits = Limits(concurrency, timeout=10.0, request_deadline=30.0, run_deadline=600.0)
    started, cpu = time.perf_counter(), time.process_time()
    checked = check_tree(
        config, root, root, None, CheckOptions(every=True), limits,
        connect={BASE.rstrip("/"): f"http://127.0.0.1:{port}"},
    )  # fmt: skip
    return checked.report, time.perf_counter() - started, time.process_time() - cpu


def _client_once(paths: list[str], port: int, concurrency: int) -> tuple[float, float]:
    """sitemill's client alone (web.livesite) GETting the floor's URLs, each body read whole
    and nothing judged: requests per second, CPU seconds."""
    from sitemill.web.livesite import Limits, LiveSite

    origin = BASE.rstrip("/")
    limits = Limits(concurrency, timeout=10.0, request_deadline=30.0, run_deadline=600.0)
    site = LiveSite(frozenset({origin}), limits, {origin: f"http://127.0.0.1:{port}"})
    started, cpu = time.perf_counter(), time.process_time()
    read = site.get_many([origin + path for path in paths], 1 << 20, lambda a: len(a.body))
    assert all(read), "sitemill's client did not read every body"
    return len(paths) / (time.perf_counter() - started), time.process_time() - cpu


def _judging(
    root: Path, port: int, concurrency: int
) -> tuple[Callable[[str, bytes, bytes], None], list[bool]]:
    """The check's own judging of a page, taken from one check (the ``process`` its pages'
    get_many was given), as the judged floor's ``judge``: the answer parsed from the raw head
    and judged; and the list where each verdict's pass is kept."""
    from sitemill.web.livesite import LiveAnswer, LiveSite

    taken: list[tuple[int, Any, int]] = []
    get_many = LiveSite.get_many

    def spy(self: Any, urls: Any, limit: int, process: Any, **kw: Any) -> Any:
        urls = list(urls)
        taken.append((len(urls), process, limit))
        return get_many(self, urls, limit, process, **kw)

    LiveSite.get_many = spy  # type: ignore[method-assign]
    try:
        _check_once(root, port, concurrency)
    finally:
        LiveSite.get_many = get_many  # type: ignore[method-assign]
    _, process, limit = max(taken, key=lambda one: one[0])
    origin = BASE.rstrip("/")

    passed: list[bool] = []

    def judge(path: str, head: bytes, body: bytes) -> None:
        status, *lines = head.decode("latin-1").split("\r\n")
        fields = (line.partition(":") for line in lines if line)
        headers = tuple((name.strip(), value.strip()) for name, _, value in fields)
        answer = LiveAnswer(origin + path, int(status.split(" ", 2)[1]), headers, body[:limit])
        passed.append(process(answer).passed)

    return judge, passed


def check_site(
    count: int, concurrency: int = 8, rounds: int = 3, server: str = "fast"
) -> dict[str, Any]:
    """``rounds`` of the floor, the check and sitemill's client alone, interleaved, against
    one server; the medians, and each round's ratios."""
    from check_floor import fetch_all

    root = OUT / f"check-{count}"
    make_site(root, count)
    paths = sorted("/" + page.relative_to(root).as_posix() for page in root.rglob("*.html"))
    port = free_port()
    process = _serve(root, port, server)
    floors: list[tuple[float, float]] = []
    judged: list[float] = []
    checks: list[tuple[Any, float, float]] = []
    clients: list[tuple[float, float]] = []
    try:
        judge, passed = _judging(root, port, concurrency)
        for _ in range(rounds):
            cpu = time.process_time()
            floor = fetch_all("127.0.0.1", port, paths, concurrency)
            floors.append((floor, time.process_time() - cpu))
            judged.append(fetch_all("127.0.0.1", port, paths, concurrency, judge))
            checks.append(_check_once(root, port, concurrency))
            clients.append(_client_once(paths, port, concurrency))
    finally:
        process.terminate()
        process.wait()
    report = checks[-1][0]
    rates = [r.requests / seconds for r, seconds, _ in checks]
    return {
        "server": server,
        "urls": report.listed,
        "checked": report.pages,
        "passed": len(report.passed),
        "problems": len(report.sorted_problems()),
        "requests": report.requests,
        "seconds": statistics.median(seconds for _, seconds, _ in checks),
        "requests_per_s": statistics.median(rates),
        "floor_per_s": statistics.median(rate for rate, _ in floors),
        "client_per_s": statistics.median(rate for rate, _ in clients),
        "ratios": [rate / floor for rate, (floor, _) in zip(rates, floors, strict=True)],
        "client_ratios": [a / floor for (a, _), (floor, _) in zip(clients, floors, strict=True)],
        "judged_per_s": statistics.median(judged),
        "judged_passed": sum(passed) == len(passed) == rounds * len(paths),
        "judged_ratios": [rate / floor for rate, floor in zip(rates, judged, strict=True)],
        "cpu_us": {
            "check": statistics.median(c / r.requests for r, _, c in checks) * 1e6,
            "client": statistics.median(c for _, c in clients) / len(paths) * 1e6,
            "floor": statistics.median(c for _, c in floors) / len(paths) * 1e6,
        },
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def bench_check(section: object, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the check's requests per second against the asyncio
    floor's, measured in the same run, and its peak RSS."""
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
    rate, floor = result["requests_per_s"], result["floor_per_s"]
    measured = f"{result['requests']:,} in {result['seconds']:.1f} s: {rate:.0f}/s"
    add(f"{count:,} URLs: requests per second", "≥ 300/s", measured, rate >= 300)
    ratio = statistics.median(result["ratios"])
    rounds = ", ".join(f"{r:.2f}" for r in result["ratios"])
    add(f"vs the asyncio floor ({floor:.0f}/s)", "≥ 0.80×", f"{ratio:.2f}× ({rounds})",
        ratio >= 0.8)  # fmt: skip
    add(f"{count:,} URLs: peak RSS", "≤ 100 MB", f"{rss:.0f} MB", rss <= 100)
    client = statistics.median(result["client_ratios"])
    cpu = result["cpu_us"]
    notes: list[str] = section.notes  # type: ignore[attr-defined]
    notes.append(
        f"  sitemill's client alone (bodies read whole, nothing judged): "
        f"{result['client_per_s']:.0f}/s, {client:.2f}× the floor"
    )
    notes.append(
        f"  CPU per request: the check {cpu['check']:.0f} µs, its client alone "
        f"{cpu['client']:.0f} µs, the floor {cpu['floor']:.0f} µs"
    )
    judged = statistics.median(result["judged_ratios"])
    every = "every page passed" if result["judged_passed"] else "NOT every page passed"
    notes.append(
        f"  vs the floor judging each page as the check does, in its event loop "
        f"({result['judged_per_s']:.0f}/s, {every}): {judged:.2f}×"
    )
    notes.append(
        f"  {len(result['ratios'])} rounds (floor, judged floor, check, client) against one server"
    )


if __name__ == "__main__":
    server = sys.argv[3] if len(sys.argv) > 3 else "fast"
    print(json.dumps(check_site(int(sys.argv[1]), *map(int, sys.argv[2:3]), server=server)))
