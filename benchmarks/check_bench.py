"""`make bench` section check-10k: `sitemill check --all` of 10,000 pages on loopback.

Run as a child process (`python benchmarks/check_bench.py N [CONCURRENCY [SERVER]]`) so that its
peak RSS is the check's own: a generated site of N pages of about 10 KB (each with its canonical
and an hreflang pair of two languages), built once by `sitemill build` for a base URL on a
reserved name, served in another process (check_server.py, HTTP/1.1 kept alive; SERVER
"http.server" for Python's), and checked with every URL asked (its origin sent to the server),
8 requests at once (or CONCURRENCY). In the same run, interleaved with it round by round: the
plain floor (check_floor.py, a plain asyncio client GETting the same pages as many at once, each
body read whole), the judging floor (the same client handing each answer to the check's own
judging of a page, in its event loop), and sitemill's client alone (the same GETs, nothing
judged); then the floors and the check again against a second server that sends each answer
LATENCY_MS after its request (a CDN's time to first byte). Prints one JSON line: for each
server, each one's requests per second and CPU per request, the check's ratios to the floors
round by round; problems, peak RSS.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import own_peak_rss_bytes

OUT = Path(__file__).resolve().parent / "out"
# The second server's time to first byte of each answer (a CDN's is some 5 to 20 ms).
LATENCY_MS = 10
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


def _serve(root: Path, port: int, server: str, latency_ms: int = 0) -> subprocess.Popen[bytes]:
    """``server`` "fast": check_server.py (HTTP/1.1, kept alive; each answer ``latency_ms``
    after its request); "http.server": Python's."""
    command = [sys.executable, str(Path(__file__).with_name("check_server.py")), str(root),
               str(port), str(latency_ms)]  # fmt: skip
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
    from sitemill.commands.check import check_tree
    from sitemill.config.model import load_config
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


def _round(
    root: Path, port: int, paths: list[str], concurrency: int, judge: Any, *, client: bool
) -> dict[str, Any]:
    """One round against the server at ``port``: the floor, the judged floor, the check and
    (``client``) sitemill's client alone; each one's requests per second and CPU seconds."""
    from check_floor import fetch_all

    cpu = time.process_time()
    floor = fetch_all("127.0.0.1", port, paths, concurrency)
    floor_cpu, cpu = time.process_time() - cpu, time.process_time()
    judged = fetch_all("127.0.0.1", port, paths, concurrency, judge)
    judged_cpu = time.process_time() - cpu
    report, seconds, check_cpu = _check_once(root, port, concurrency)
    measured = {
        "floor": (floor, floor_cpu / len(paths)),
        "judged": (judged, judged_cpu / len(paths)),
        "check": (report.requests / seconds, check_cpu / report.requests),
        "report": report,
        "seconds": seconds,
    }
    if client:
        rate, client_cpu = _client_once(paths, port, concurrency)
        measured["client"] = (rate, client_cpu / len(paths))
    return measured


