"""Run the `sitemill` command as a user would, without the caller's SITEMILL_* env: in this
process by default (the command's own main, as its entry point calls it, with its argv, its
environment, its working folder and its three standard streams as files of their own), or as
the installed command in a process of its own (``process=True``: a test of what only a process
shows, or of input that could hang it: a FIFO, an endless file, which must fail, not hang).

In this process a run costs its work alone: a new process imports sitemill again first (about
0.3 s of CPU each, a tenth of the suite; issue 80)."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

SITEMILL = str(Path(sys.executable).parent / "sitemill")


def run_sitemill(
    *args: str,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,  # (process=True: a FIFO or an endless file fails the test, no hang)
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("SITEMILL_")}
    full_env.update(env or {})
    if not process:
        from sitemill.cli.main import main

        return run_here(lambda: main(list(args)), [SITEMILL, *args], cwd, stdin, full_env)
    return subprocess.run(
        [SITEMILL, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        check=False,
    )


def run_here(
    main: Callable[[], object],
    argv: list[str],
    cwd: Path | None,
    stdin: str | None,
    env: dict[str, str],
) -> subprocess.CompletedProcess[str]:
    """What ``sys.exit(main())`` of an entry point does in a new process, here: its exit code
    (an uncaught exception: its traceback on stderr and 1, as Python's own), stdout and stderr."""
    with _process_state(argv, cwd, stdin, env) as (out, err):
        try:
            code = _exit_code(main())
        except SystemExit as exc:
            code = _exit_code(exc.code)
        except Exception:  # (uncaught: a traceback and 1, as in a process)
            traceback.print_exc(file=sys.stderr)
            code = 1
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # (sys.exit("text"): the text on stderr, 1)
    return 1


class _Captured:
    """A standard stream of its own: a real file (it has a descriptor, is no terminal), its text
    read back when the run is done."""

    def __init__(self, errors: str) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.stream = io.TextIOWrapper(self.file, encoding="utf-8", errors=errors)
        self.text = ""

    def close(self) -> None:
        self.stream.flush()
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", errors="replace")
        self.stream.close()

    def getvalue(self) -> str:
        return self.text


@contextlib.contextmanager
def _process_state(
    argv: list[str], cwd: Path | None, stdin: str | None, env: dict[str, str]
) -> Iterator[tuple[_Captured, _Captured]]:
    """argv, the environment, the working folder, the standard streams and the loggers as a
    new process has them (the root logger without handlers: the command configures its own;
    sitemill's as no earlier run in this process left them, e.g. a Lambda handler's JSON lines,
    aws._logs), each given back after the run."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved = (sys.argv, sys.stdin, sys.stdout, sys.stderr)
    root = logging.getLogger()
    saved_logging = (root.handlers[:], root.level)
    ours = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
            if name == "sitemill" or name.startswith("sitemill.")]  # fmt: skip
    saved_ours = [(lg.handlers[:], lg.level, lg.propagate, lg.disabled) for lg in ours]
    out, err = _Captured("strict"), _Captured("backslashreplace")
    source = io.TextIOWrapper(tempfile.TemporaryFile(), encoding="utf-8")  # noqa: SIM115
    source.write(stdin or "")
    source.seek(0)
    try:
        os.environ.clear()
        os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.argv = argv
        sys.stdin = source
        sys.stdout, sys.stderr = out.stream, err.stream
        root.handlers.clear()
        for logger in ours:
            logger.handlers.clear()
            logger.setLevel(logging.NOTSET)
            logger.propagate, logger.disabled = True, False
        yield out, err
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:], level = saved_logging
        root.setLevel(level)
        for logger, (handlers, level, propagate, disabled) in zip(ours, saved_ours, strict=True):
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate, logger.disabled = propagate, disabled
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        out.close()
        err.close()
        source.close()
