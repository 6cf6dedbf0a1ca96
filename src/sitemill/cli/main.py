"""The `sitemill` command: build, urls, s3 and validate, over the same core."""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sitemill.cli._deployed import (
    add_check_command,
    add_indexnow_command,
    run_check_command,
    run_indexnow_command,
)
from sitemill.cli._diff import add_diff_command, run_diff_command
from sitemill.cli._options import add_config_flags, config_from_args, site_and_config
from sitemill.cli._usage import (
    EXIT_INVALID,
    EXIT_USAGE,
    Parser,
    add_command,
    bucket_name,
    check_out_dir,
    endpoint_url,
    exit_interrupted,
    function_name,
    key_prefix,
    one_line_message,
    parse_command_line,
    require_s3_extra,
    s3_client,
    say,
    terminated_as_interrupt,
)
from sitemill.cli._why import add_why_command, run_why_command
from sitemill.errors import ConfigError, MissingExtraError, SitemillError, SourceError, UsageError
from sitemill.messages import shown
from sitemill.version import __version__
from sitemill.workers.collector import fewer_collections

if TYPE_CHECKING:
    pass

log = logging.getLogger("sitemill")


def build_parser() -> Parser:
    # Global options work before and after the command: `sitemill -q build` and
    # `sitemill build -q`. SUPPRESS as the commands' default keeps a command from resetting
    # a value given before it.
    common = Parser(add_help=False)
    common.add_argument(
        "--version", action="version", version=f"sitemill {__version__}", help=argparse.SUPPRESS
    )
    common.add_argument(
        "-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help="print errors only"
    )
    parser = Parser(
        prog="sitemill", description="Correct, deterministic sitemaps for static sites."
    )
    parser.add_argument("--version", action="version", version=f"sitemill {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    build = add_command(commands, common, "build")
    build.add_argument(
        "--dry-run", action="store_true",
        help="build in memory and print what would be written and what changes; write nothing",
    )  # fmt: skip
    add_config_flags(build)

    urls = add_command(commands, common, "urls")
    urls.add_argument("url_file", metavar="FILE|-")
    urls.add_argument("--out", type=Path, default=Path("."), help="output directory (default: .)")
    add_config_flags(urls)

    s3 = add_command(commands, common, "s3")
    s3.add_argument(
        "--bucket", type=bucket_name, metavar="NAME",
        help="the site bucket (or SITEMILL_BUCKET, or --function's)",
    )  # fmt: skip
    s3.add_argument(
        "--function", type=function_name, metavar="NAME",
        help="the stack's Lambda function: its configuration, bucket and state location",
    )  # fmt: skip
    s3.add_argument("--prefix", type=key_prefix, help="source prefix; sitemaps go under it too")
    s3.add_argument("--endpoint-url", type=endpoint_url, help="S3-compatible endpoint")
    s3.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    add_config_flags(s3)

    add_config_flags(add_indexnow_command(commands, common))
    add_config_flags(add_check_command(commands, common))
    add_why_command(commands, common)
    add_diff_command(commands, common)

    validate = add_command(commands, common, "validate")
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    validate.add_argument("--base-url", help="URL the sitemaps are served from")
    return parser


def _run_build(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.cli._progress import live_line
    from sitemill.cli._report import print_report
    from sitemill.jobs.afterpublish import after_publishing, folder_writer
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS
    from sitemill.jobs.tree import build_tree  # (validate needs no Jinja)
    from sitemill.sinks import LocalDirSink
    from sitemill.state.previous import open_previous
    from sitemill.state.store import open_state_store

    site_dir, out_dir, config = site_and_config(args, env)
    if args.dry_run:
        from sitemill.cli._diff import run_dry_build

        return run_dry_build(args, config, str(site_dir), str(out_dir))
    state_store = open_state_store(config, s3_client=s3_client)
    previous = open_previous(config)
    with live_line(sys.stderr, quiet=args.quiet) as line:
        progress = line if line.active else None  # (none shown: the pages read in fewer chunks)
        asked = RunAsked(OUTPUTS, progress, state_store=state_store, previous=previous)
        report = build_tree(config, site_dir, LocalDirSink(out_dir), asked, output_dir=out_dir)
    after_publishing(config, report, folder_writer(LocalDirSink(out_dir)), asked)
    if not args.quiet:
        print_report(report, str(out_dir), sys.stdout)
    return 0


def _run_urls(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.cli._progress import live_line
    from sitemill.cli._report import print_report
    from sitemill.jobs.features import URL_LIST_OUTPUTS
    from sitemill.jobs.urllist import build_url_list
    from sitemill.sinks import LocalDirSink

    check_out_dir(None, args.out)
    for flag in ("state", "previous_state"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag.replace('_', '-')}: a URL list keeps no state")
    config = config_from_args(args, env)
    source: str = args.url_file
    try:
        with contextlib.ExitStack() as stack:
            if source == "-":
                lines: BinaryIO = sys.stdin.buffer
            else:
                lines = stack.enter_context(open(source, "rb"))
            progress = stack.enter_context(live_line(sys.stderr, quiet=args.quiet))
            try:  # a file or a redirected one: its size sizes the duplicate check
                size_hint: int | None = os.fstat(lines.fileno()).st_size or None
            except (OSError, ValueError, io.UnsupportedOperation):
                size_hint = None
            report = build_url_list(
                config,
                lines,
                LocalDirSink(args.out),
                name=source,
                progress=progress,
                size_hint=size_hint,
                outputs=URL_LIST_OUTPUTS,
            )
    except OSError as exc:
        raise SourceError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if not args.quiet:
        print_report(report, str(args.out), sys.stdout)
    return 0


def _run_validate(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.jobs.features import OUTPUTS
    from sitemill.urls import normalize_base_url
    from sitemill.validate import tally, validate_paths

    base_url = normalize_base_url(args.base_url) if args.base_url else None
    violations = validate_paths(args.paths, base_url, OUTPUTS)
    errors = sum(1 for violation in violations if violation.is_error)
    # Warnings (a repeated loc, a .gz name on plain XML) are findings, not failures: -q hides them,
    # and notes (what could not be checked and is no fault).
    listed = [v for v in violations if v.is_error] if args.quiet else violations
    for violation in listed:
        say(sys.stdout, str(violation))
    if not errors and not args.quiet:
        also = f" (with {said})" if (said := tally(violations)) else ""
        say(sys.stdout, f"valid: {', '.join(str(p) for p in args.paths)}{also}")
    return 1 if errors else 0


def _run_s3(args: argparse.Namespace, env: dict[str, str]) -> int:
    require_s3_extra()  # (before sitemill.aws, whose modules import botocore)
    from sitemill.cli._s3 import run_s3_command, site_bucket

    if args.function:
        from sitemill.cli._s3function import stack_environment

        env = stack_environment(args.function, env)
    args.bucket = site_bucket(args.bucket, args.function, env)
    config = config_from_args(args, env)
    return run_s3_command(args, config, sys.stdout, env=env)


_COMMANDS: dict[str, Callable[[argparse.Namespace, dict[str, str]], int]] = {
    "build": fewer_collections()(_run_build),  # (the tables a build keeps: workers.collector)
    "urls": _run_urls,
    "validate": _run_validate,
    "s3": _run_s3,
    "indexnow": run_indexnow_command,
    "check": run_check_command,
    "why": run_why_command,
    "diff": run_diff_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse_command_line(parser, argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Shown())
    logging.basicConfig(level=logging.ERROR if args.quiet else logging.WARNING, handlers=[handler])
    try:
        with terminated_as_interrupt():
            return _COMMANDS[args.command](args, dict(os.environ))
    except SitemillError as exc:
        say(sys.stderr, f"sitemill: error: {one_line_message(str(exc))}")
        # A wrong command line or configuration is a usage error; the rest is invalid input.
        usage = isinstance(exc, ConfigError | UsageError | MissingExtraError)
        return EXIT_USAGE if usage else EXIT_INVALID
    except KeyboardInterrupt as exc:
        return exit_interrupted(exc)
    except BrokenPipeError:  # (`sitemill build | head`: the reader left; no traceback)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (for the last flush)
        return 1


class _Shown(logging.Formatter):
    """``sitemill: warning: …``, one line: no secret, no control character (messages.shown)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"sitemill: warning: {shown(record.getMessage())}"
