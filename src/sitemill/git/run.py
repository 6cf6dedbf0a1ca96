"""The one way sitemill runs git: a fixed command line and environment, failures as GitError."""
# Every command runs with the environment and settings of sitemill.git.trust, from the top that
# ``find_top`` finds: nothing a repository holds makes git run a program.

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from sitemill.errors import GitError
from sitemill.git.trust import SETTINGS, driver_settings, find_top, git_env, with_settings
from sitemill.workers.interrupts import StartGate

try:
    import fcntl
except ImportError:  # (not on Windows: pipes keep their size)
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "Git", "GitBatch", "GitStream", "end_running", "find_top", "git_env", "last_line",
    "resume_running", "terminated_as",
]  # fmt: skip

Describe = Callable[[bytes, bytes, int], str]
# A long command's output pipe is widened to this many bytes where the system allows it
# (Linux's F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size, 1 MiB unless raised): git writes
# a few page versions ahead while they are read, and the two processes switch far less often
# than through 64 KiB (5,000 old versions of 200 KB: 1.85 -> 1.53 s of CPU for both sides).
PIPE_BYTES = 1 << 20
# Seconds an interrupted run gives each git to end on SIGTERM (its lock files removed) before
# SIGKILL (end_running): git takes milliseconds; one that ignores SIGTERM would outlive the run.
ENDING_GRACE = 5.0
_RUNNING: set[subprocess.Popen[bytes]] = set()  # the commands under way (end_running)
# A command starts through it, and end_running closes it (workers.interrupts): a thread that asks
# for a git once the run is ending (its signal reached the group before this git existed) is told
# the run is interrupted, and never leaves a git behind the ended process.
_GATE = StartGate()
_TERMINATION: list[type[KeyboardInterrupt]] = []  # how SIGTERM ends this process (terminated_as)


def last_line(stderr: bytes, stdout: bytes, returncode: int) -> str:
    """git's last line of error output, which says what failed ("fatal: …") after any hints;
    for a git ended by a signal (the OOM killer's SIGKILL) without a word, that signal."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    if lines:
        return lines[-1]
    return f"ended by {_signal_name(-returncode)}" if returncode < 0 else "no message"


def interrupted(returncode: int | None) -> None:
    """Raise KeyboardInterrupt for a git ended by SIGINT: a Ctrl-C reaches the terminal's
    whole process group, git too, often before this process has raised its own; it is the
    user's interruption (the CLI exits 130), not a failure of git ("git log failed").

    A git ended by SIGTERM is read the same way where this process takes SIGTERM as its
    termination (``terminated_as``: the CLI, the Action; a cancelled job signals the whole
    group), raised as that termination, not as an interruption; and wherever the run is
    ending (end_running ended it). Elsewhere (a library caller) it is git's failure."""
    if returncode == -signal.SIGINT:
        raise KeyboardInterrupt
    if returncode == -signal.SIGTERM:
        if _TERMINATION:
            raise _TERMINATION[-1]
        if _GATE.closed():
            raise KeyboardInterrupt


@contextmanager
def terminated_as(termination: type[KeyboardInterrupt]) -> Iterator[None]:
    """While the block runs, this process takes SIGTERM as its termination, raised as
    ``termination`` (cli.usage): a git ended by SIGTERM, which got the group's signal before
    this process raised its own, is that termination too, in the thread that waited for it."""
    _TERMINATION.append(termination)
    try:
        yield
    finally:
        _TERMINATION.remove(termination)


@dataclass(slots=True)
class GitStream:
    """The output of a long command, read as it comes; ``stop()`` when the rest is not needed."""

    stdout: IO[bytes]
    stopped: bool = False

    def stop(self) -> None:
        """The reader has what it needs: git is ended and its exit status ignored."""
        self.stopped = True


