"""Which URLs of a long list were listed before, found on a second core while this one reads on."""
# A URL list's duplicate check (SeenUrlBytes: a hash and a probe loop per URL, a third of the time
# of a million-URL list) runs in a helper process forked for it, a block behind the reader: the
# reader hands it block k's URLs, reads and checks block k+1, then takes block k's verdict. The
# helper is a fork of this process while it has one thread (so no lock is held by a thread that
# would not exist in the child), made with os.fork and two pipes: no multiprocessing import, no
# pickling, and a fork inherits the set of the URLs seen so far and the hash key they were keyed
# with. Where a fork cannot be made (not Linux, a second thread, one core, or workers = 1) the check
# runs here, one block at a time, with the same verdicts.
#
# The helper's answer is a bitmap (a bit a URL), so the answers of the two blocks in flight always
# fit the pipe's buffer: neither process can wait for the other forever.

from __future__ import annotations

import os
import signal
import sys
import threading
import traceback
from contextlib import suppress
from typing import BinaryIO, Final, Protocol

from sitemill.bounded.dedupe import SeenUrlBytes
from sitemill.errors import SourceError

# A list of at least this many bytes gets the helper: forking costs a few milliseconds, the
# helper saves about 15 ms a MiB (benchmarks/README.md, urls-1m).
FORK_AT_BYTES: Final = 4 << 20
_HEADER: Final = 4
_ANSWERED_HERE: Final = frozenset({signal.SIGINT, signal.SIGTERM})  # (never by the helper)


class RepeatFinder(Protocol):
    """Finds the repeats of blocks of URLs handed to it in order, ``lag`` blocks behind."""

    lag: int

    def submit(self, locs: list[bytes]) -> None: ...

    def result(self) -> list[int]:
        """The positions of the repeats in the oldest block submitted and not yet answered."""
        ...

    def close(self) -> None: ...


class LocalRepeats:
    """The check in this process, at once."""

    lag = 0

    def __init__(self, seen: SeenUrlBytes) -> None:
        self.seen = seen
        self._answers: list[list[int]] = []

    def submit(self, locs: list[bytes]) -> None:
        self._answers.append(self.seen.repeats(locs))

    def result(self) -> list[int]:
        return self._answers.pop(0)

    def close(self) -> None:
        self._answers.clear()


class ForkedRepeats:
    """The check in a forked helper, one block behind."""

    lag = 1

    def __init__(self, seen: SeenUrlBytes, reserve: int) -> None:
        helper_in, parent_out = os.pipe()
        parent_in, helper_out = os.pipe()
        # Ctrl-C (to the terminal's whole group) and SIGTERM are this process's to answer: a
        # helper that took one printed a KeyboardInterrupt's traceback under the run's line.
        # It ignores both, and ends when its input does; blocked across the fork, neither
        # reaches it before it does.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _ANSWERED_HERE)
        try:
            pid = os.fork()
            if pid == 0:  # the helper
                for number in _ANSWERED_HERE:
                    signal.signal(number, signal.SIG_IGN)
                os.close(parent_out)
                os.close(parent_in)
                _run_helper(seen, reserve, helper_in, helper_out)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(helper_in)
        os.close(helper_out)
        self._pid: int | None = pid
        self._out: BinaryIO = open(parent_out, "wb")  # noqa: SIM115 (closed by close())
        self._in: BinaryIO = open(parent_in, "rb")  # noqa: SIM115
        self._counts: list[int] = []

    def submit(self, locs: list[bytes]) -> None:
        payload = b"\n".join(locs)
        try:
            self._out.write(len(payload).to_bytes(_HEADER, "little"))
            self._out.write(payload)
            self._out.flush()
        except BrokenPipeError:
            raise self._stopped() from None
        self._counts.append(len(locs))

    def result(self) -> list[int]:
        count = self._counts.pop(0)
        header = self._in.read(_HEADER)
        size = int.from_bytes(header, "little") if len(header) == _HEADER else -1
        bits = self._in.read(size) if size >= 0 else b""
        if size != (count + 7) // 8 or len(bits) != size:
            raise self._stopped()
        return _set_bits(bits) if any(bits) else []

    def close(self) -> None:
        """Let the helper go (it ends when its input does) and wait for it."""
        for stream in (self._out, self._in):
            with suppress(OSError):  # (a helper gone mid-write: nothing to flush to)
                stream.close()
        if self._pid is not None:
            with suppress(ChildProcessError):  # (a caller's SIGCHLD ignored: reaped already)
                os.waitpid(self._pid, 0)
            self._pid = None

    def _stopped(self) -> SourceError:
        self.close()
        return SourceError("the duplicate check's helper process stopped; nothing was written")


def repeat_finder(seen: SeenUrlBytes, reserve: int, *, fork: bool) -> RepeatFinder:
    """A ForkedRepeats that takes ``seen`` over where ``fork`` and a fork can be made
    safely, else a LocalRepeats with it. ``reserve``: URLs to size the set for (0: as it
    is; in the helper, so that this process never holds the table)."""
    if fork and _can_fork():
        try:
            return ForkedRepeats(seen, reserve)
        except OSError:  # (no process to be had, say: the check runs here)
            pass
    seen.reserve(reserve)
    return LocalRepeats(seen)


def _can_fork() -> bool:
    if not hasattr(os, "fork") or sys.platform != "linux":
        return False  # (macOS: a fork of a process that used system frameworks may crash)
    try:
        cores = len(os.sched_getaffinity(0))
    except OSError:
        return False
    return cores > 1 and threading.active_count() == 1


def _run_helper(seen: SeenUrlBytes, reserve: int, inbox: int, outbox: int) -> None:
    """The helper's life: answer each block until the input ends, then exit at once (no
    cleanup of the parent's state: that is the parent's)."""
    code = 1
    try:
        seen.reserve(reserve)
        with open(inbox, "rb") as reader, open(outbox, "wb") as writer:
            while len(header := reader.read(_HEADER)) == _HEADER:
                payload = reader.read(int.from_bytes(header, "little"))
                locs = payload.split(b"\n") if payload else []
                bits = _bitmap(seen.repeats(locs), len(locs))
                writer.write(len(bits).to_bytes(_HEADER, "little") + bits)
                writer.flush()
        code = 0
    except BrokenPipeError:  # (the parent stopped reading: it has given up)
        code = 0
    except BaseException:  # (the parent reports the helper's stop)
        traceback.print_exc()
    finally:
        os._exit(code)


def _bitmap(positions: list[int], count: int) -> bytes:
    bits = bytearray((count + 7) // 8)
    for position in positions:
        bits[position >> 3] |= 1 << (position & 7)
    return bytes(bits)


def _set_bits(bits: bytes) -> list[int]:
    return [
        index * 8 + bit
        for index, byte in enumerate(bits)
        if byte
        for bit in range(8)
        if byte >> bit & 1
    ]
