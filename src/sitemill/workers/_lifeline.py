"""Worker processes end with the process that started them, however it ends (a kill -9 too)."""
# A pool's workers wait on a queue whose both ends each of them holds, so the death of the main
# process (a CI job's timeout sends SIGKILL) is no end of input for them: they waited forever, and
# the fork server with them (it ends when every process holding its "alive" pipe has: the main one
# and each worker), and the resource tracker after it (the same, for its own pipe).
#
# So each worker watches a lifeline: the read end of a pipe whose write end the main process alone
# holds (os.pipe's descriptors are not inherited by what it runs; a worker gets the read end only).
# When the main process ends, however, the kernel closes the write end, the watching thread reads
# end-of-file and ends the worker at once; the fork server and the resource tracker then end as they
# are made to. A pipe, not Linux's prctl(PR_SET_PDEATHSIG): a worker's parent is the fork server,
# not the main process, the signal follows the *thread* that started a process (the fork server may
# be started by a thread that ends long before the run), and macOS has no such call.
#
# Git processes a worker starts (a kept `git cat-file --batch`) read their input from the worker:
# they end at its end-of-file. The duplicate check's helper (bounded.repeatfinder) does the same.

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from sitemill.workers.interrupts import ignore_interrupts

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

_ENDS: list[tuple[Connection, Connection]] = []  # this process's (read end, write end), once made
_MADE = threading.Lock()


def lifeline() -> Connection:
    """The read end of this process's lifeline, for a worker's initializer (pickled, it is
    handed to the worker as a descriptor of its own). Made once; both ends stay open for the
    life of this process: their closing *is* the message."""
    from multiprocessing import Pipe

    with _MADE:
        if not _ENDS:
            _ENDS.append(Pipe(duplex=False))
        return _ENDS[0][0]


def start_worker(line: Connection) -> None:
    """A worker's initializer: Ctrl-C is the main process's (workers.interrupts), and the
    worker ends when the main process does."""
    ignore_interrupts()
    threading.Thread(target=_end_with_parent, args=(line,), name="lifeline", daemon=True).start()


def _end_with_parent(line: Connection) -> None:
    """Wait for the lifeline's end-of-file (nothing is ever sent on it), then end this process
    at once: no finalizer, no queue to flush for a reader that is gone."""
    try:
        while True:
            line.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)
