"""The duplicate check in a forked helper (ForkedRepeats) answers as the one in this process
(LocalRepeats) does, block by block; a helper that dies is a clear error, and no helper is
left behind, whatever stops the run."""

from __future__ import annotations

import os
import random
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.bounded.dedupe import SeenUrlBytes
from sitemill.bounded.repeatfinder import ForkedRepeats, LocalRepeats, RepeatFinder, repeat_finder
from sitemill.errors import SourceError

blocks = st.lists(
    st.lists(st.sampled_from([f"https://example.com/{n}".encode() for n in range(40)])),
    max_size=12,
)


def answers(finder: RepeatFinder, parts: list[list[bytes]]) -> list[list[int]]:
    """Each block's repeats, the blocks handed over ``finder.lag`` ahead as a reader does."""
    got: list[list[int]] = []
    try:
        for number, part in enumerate(parts, start=1):
            finder.submit(part)
            if number > finder.lag:
                got.append(finder.result())
        while len(got) < len(parts):
            got.append(finder.result())
    finally:
        finder.close()
    return got


def reaped(pid: int) -> bool:
    """Whether ``pid`` has gone (no process, or none that is this process's child)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@settings(max_examples=60, deadline=None)
@given(blocks)
def test_the_helper_answers_as_this_process_does(parts: list[list[bytes]]) -> None:
    local = answers(LocalRepeats(SeenUrlBytes()), parts)
    forked = ForkedRepeats(SeenUrlBytes(), 0)
    assert answers(forked, parts) == local
    seen: set[bytes] = set()
    for part, repeated in zip(parts, local, strict=True):  # and they are the repeats
        expected = []
        for position, url in enumerate(part):
            if url in seen:
                expected.append(position)
            seen.add(url)
        assert repeated == expected


def test_the_helper_takes_over_the_urls_seen_before_it_started() -> None:
    seen = SeenUrlBytes()
    assert seen.repeats([b"https://example.com/a", b"https://example.com/b"]) == []
    finder = ForkedRepeats(seen, 50_000)  # (sized in the helper)
    assert answers(finder, [[b"https://example.com/b", b"https://example.com/c"]]) == [[0]]


def test_big_blocks_of_repeats_cannot_wedge_the_pipes() -> None:
    """Two blocks in flight whose answers are all repeats: the bitmaps fit a pipe."""
    urls = [f"https://example.com/{n}".encode() for n in range(150_000)]
    got = answers(ForkedRepeats(SeenUrlBytes(), 0), [urls, urls, urls])
    assert got[0] == [] and got[1] == got[2] == list(range(len(urls)))


def test_a_helper_that_dies_is_a_clear_error_and_is_reaped() -> None:
    finder = ForkedRepeats(SeenUrlBytes(), 0)
    pid = finder._pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(SourceError, match="duplicate check's helper process stopped"):
        finder.submit([b"https://example.com/a"])
        finder.result()
    assert reaped(pid)


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("answered", [0, 1], ids=["as-it-starts", "while-it-waits"])
def test_a_signal_to_the_group_is_not_the_helpers(
    sent: signal.Signals, answered: int, capfd: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C reaches the terminal's whole group, the helper too (`sitemill urls` printed
    its KeyboardInterrupt traceback under the run's one line): this process answers it, and
    the helper, which ignores it, ends when its input does."""
    finder = ForkedRepeats(SeenUrlBytes(), 0)
    pid = finder._pid
    assert pid is not None
    urls = [b"https://example.com/a", b"https://example.com/b"]
    for _ in range(answered):  # (its answer read: the helper is running, waiting for more)
        finder.submit(urls)
        assert finder.result() == []
    os.kill(pid, sent)
    assert answers(finder, [urls]) == [[0, 1] if answered else []]
    assert reaped(pid)
    assert "Traceback" not in capfd.readouterr().err


def test_closing_early_reaps_the_helper() -> None:
    finder = ForkedRepeats(SeenUrlBytes(), 0)
    pid = finder._pid
    assert pid is not None
    finder.submit([b"https://example.com/a"] * 1000)  # an answer never taken
    finder.close()
    assert reaped(pid)


def test_no_fork_where_a_second_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies only the forking thread: a lock another thread holds would stay held
    in the helper for ever. Then (and with one core) the check runs here."""
    monkeypatch.setattr("threading.active_count", lambda: 2)
    assert isinstance(repeat_finder(SeenUrlBytes(), 10, fork=True), LocalRepeats)
    monkeypatch.undo()
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0})
    assert isinstance(repeat_finder(SeenUrlBytes(), 10, fork=True), LocalRepeats)


def test_random_blocks_against_a_set() -> None:
    """Many larger blocks with repeats across the lag and within a block."""
    chooser = random.Random(7)
    pool = [f"https://example.com/{n}".encode() for n in range(20_000)]
    parts = [[chooser.choice(pool) for _ in range(chooser.randrange(0, 3_000))] for _ in range(30)]
    local = answers(LocalRepeats(SeenUrlBytes()), parts)
    assert answers(ForkedRepeats(SeenUrlBytes(), 0), parts) == local
    assert sum(map(len, local)) > 10_000


def test_a_process_that_ignores_sigchld_still_gets_its_answers() -> None:
    """A library caller that sets SIGCHLD to SIG_IGN has its children reaped by the kernel:
    waiting for the helper then finds none, which is no error."""
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        parts = [[b"https://example.com/a", b"https://example.com/a"]]
        assert answers(ForkedRepeats(SeenUrlBytes(), 0), parts) == [[1]]
    finally:
        signal.signal(signal.SIGCHLD, previous)
