"""The worker pool: chunks come back in order, whatever the number of workers; a worker's log
records reach this process; where processes cannot start, or a worker dies, the work runs
here."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from sitemill.workers import workpool
from sitemill.workers.workpool import MIN_POOL_BYTES, WorkPool, cut, pool_size


def square_all(chunk: list[int]) -> list[int]:
    return [n * n for n in chunk]


def warn_each(chunk: list[str]) -> int:
    for name in chunk:
        logging.getLogger("sitemill.jobs._treereads").warning("not reading %s", name)
    logging.getLogger("sitemill.jobs._treereads").debug("below the level: %s", chunk)
    return len(chunk)


def test_chunks_cover_the_items_in_order() -> None:
    items = list(range(103))
    for workers in (1, 2, 3, 8, 200):
        chunks = cut(items, workers)
        assert [n for chunk in chunks for n in chunk] == items
        assert len(chunks) <= max(1, workers * workpool.CHUNKS_PER_WORKER)
    assert cut([], 4) == []
    assert cut(items, 1) == [items]


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_results_come_back_in_order_whatever_the_workers(workers: int) -> None:
    chunks = cut(list(range(1000)), workers)
    with WorkPool(workers) as pool:
        results = pool.map(square_all, chunks)
    assert [n for part in results for n in part] == [n * n for n in range(1000)]


def touch_each(chunk: list[str]) -> int:
    for name in chunk:
        Path(name).touch()
    return len(chunk)


def test_imap_hands_every_chunk_to_the_workers_at_once(tmp_path: Path) -> None:
    # The caller goes on with other work (git log, say) before it asks for the first result:
    # the workers must not wait for that.
    names = [[str(tmp_path / f"{number}.done")] for number in range(4)]
    with WorkPool(2) as pool:
        results = pool.imap(touch_each, names)
        deadline = time.monotonic() + 30
        while not all(Path(name).exists() for [name] in names) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert all(Path(name).exists() for [name] in names)  # before any result was asked for
        assert list(results) == [1, 1, 1, 1]


def test_a_workers_warnings_are_logged_here_in_order(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="sitemill")
    with WorkPool(2) as pool:
        counts = pool.map(warn_each, [["a.html", "b.html"], ["c.html"], ["d.html"]])
    assert counts == [2, 1, 1]
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("sitemill.jobs")]
    assert messages == [f"not reading {name}.html" for name in "abcd"]


def test_without_processes_the_work_runs_here(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(workers: int) -> ProcessPoolExecutor:
        raise OSError(38, "Function not implemented")  # AWS Lambda: no /dev/shm

    monkeypatch.setattr(workpool, "_executor", refuse)
    caplog.set_level(logging.WARNING, logger="sitemill")
    with WorkPool(4) as pool:
        results = pool.map(square_all, [[1, 2], [3], [4]])
        again = pool.map(warn_each, [["x.html"], ["y.html"]])
    assert results == [[1, 4], [9], [16]]
    assert again == [1, 1]
    assert [r.getMessage() for r in caplog.records] == ["not reading x.html", "not reading y.html"]


def test_pool_size_follows_the_setting_and_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workpool, "machine_cores", lambda: 6)
    assert pool_size(None, MIN_POOL_BYTES) == 6
    assert pool_size(3, MIN_POOL_BYTES) == 3
    assert pool_size(None, MIN_POOL_BYTES - 1) == 1  # a small site: no processes started
    assert pool_size(None, sum(map(workpool.page_work, [120] * 4_096))) == 6  # by their number
    assert pool_size(None, sum(map(workpool.page_work, [120] * 4_000))) == 1
    assert pool_size(1, 10 * MIN_POOL_BYTES) == 1
    assert pool_size(1_000, MIN_POOL_BYTES) == workpool.MAX_WORKERS


def test_the_fork_server_starts_early_only_for_enough_work(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[bool] = []
    monkeypatch.setattr(workpool, "start_fork_server", lambda: started.append(True))
    monkeypatch.setattr(workpool, "machine_cores", lambda: 4)
    small = workpool.EarlyStart(None)
    small.see(MIN_POOL_BYTES - workpool.PAGE_WORK_BYTES - 1)
    assert started == []  # a site too small for a pool starts nothing
    small.see(0)  # a page's work is more than its bytes
    assert started == [True]
    small.see(MIN_POOL_BYTES)
    assert started == [True]  # once, however much more comes
    many = workpool.EarlyStart(None)
    for _ in range(MIN_POOL_BYTES // workpool.PAGE_WORK_BYTES - 1):
        many.see(0)
    assert started == [True]
    many.see(0)
    assert started == [True, True]  # many small pages are enough work by their number
    one = workpool.EarlyStart(1)
    one.see(10 * MIN_POOL_BYTES)
    monkeypatch.setattr(workpool, "machine_cores", lambda: 1)
    workpool.EarlyStart(None).see(10 * MIN_POOL_BYTES)
    assert started == [True, True]  # one worker asked for, or one core: no pool, no server


def test_starting_the_fork_server_early_is_harmless() -> None:
    workpool.start_fork_server()  # (the pool that follows uses it)
    with WorkPool(2) as pool:
        assert pool.map(square_all, [[1], [2], [3]]) == [[1], [4], [9]]


def square_all_but_die_on_two(chunk: list[int]) -> list[int]:
    if chunk == [2] and multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)  # a worker the kernel's OOM killer picked
    return square_all(chunk)


def test_a_worker_that_dies_costs_a_warning_not_the_run(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="sitemill")
    chunks = [[1], [2], [3], [4]]
    with WorkPool(2) as pool:
        assert pool.map(square_all_but_die_on_two, chunks) == [[1], [4], [9], [16]]
        assert pool.map(square_all, chunks) == [[1], [4], [9], [16]]  # here, from now on
        pool.warm()
    died = [r.getMessage() for r in caplog.records if "ended abruptly" in r.getMessage()]
    assert died == [
        "a worker process ended abruptly (out of memory?); the rest of the work runs in this "
        "process"
    ]


def test_a_pool_broken_before_its_work_runs_it_here(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="sitemill")
    with WorkPool(2) as pool:
        pool.warm()
        executor = pool._executor
        assert executor is not None
        for process in list(executor._processes.values()):
            # While idle: the next submit finds the pool broken. (Once one is dead, the pool may
            # end the others itself before they are killed here.)
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
            process.join()
        assert pool.map(square_all, [[1], [2], [3]]) == [[1], [4], [9]]
    assert any("ended abruptly" in r.getMessage() for r in caplog.records)


def interrupt_at(pid: int) -> list[int]:
    """In a worker: its own pid, after a terminal's Ctrl-C reached it (it must not care)."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.2)
    return [pid, os.getpid()]


