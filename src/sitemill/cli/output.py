"""What the CLI writes to the terminal, in one place, and how it leaves on Ctrl-C."""
# Each line is shown through messages.shown.

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import TextIO

from sitemill.messages import shown


def say(stream: TextIO, line: str) -> None:
    """Write ``line`` and a newline to ``stream``, as every line of the CLI is written: what
    it quotes (file names, keys, URLs, argv) with no secret and no character that steers a
    terminal (an OSC 52 clipboard write, a screen clear, a link): a line break in a name is
    written ``\\x0a``, so that nothing it holds can start a line of its own."""
    stream.write(f"{shown(line)}\n")


def one_line_message(text: str) -> str:
    """``text`` with its line breaks and runs of white space as single spaces (a message of
    several lines, an OSError's): one line, as an error is shown."""
    return " ".join(text.split()) if "\n" in text else text


def exit_interrupted() -> int:
    """Ctrl-C: say so, and exit 130 at once. The pools wait for no work under way
    (workers.threadpool, workers.workpool), but a thread may still run it (git log over a long
    history): the interpreter would wait for it at exit, so the process ends here instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a second Ctrl-C: no traceback now)
    sys.stderr.write("sitemill: interrupted; nothing half-written was published\n")
    if threading.active_count() > 1:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(130)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return 130
