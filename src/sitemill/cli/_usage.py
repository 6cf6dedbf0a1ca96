"""What the `sitemill` command says: its lines, its usage errors (exit 2, "did you mean …?")."""
# Each line the CLI writes to the terminal is shown through messages.shown (say), and so is how it
# leaves on Ctrl-C. "Did you mean …?" answers a near miss: a misspelt command, flag or choice.

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Final, NoReturn, TextIO
from urllib.parse import urlsplit

from sitemill.commands import COMMANDS
from sitemill.config.names import did_you_mean
from sitemill.errors import MissingExtraError, UsageError, install_hint
from sitemill.messages import shown

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

# Exit codes (docs/configuration.md, Exit codes): 1 for an input that cannot be read or fails
# validation, 2 for a command line or a configuration that is wrong before any input is read.
EXIT_INVALID: Final = 1
EXIT_USAGE: Final = 2

_INVALID_CHOICE: Final = re.compile(
    r"invalid choice: '(?P<given>[^']*)' \(choose from (?P<all>.*)\)"
)


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


class _Terminated(KeyboardInterrupt):
    """SIGTERM (a cancelled CI job, `timeout`, `kill`): the run unwinds as on Ctrl-C (the pools
    end their workers and wait for nothing: workers.workpool)."""


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM raises a KeyboardInterrupt of its own in the main thread while the block runs
    (exit_interrupted tells it apart), and so does a git it ended first in any thread
    (git.run.terminated_as), unless this process was started with it ignored."""
    from sitemill.git.run import terminated_as

    def terminate(_signum: int, _frame: FrameType | None) -> None:
        raise _Terminated

    if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
        yield
        return
    old = signal.signal(signal.SIGTERM, terminate)
    try:
        with terminated_as(_Terminated):
            yield
    finally:
        signal.signal(signal.SIGTERM, old)


def exit_interrupted(interruption: KeyboardInterrupt) -> int:
    """Ctrl-C, or SIGTERM (terminated_as_interrupt): say so, and exit at once, 130 (SIGTERM: by
    that signal, as a killed process ends). The pools wait for no work under way
    (workers.workpool), but a thread may still run it (git log over a long
    history): the interpreter would wait for it at exit, so the process ends here instead,
    after ending the git commands, the workers, the fork server and the resource tracker,
    which the exit hooks skipped so would leave behind (workers.workpool.stop_workers_now)."""
    from sitemill.git.run import end_running, resume_running
    from sitemill.workers.workpool import resume_workers, stop_workers_now

    for number in (signal.SIGINT, signal.SIGTERM):  # (a second one: no traceback now)
        signal.signal(number, signal.SIG_IGN)
    end_running()
    stop_workers_now()
    terminated = isinstance(interruption, _Terminated)
    what = "terminated" if terminated else "interrupted"
    sys.stderr.write(f"sitemill: {what}; nothing half-written was published\n")
    if terminated or threading.active_count() > 1:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        if terminated:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.raise_signal(signal.SIGTERM)
        os._exit(130)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    resume_running()  # (the process goes on: its caller's next run may start git again)
    resume_workers()
    return 130


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block) and name a near miss."""

    def error(self, message: str) -> NoReturn:
        found = _INVALID_CHOICE.search(message)
        if found:
            message += did_you_mean(found["given"], re.findall(r"'([^']*)'", found["all"]))
        # argparse quotes argv (an unknown flag, a refused value): shown as any message is,
        # with no URL's user info and no character that steers the terminal.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {shown(message)} (see {self.prog} --help)\n")


def add_command(
    commands: argparse._SubParsersAction[Parser], common: Parser, name: str
) -> argparse.ArgumentParser:
    """The parser of the command ``name`` (sitemill.commands), with the common options, and
    SITE_DIR and --out where the command runs over a site folder."""
    row = COMMANDS[name]
    command: argparse.ArgumentParser = commands.add_parser(name, parents=[common], help=row.does)
    if row.out is not None:
        add_site_dir(command, row.out)
    return command


def add_site_dir(command: argparse.ArgumentParser, out_help: str, *, given: bool = False) -> None:
    """SITE_DIR (``.`` unless ``given``: then None when it is not) and ``--out``, the folder
    the sitemaps are in (``out_help`` says it)."""
    default = None if given else Path(".")
    command.add_argument("site_dir", nargs="?", type=Path, default=default, metavar="SITE_DIR")
    command.add_argument("--out", type=Path, help=out_help)