def _summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The medians of ``rounds`` (each one's requests per second and CPU µs a request), and
    the check's ratio to each floor round by round."""
    names = [name for name in ("floor", "judged", "check", "client") if name in rounds[0]]
    summary: dict[str, Any] = {
        f"{name}_per_s": statistics.median(one[name][0] for one in rounds) for name in names
    }
    summary["cpu_us"] = {
        name: statistics.median(one[name][1] for one in rounds) * 1e6 for name in names
    }
    summary["vs_floor"] = [one["check"][0] / one["floor"][0] for one in rounds]
    summary["vs_judged"] = [one["check"][0] / one["judged"][0] for one in rounds]
    if "client" in names:
        summary["client_vs_floor"] = [one["client"][0] / one["floor"][0] for one in rounds]
    summary["seconds"] = statistics.median(one["seconds"] for one in rounds)
    return summary


def check_site(
    count: int, concurrency: int = 8, rounds: int = 3, server: str = "fast"
) -> dict[str, Any]:
    """``rounds`` of the floor, the judged floor, the check and sitemill's client alone,
    interleaved, against a loopback server that answers at once and against one that answers
    each request LATENCY_MS later; the medians, and each round's ratios."""
    root = OUT / f"check-{count}"
    make_site(root, count)
    paths = sorted("/" + page.relative_to(root).as_posix() for page in root.rglob("*.html"))
    port, slow_port = free_port(), free_port()
    process = _serve(root, port, server)
    slow = _serve(root, slow_port, "fast", LATENCY_MS)
    fast_rounds: list[dict[str, Any]] = []
    slow_rounds: list[dict[str, Any]] = []
    try:
        judge, passed = _judging(root, port, concurrency)
        for _ in range(rounds):
            fast_rounds.append(_round(root, port, paths, concurrency, judge, client=True))
            slow_rounds.append(_round(root, slow_port, paths, concurrency, judge, client=False))
    finally:
        for running in (process, slow):
            running.terminate()
            running.wait()
    report = fast_rounds[-1]["report"]
    reports = [one["report"] for one in fast_rounds + slow_rounds]
    return {
        "server": server,
        "concurrency": concurrency,
        "urls": report.listed,
        "checked": report.pages,
        "passed": min(len(one.passed) for one in reports),
        "problems": max(len(one.sorted_problems()) for one in reports),
        "requests": report.requests,
        "judged_passed": sum(passed) == len(passed) == 2 * rounds * len(paths),
        "loopback": _summary(fast_rounds),
        "latency_ms": LATENCY_MS,
        "latency": _summary(slow_rounds),
        "peak_rss_bytes": own_peak_rss_bytes(),
    }


def _ratio(ratios: list[float]) -> str:
    rounds = ", ".join(f"{r:.2f}" for r in ratios)
    return f"{statistics.median(ratios):.2f}× ({rounds})"


def bench_check(section: object, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the check's requests per second against the floors
    measured in the same run (loopback, and a server with a CDN's latency), and its peak RSS."""
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
        every and result["problems"] == 0 and result["judged_passed"])  # fmt: skip
    fast, slow, ms = result["loopback"], result["latency"], result["latency_ms"]
    rate = fast["check_per_s"]
    measured = f"{result['requests']:,} in {fast['seconds']:.1f} s: {rate:.0f}/s"
    add(f"{count:,} URLs on loopback: requests per second", "≥ 300/s", measured, rate >= 300)
    judged = statistics.median(fast["vs_judged"])
    add(f"loopback: vs the judging floor ({fast['judged_per_s']:.0f}/s)", "≥ 0.80×",
        _ratio(fast["vs_judged"]), judged >= 0.8)  # fmt: skip
    plain = statistics.median(slow["vs_floor"])
    add(f"{ms} ms a response: vs the plain floor ({slow['floor_per_s']:.0f}/s)", "≥ 0.80×",
        _ratio(slow["vs_floor"]), plain >= 0.8)  # fmt: skip
    add(f"{count:,} URLs: peak RSS", "≤ 100 MB", f"{rss:.0f} MB", rss <= 100)
    notes: list[str] = section.notes  # type: ignore[attr-defined]
    notes.append(
        f"  loopback: vs the plain floor ({fast['floor_per_s']:.0f}/s, nothing judged): "
        f"{_ratio(fast['vs_floor'])} (issue 64's first measure: on a loopback server that "
        "answers at once it asks for no CPU beyond an asyncio client's, which a check that "
        "judges each page cannot hold)"
    )
    notes.append(
        f"  {ms} ms a response: {slow['check_per_s']:.0f}/s; vs the judging floor "
        f"({slow['judged_per_s']:.0f}/s): {_ratio(slow['vs_judged'])}"
    )
    notes.append(
        f"  sitemill's client alone (bodies read whole, nothing judged): "
        f"{fast['client_per_s']:.0f}/s, {_ratio(fast['client_vs_floor'])} the plain floor"
    )
    for where, one in (("loopback", fast), (f"{ms} ms", slow)):
        cpu = one["cpu_us"]
        told = ", ".join(f"{name} {cpu[name]:.0f} µs" for name in sorted(cpu))
        notes.append(f"  CPU per request, {where}: {told}")
    notes.append(
        f"  {len(fast['vs_floor'])} rounds (floor, judging floor, check, client; then floor, "
        f"judging floor, check {ms} ms a response), {result['concurrency']} requests at once"
    )


if __name__ == "__main__":
    server = sys.argv[3] if len(sys.argv) > 3 else "fast"
    print(json.dumps(check_site(int(sys.argv[1]), *map(int, sys.argv[2:3]), server=server)))
