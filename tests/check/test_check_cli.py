"""`sitemill check` at the command line: one line per problem with its fix, a summary, exit
0/1 (--warn-only), one clear line when there is nothing to compare with."""

from __future__ import annotations

import hashlib
import socket
import threading
import tracemalloc
from pathlib import Path

import pytest
from checkstand import build, built_site, check

from enginestand import Stand
from sitemill.check.problems import SITE
from sitemill.check.published import Published, PublishedPage
from sitemill.check.run import CheckOptions, check_live
from sitemill.cli.main import main
from sitemill.config.model import load_config
from sitemill.web.livesite import UNREACHABLE_AFTER, Limits, LiveSite


@pytest.fixture
def site(tmp_path: Path, stand: Stand) -> tuple[Path, str]:
    return built_site(tmp_path, stand)


def test_problems_one_line_each_then_the_summary_and_exit_1(
    site: tuple[Path, str], stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    root, base = site
    del stand.files["/about.html"]
    assert main(["check", str(root), "--base-url", base, "--all"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"problem: {base}about.html: answers 404 (not found); deploy the build this sitemap "
        "was made from (a page renamed or not uploaded?)"
    )
    assert out[-1].startswith("live: checked 1 sitemap file(s) and 6 of 6 URL(s)")
    assert out[-1].endswith("1 problem(s) (page 1)")
    assert main(["check", str(root), "--base-url", base, "--warn-only", "-q"]) == 0
    assert capsys.readouterr().out.count("problem: ") == 1


def test_a_clean_deploy_exits_0(site: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    root, base = site
    assert main(["check", str(root), "--base-url", base]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("; no problem")


def test_no_state_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "index.html").write_text("<title>x</title>")
    assert main(["check", str(tmp_path), "--base-url", "http://127.0.0.1:9/"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sitemill: error: no sitemill state at ")
    assert "run `sitemill build` first" in err[0]


def test_a_bad_limit_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["check", str(tmp_path), "--base-url", "http://x/", "--concurrency", "0"])
    assert exited.value.code == 2
    assert "must be more than 0" in capsys.readouterr().err


def test_a_10000_url_sitemap_is_checked_in_bounded_work_and_memory(
    stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    """500 pages asked 8 at a time: bounded memory, and no thread started by the check (one
    event loop in the caller's thread; it started 8 workers before)."""
    base = stand.origin + "/"
    sitemap = b"<?xml version='1.0'?><urlset/>"
    stand.files["/sitemap.xml"] = (200, sitemap, {"Content-Type": "application/xml"})
    body = b"<!doctype html><title>p</title><main><p>" + b"word " * 2000 + b"</p></main>"
    stand.default = (200, body, {"Content-Type": "text/html"})
    pages = {f"{base}p/{n:05d}.html": PublishedPage(f"{base}p/{n:05d}.html", f"p/{n:05d}.html")
             for n in range(10_000)}  # fmt: skip
    digest = hashlib.md5(sitemap, usedforsecurity=False).hexdigest()
    published = Published(base, "sitemap.xml", {"sitemap.xml": digest}, pages)
    site = LiveSite(frozenset({stand.origin}), Limits(8, 5.0, 5.0, 60.0))
    config = load_config({"base_url": base}, {}, {})
    started: list[str] = []
    start, caller = threading.Thread.start, threading.current_thread()

    def counted(thread: threading.Thread) -> None:
        if threading.current_thread() is caller:  # (not the stand's thread per connection)
            started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    tracemalloc.start()
    report = check_live(config, published, site, CheckOptions(every=False, sample=500))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert started == []
    assert report.ok and report.pages == 500 and len(report.passed) == 500
    assert report.listed == 10_000 and report.requests == 502  # (robots.txt, sitemap, pages)
    assert peak < 64 * 1024 * 1024  # (its time is make bench's: benchmarks/check_bench.py)


def test_a_base_url_the_build_did_not_publish_for_is_one_line_naming_both(
    site: tuple[Path, str], stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    root, base = site
    wrong = base.replace("127.0.0.1", "localhost")
    assert main(["check", str(root), "--base-url", wrong, "--all"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("problem: ")] == [
        f"problem: {wrong}: is not the base URL the last build published for ({base}); "
        f"check with --base-url {base}, or build for {wrong} first"
    ]
    assert stand.requests == []  # (nothing of the other URL is asked)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_host_is_one_line_with_the_reason_and_is_not_asked_again(
    tmp_path: Path, stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = built_site(tmp_path, stand)
    base = f"http://127.0.0.1:{closed_port()}/"  # (nothing listens: every connection refused)
    build(root, base)
    checked = check(root, base, limits=Limits(concurrency=1, run_deadline=60.0))
    (problem,) = checked.report.sorted_problems()
    assert problem.url == base and problem.kind == SITE
    assert problem.what.startswith("could not be reached (") and "refused" in problem.what
    assert checked.report.requests == UNREACHABLE_AFTER  # (then no more asked)
    assert main(["check", str(root), "--base-url", base, "--all"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("problem: ")]) == 1
