"""The walk through git history gets worker processes when the older versions git log names
carry the work, though the current pages are few (jobs.walkpool): the same bytes as one
process; a later run, which remembers those versions, starts none."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from gitutil import clock, commit, make_repo
from sitemill.jobs import _treehistory as treehistory
from sitemill.jobs import _walkpool as walkpool
from sitemill.lastmod.history import walkwork
from sitemill.workers import workpool
from treeruns import BASE, hold_log_until_reads, outputs

PAGES = 6
BUILDS = 14


def page(n: int, text: str, build: int) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>Page {n}</title></head><body>"
        f"<nav>Menu, build {build}</nav><main><h1>Page {n}</h1><p>{text}</p></main>"
        f"<footer>Built by run {build}</footer></body></html>"
    )


def site(tmp_path: Path) -> Path:
    """Few pages, each re-rendered by every build; one in three edited halfway."""
    repo = make_repo(tmp_path / "site")
    times = clock("2024-01-10T09:00:00+00:00", 86400)
    for build in range(BUILDS):
        edited = build >= BUILDS // 2
        pages = {
            f"p{n}.html": page(n, "Edited." if edited and n % 3 == 0 else "Words.", build)
            for n in range(PAGES)
        }
        commit(repo, pages, next(times))
    return repo


def build(repo: Path, out: Path, workers: int) -> dict[str, bytes]:
    return outputs(repo, out, workers=workers)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each pool whose workers start."""
    sizes: list[int] = []
    real_start = workpool.WorkPool._start

    def counted(self: workpool.WorkPool) -> object:
        if self._executor is None and not self._failed:
            sizes.append(self.workers)
        return real_start(self)

    monkeypatch.setattr(workpool.WorkPool, "_start", counted)
    return sizes


def test_older_versions_call_for_the_pool_that_few_pages_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[int]
) -> None:
    repo = site(tmp_path)
    sizes = [(repo / f"p{n}.html").stat().st_size for n in range(PAGES)]
    pages = sum(map(workpool.page_work, sizes))
    older = walkwork.EXPECTED_READS * pages  # (each page has more older versions than that)
    # The pages alone are below the pool's threshold, with their older versions above it.
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", (pages + older) // 2)

    one = build(repo, tmp_path / "one", 1)
    assert started == []
    two = build(repo, tmp_path / "two", 2)
    assert started == [2]  # the walk's pool, started once
    assert one == two  # the sitemap and the state, byte for byte
    text = one["sitemap.xml"].decode()
    assert f"<loc>{BASE}p0.html</loc><lastmod>2024-01-17T09:00:00+00:00" in text  # edited
    assert f"<loc>{BASE}p1.html</loc><lastmod>2024-01-10T09:00:00+00:00" in text

    # A later run remembers every older version's fingerprint: nothing for a pool to do.
    started.clear()
    assert build(repo, tmp_path / "two", 2) == two
    assert started == []


def test_without_older_versions_to_read_no_pool_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[int]
) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {f"p{n}.html": page(n, "Words.", 0) for n in range(PAGES)}, "2024-01-10")
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", PAGES * workpool.page_work(0) * 2)

    build(repo, tmp_path / "out", 2)
    assert started == []


def test_one_process_reads_the_pages_while_git_log_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The walk wants every page: one process reads them all before it waits for git log (it
    # read them after, when the walk took them). git log's answer is held here until the
    # reads return, so the order is the code's, not the clock's.
    repo = site(tmp_path)
    chunks, read_by_then = hold_log_until_reads(monkeypatch)
    build(repo, tmp_path / "out", 1)
    assert read_by_then == [len(chunks)] and chunks == ["chunk"]


def test_a_first_run_starts_the_walks_fork_server_while_git_log_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[int]
) -> None:
    # The pages alone are below a pool's work, their older versions may reach it (each page
    # counts for EXPECTED_READS of them): the fork server starts as git log starts, its start
    # and imports beside git log, not after it on the walk's way (archcraft). Before, it
    # started only once git log had answered. A later run, which remembers the versions'
    # fingerprints, starts none; nor does a run of one process.
    repo = site(tmp_path)
    sizes = [(repo / f"p{n}.html").stat().st_size for n in range(PAGES)]
    pages = sum(map(workpool.page_work, sizes))
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", pages * 2)
    logged = threading.Event()
    starts: list[bool] = []  # (whether git log had answered)
    real_log = treehistory.read_history

    def resolve_lastmod(*args: Any, **kwargs: Any) -> Any:
        found = real_log(*args, **kwargs)
        logged.set()
        return found

    def start_fork_server() -> None:
        starts.append(logged.is_set())
        real_start()

    real_start = workpool.start_fork_server
    monkeypatch.setattr(treehistory, "read_history", resolve_lastmod)
    monkeypatch.setattr(walkpool, "start_fork_server", start_fork_server, raising=False)
    monkeypatch.setattr(walkwork, "start_fork_server", start_fork_server)
    assert build(repo, tmp_path / "one", 1) and starts == []
    logged.clear()
    first = build(repo, tmp_path / "two", 2)
    assert starts[0] is False and started == [2]
    assert first == build(repo, tmp_path / "three", 1)  # (the same bytes)
    logged.clear()
    starts.clear()
    assert build(repo, tmp_path / "two", 2) == first and starts == []