def parse_command_line(parser: Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args``, where an unknown flag is named with the command's closest one."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        command = _command_parsers(parser).get(getattr(args, "command", None) or "", parser)
        first = next((extra for extra in extras if extra.startswith("-")), "")
        hint = did_you_mean(first.partition("=")[0], _flags(command)) if first else ""
        command.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return args


def _command_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    return [flag for action in parser._actions for flag in action.option_strings]


# What a bucket name can hold (S3's rules, with the capitals and underscores of old us-east-1
# names): a path, a space or an s3:// URL is a mistake.
_BUCKET: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]")


def bucket_name(text: str) -> str:
    """The type of --bucket: a bucket's name (``s3://name/`` is named as the mistake it is)."""
    if _BUCKET.fullmatch(text):
        return text
    if text.startswith("s3://"):
        name = text[5:].partition("/")[0]
        raise argparse.ArgumentTypeError(f"{text!r} is a URL: give the name, --bucket {name}")
    raise argparse.ArgumentTypeError(f"{text!r} is not a bucket name (like my-site)")


# A Lambda function's name, or its (partial) ARN, as GetFunctionConfiguration takes it.
_FUNCTION: Final = re.compile(
    r"(arn:[a-z-]+:lambda:[a-z0-9-]+:\d{12}:function:)?[A-Za-z0-9_-]{1,64}"
)


def function_name(text: str) -> str:
    """The type of --function: the stack's function, by its name or ARN."""
    if _FUNCTION.fullmatch(text):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a Lambda function's name (the stack's FunctionName output)"
    )


def endpoint_url(text: str) -> str:
    """The type of --endpoint-url: an absolute http(s) URL with a host and no user info
    (boto3 refuses any other; the credentials come from the AWS environment)."""
    given = text.strip()
    try:
        parts = urlsplit(given)
        parts.port  # noqa: B018  (a ValueError for a "port" that is no number: a password?)
    except ValueError:
        parts = None
    if parts is None or "@" in (parts.netloc if parts else given):
        raise argparse.ArgumentTypeError(
            "the URL given carries user info or a port that is no number: give the endpoint "
            "alone (like http://localhost:9000); the credentials come from the AWS environment"
        )
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            f"{given!r} is not an http(s) URL (like http://localhost:9000)"
        )
    return given


def check_site_dir(site_dir: Path) -> None:
    """SITE_DIR must be a directory: a file or a missing path is a mistake on the command line."""
    if not site_dir.exists():
        raise UsageError(f"SITE_DIR {site_dir} does not exist")
    if not site_dir.is_dir():
        raise UsageError(f"SITE_DIR {site_dir} is not a directory (the built site's folder)")


def key_prefix(text: str) -> str:
    """The type of --prefix: a key prefix such as ``site/`` (keys have no leading "/")."""
    if text.startswith(("/", "s3://")) or {".", ".."} & set(text.split("/")):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a key prefix (like site/: no leading /, no . or .. segment)"
        )
    return text


def check_out_dir(site_dir: Path | None, out_dir: Path) -> None:
    """--out is a folder: SITE_DIR (the default) or one outside it, never one inside it.

    The sitemaps must sit at the root the base URL names: a sitemap may list only the URLs
    at or below its own folder (sitemaps.org, "Sitemap file location"), so sitemaps written
    to SITE_DIR/sub/ could not list the pages above them.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir} is not a directory")
    if site_dir is None:
        return
    site, out = site_dir.resolve(), out_dir.resolve()
    if out != site and out.is_relative_to(site):
        raise UsageError(
            f"--out {out_dir} is inside SITE_DIR {site_dir}: sitemaps must sit at the root the "
            "base URL names (a sitemap lists only URLs at or below its own folder); use "
            "SITE_DIR itself or a folder outside it that is deployed as the site's root"
        )


def require_s3_extra() -> None:
    """boto3 and botocore, or a MissingExtraError saying how to install them (one line)."""
    try:
        import boto3  # noqa: F401  (the "s3" extra)
        import botocore  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(f"S3 support needs boto3: {install_hint('s3')}") from exc


def s3_client(endpoint_url: str | None = None) -> S3Client:
    """An S3 client, made only when one is needed (an s3:// --state, a bucket: boto3 is an
    extra)."""
    require_s3_extra()
    from sitemill.aws.clients import make_s3_client

    return make_s3_client(endpoint_url)