@dataclass(frozen=True, slots=True)
class GitBatch:
    """A long command's pipes: requests go to ``stdin`` (flush them), answers come on ``stdout``."""

    stdin: IO[bytes]
    stdout: IO[bytes]


@dataclass(frozen=True, slots=True)
class Git:
    """git run in one directory, with one environment and ``-c`` settings for every command.

    ``describe`` makes one line of a failed command's (stderr, stdout, exit status) for its
    GitError; a caller whose commands may print secrets (URLs with tokens) redacts them there.
    """

    directory: Path
    env: Mapping[str, str]
    settings: Sequence[str] = ()
    describe: Describe = last_line

    def command(
        self, args: Sequence[str], *, literal: bool = True, settings: Sequence[str] = ()
    ) -> list[str]:
        """The command line: ``--literal-pathspecs`` (file names are data, never globs) unless
        ``literal`` is false, for the few commands that refuse it."""
        command = ["git", "-C", os.fspath(self.directory), "--no-pager"]
        if literal:
            command.append("--literal-pathspecs")
        for setting in (*SETTINGS, *self.settings, *settings):
            command += ["-c", setting]
        return [*command, *args]

    def run(
        self,
        *args: str,
        stdin: bytes | None = None,
        literal: bool = True,
        settings: Sequence[str] = (),
    ) -> subprocess.CompletedProcess[bytes]:
        """Run a short command to its end; its exit status is the caller's to judge."""
        command = self.command(args, literal=literal, settings=settings)
        fed = subprocess.DEVNULL if stdin is None else subprocess.PIPE
        process = _start(
            command, self.env, stdin=fed, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        with process:  # (as subprocess.run: git killed if this thread is interrupted)
            try:
                out, err = process.communicate(stdin)
            except BaseException:
                process.kill()
                raise
            finally:
                _RUNNING.discard(process)
        assert process.returncode is not None  # (communicate waited for it)
        interrupted(process.returncode)
        return subprocess.CompletedProcess(command, process.returncode, out, err)

    def without_drivers(self) -> Git:
        """This git, with every configured filter and merge driver switched off: for the
        commands that read or write the work tree (status, add, commit, reset, rebase)."""
        found = self.run(
            "config", "--name-only", "--get-regexp", r"^(filter|merge)\.", literal=False
        )
        settings = driver_settings(found.stdout) if found.returncode == 0 else []
        return replace(self, env=with_settings(self.env, settings))

    def output(self, *args: str) -> bytes:
        """Run a short command and return its stdout; a failure is a GitError naming it."""
        done = self.run(*args)
        if done.returncode != 0:
            raise self.failure(args[0], done)
        return done.stdout

    def failure(self, what: str, done: subprocess.CompletedProcess[bytes]) -> GitError:
        """The GitError for a command ``what`` that failed."""
        return GitError(f"git {what} failed: {self.message(done)}")

    def message(self, done: subprocess.CompletedProcess[bytes]) -> str:
        """One line on why a command failed."""
        return self.describe(done.stderr, done.stdout, done.returncode)

    @contextmanager
    def stream(self, *args: str) -> Iterator[GitStream]:
        """Run a long command (``git log``) whose output is read while it is written.

        Leaving the block ends git. Its output read to the end, a failure is a GitError; after
        ``stop()`` or an exception git is terminated and its exit status does not matter.
        """
        with self._started(args, stdin=subprocess.DEVNULL) as (process, errors):
            assert process.stdout is not None
            handle = GitStream(process.stdout)
            try:
                yield handle
            except BaseException:
                _end(process)  # (its output cut short by a Ctrl-C: that is what is said)
                raise
            if handle.stopped:
                _end(process)
            # Read to the end, git has finished writing; if not, it gets EPIPE, not a hang.
            process.stdout.close()
            returncode = process.wait()
            interrupted(returncode)
            if returncode != 0 and not handle.stopped:
                raise self._failed(args, returncode, errors)

    @contextmanager
    def batch(self, *args: str) -> Iterator[GitBatch]:
        """Run a long command that answers requests written to its stdin (``git cat-file
        --batch``): write and flush requests, read every answer from ``stdout``.

        Leaving the block closes stdin, which ends git; a failure, or git ending while it is
        written to, is a GitError. After any other exception git is terminated.
        """
        with self._started(args, stdin=subprocess.PIPE) as (process, errors):
            assert process.stdin is not None and process.stdout is not None
            ended_early = False
            try:
                yield GitBatch(process.stdin, process.stdout)
                process.stdin.close()
            except BrokenPipeError:
                ended_early = True  # git's message says why
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.close()  # what is still buffered can only be dropped
            except BaseException:
                _end(process)  # (its answers cut short by a Ctrl-C: that is what is said)
                raise
            process.stdout.close()  # answers left unread: git ends (EPIPE), never hangs
            returncode = process.wait()
            interrupted(returncode)
            if returncode != 0 or ended_early:
                raise self._failed(args, returncode, errors)

    @contextmanager
    def _started(
        self, args: tuple[str, ...], *, stdin: int
    ) -> Iterator[tuple[subprocess.Popen[bytes], IO[bytes]]]:
        """A long command, its stdout a pipe and its stderr a file (a pipe left unread could
        block git); the process is reaped when the block ends."""
        with tempfile.TemporaryFile() as errors:
            process = _start(
                self.command(args), self.env, stdin=stdin, stdout=subprocess.PIPE, stderr=errors
            )
            with process:
                assert process.stdout is not None
                _widen(process.stdout)
                try:
                    yield process, errors
                finally:
                    _RUNNING.discard(process)

    def _failed(self, args: tuple[str, ...], returncode: int, errors: IO[bytes]) -> GitError:
        errors.seek(0)
        done = subprocess.CompletedProcess(args, returncode, b"", errors.read())
        return self.failure(args[0], done)


def _widen(pipe: IO[bytes]) -> None:
    """Make ``pipe`` PIPE_BYTES long where the system allows it; as it is elsewhere."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)  # (None too where fcntl is)
    if setting is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(pipe.fileno(), setting, PIPE_BYTES)


def _start(command: list[str], env: Mapping[str, str], **pipes: Any) -> subprocess.Popen[bytes]:
    """git started and counted among the commands under way, unless the run is ending
    (end_running): then the interruption, raised in the thread that asked."""
    with _GATE.starting():
        try:
            process = subprocess.Popen(command, env=env, **pipes)
        except OSError as exc:
            raise _cannot_run(exc) from exc
        _RUNNING.add(process)
    return process


def end_running() -> None:
    """End every git command under way (a thread may be reading one) and start no other: the
    run is interrupted and exits without waiting for the threads, and leaves no git process
    behind. Each is waited for: a git that got the signal as this process did, or SIGTERM
    here, may not have ended yet when the run exits (under load: seen in /proc after it); one
    still running ENDING_GRACE seconds after SIGTERM (it ignores it) is killed."""
    with _GATE.closing():
        running = list(_RUNNING)
    for process in running:
        with contextlib.suppress(OSError):
            process.terminate()
    for process in running:
        try:
            process.wait(ENDING_GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def resume_running() -> None:
    """git may start again: an interrupted run ended in this process, which goes on (a
    library caller, a test running the CLI in its own process)."""
    _GATE.reopen()


def _end(process: subprocess.Popen[bytes]) -> None:
    """End git (its exit status no longer matters), unless a signal ended it first (a Ctrl-C):
    then the error its cut output raised is the interruption (``interrupted``)."""
    ours = process.poll() is None
    if ours:
        process.terminate()
    returncode = process.wait()
    if not (ours and returncode == -signal.SIGTERM):  # (not the end given here)
        interrupted(returncode)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _cannot_run(exc: OSError) -> GitError:
    return GitError(f"cannot run git: {exc.strerror or exc}")