def test_a_worker_ignores_ctrl_c() -> None:
    try:
        with WorkPool(2) as pool:
            results = pool.map(interrupt_at, [1, 2, 3, 4])
    except KeyboardInterrupt:  # (a worker's, sent back: not this test run's own)
        pytest.fail("a worker took Ctrl-C for its own")
    assert [pid for pid, _ in results] == [1, 2, 3, 4]
    assert os.getpid() not in {worker for _, worker in results}  # (in the workers, yes)


def test_an_interrupt_waits_for_no_chunk_under_way() -> None:
    with pytest.raises(KeyboardInterrupt), WorkPool(2) as pool:
        pool.imap(time.sleep, [60.0, 60.0, 60.0])
        executor = pool._executor
        assert executor is not None
        deadline = time.monotonic() + 10
        while len(executor._processes) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # (until both workers took a chunk of 60 s)
        processes = list(executor._processes.values())
        time.sleep(0.3)
        raise KeyboardInterrupt
    for process in processes:
        process.join(5)
        assert not process.is_alive()
        assert process.exitcode != 0  # ended under way, not after its chunk


def test_a_ctrl_c_another_thread_takes_comes_after_the_held_block() -> None:
    # Issue 46, item 11 (seen in CI): the terminal's SIGINT, taken by another thread of the
    # process (the live line's clock), raised KeyboardInterrupt in the main thread in the
    # middle of a worker's start; the worker, half fed, printed a traceback once this process
    # had gone. A held block now runs to its end and the Ctrl-C comes after it.
    import threading

    from sitemill.workers.interrupts import interrupts_held

    go = threading.Event()

    def take() -> None:  # (started before the block: a thread inherits its starter's mask)
        go.wait(5)
        os.kill(os.getpid(), signal.SIGINT)

    taker = threading.Thread(target=take)
    taker.start()
    ran_to_the_end = []
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        go.set()
        taker.join()
        for _ in range(200):  # (bytecodes enough for Python to run a pending handler)
            time.sleep(0.001)
        ran_to_the_end.append(True)
    assert ran_to_the_end == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_fork_server_imports_what_the_workers_run_not_the_history_walk() -> None:
    # A worker reads and fingerprints pages (jobs.treereads); the git history is walked in the
    # main process. The fork server is a third process that imports its preload: before, the
    # whole of jobs.treehistory (175 modules, the history walk's and git's among them).
    from multiprocessing import forkserver

    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork server here")
    workpool._context()
    preload = list(forkserver._forkserver._preload_modules)  # type: ignore[attr-defined]
    script = (
        "import importlib, sys\n"
        f"for name in {preload!r}: importlib.import_module(name)\n"
        "print(' '.join(sorted(name for name in sys.modules if name.startswith('sitemill'))))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    imported = done.stdout.split()
    assert done.returncode == 0 and "sitemill.jobs._treereads" in imported, done.stderr
    walk = [
        name for name in imported if name.startswith(("sitemill.lastmod.history", "sitemill.git"))
    ]
    assert walk == []


# The script's child processes, running or ended and not waited for (state Z): what it left.
CHILDREN = """
def children():
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = dict(
                line.split(":", 1) for line in (entry / "status").read_text().splitlines()
            )
        except (OSError, ValueError):
            continue
        if int(fields["PPid"]) == os.getpid():
            found.append(fields["Name"].strip() + " " + fields["State"].split()[0])
    return found
"""
# A Ctrl-C pending when the resource tracker starts (a terminal's, to the whole group): the
# stdlib's start unblocks SIGINT as it ends, before it notes the tracker's process. Then the
# run stops its helpers (cli.usage.exit_interrupted) and says which children it left.
TRACKER_START_INTERRUPTED = (
    """
import os, signal
from pathlib import Path
from sitemill.workers.workpool import start_fork_server, stop_workers_now
"""
    + CHILDREN
    + """
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
os.kill(os.getpid(), signal.SIGINT)
try:
    start_fork_server()
except KeyboardInterrupt:
    print("interrupted")
stop_workers_now()
print(children())
"""
)


@pytest.mark.skipif(sys.platform != "linux", reason="/proc and a fork server")
def test_a_ctrl_c_as_the_resource_tracker_starts_leaves_no_tracker() -> None:
    """Seen under load (a cancelled Action's run): the tracker, never noted, outlived the run,
    which could neither stop nor wait for it. Now its start is held to its end like the fork
    server's, and the Ctrl-C comes after it: stopped and waited for, no child is left."""
    done = subprocess.run(
        [sys.executable, "-c", TRACKER_START_INTERRUPTED], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["interrupted", "[]"], done.stderr


# The run is ending (cli.usage.exit_interrupted has stopped the helpers) when git's thread, its
# git log read just as the signal came, finds that the walk wants workers (jobs._walkpool).
START_AFTER_THE_STOP = (
    """
import os, threading
from pathlib import Path
from sitemill.workers.workpool import start_fork_server, stop_workers_now
"""
    + CHILDREN
    + """
stop_workers_now()
said = []
def start():
    try:
        start_fork_server()
    except KeyboardInterrupt:
        said.append("interrupted")
thread = threading.Thread(target=start)
thread.start()
thread.join()
print(said, children())
from sitemill.workers.workpool import resume_workers
resume_workers()
start_fork_server()
print(len(children()))
"""
)


@pytest.mark.skipif(sys.platform != "linux", reason="/proc and a fork server")
def test_no_fork_server_starts_once_the_workers_are_stopped() -> None:
    """As no git starts once the run is ending (git.run.end_running): a thread that asks for
    the fork server after stop_workers_now is told the run is interrupted; a run that goes on
    in this process (resume_workers) starts it again."""
    done = subprocess.run(
        [sys.executable, "-c", START_AFTER_THE_STOP], capture_output=True, text=True
    )
    assert done.stdout.splitlines()[:1] == ["['interrupted'] []"], done.stderr
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["2"]
