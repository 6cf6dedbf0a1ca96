"""`sitemill check` and `sitemill indexnow`: after a deploy, over what the last build published."""
# `check`: one line per problem on stdout (its URL, what is wrong, the fix), then the notes and a
# summary; exit 1 on any problem unless --warn-only. With an IndexNow key, the pending URLs that
# passed are announced and the rest stay pending. `indexnow` sends what the state holds pending (a
# workflow step after the deploy); `build` and `s3` announce after they publish. Both read the
# record of a folder's build or, with --bucket, a bucket's.

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, TextIO

from sitemill.cli._options import add_record_arguments, record_config, record_site
from sitemill.cli._usage import Parser, add_command, s3_client, say
from sitemill.commands import COMMANDS, CommandInput

if TYPE_CHECKING:  # (the commands' modules are imported when they run: `sitemill validate`
    # and the parser need none of them)
    from mypy_boto3_s3 import S3Client

    from sitemill.commands.check import Checked
    from sitemill.config.model import Config
    from sitemill.indexnow.outcome import IndexNowOutcome, PendingStore


def add_inputs(command: argparse.ArgumentParser, inputs: tuple[CommandInput, ...]) -> None:
    """A flag per input of the command table: a switch, or a number above 0 with its default."""
    for each in inputs:
        dest = each.dest or each.name.replace("-", "_")
        if isinstance(each.default, bool):
            command.add_argument(f"--{each.name}", action="store_true", help=each.means, dest=dest)
            continue
        command.add_argument(
            f"--{each.name}",
            type=_positive(type(each.default)),
            default=each.default,
            metavar="N" if isinstance(each.default, int) else "S",
            help=f"{each.means} (default {each.default:g})",
            dest=dest,
        )


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be more than 0: {text!r}")
        return value

    return parse


def add_check_command(
    commands: argparse._SubParsersAction[Parser], common: Parser
) -> argparse.ArgumentParser:
    """The parser of `sitemill check --base-url URL [SITE_DIR | --bucket NAME] [--all]`."""
    command = add_command(commands, common, "check")
    add_record_arguments(command, "a bucket's site, not a folder's")
    add_inputs(command, COMMANDS["check"].inputs)
    return command


def run_check_command(args: argparse.Namespace, env: dict[str, str]) -> int:
    """Check the live site; exit 1 on any problem unless --warn-only."""
    config = record_config(args, env)
    from sitemill.check.run import CheckOptions
    from sitemill.jobs.features import OUTPUTS
    from sitemill.web.livesite import Limits

    options = CheckOptions(every=args.every, sample=args.sample, outputs=OUTPUTS)
    limits = Limits(args.concurrency, min(10.0, args.timeout), args.timeout, args.deadline)
    client = partial(s3_client, args.endpoint_url)
    if args.bucket:
        from sitemill.commands.check import check_bucket

        checked = check_bucket(config, client(), record_site(args, env), options, limits)
    else:
        from sitemill.commands.adapters import check_folder

        out = args.out or args.site_dir
        checked = check_folder(config, args.site_dir, out, options, limits, s3_client=client)
    print_checked(checked, sys.stdout, quiet=args.quiet)
    return checked.exit_code(args.warn_only)


def print_checked(checked: Checked, stream: TextIO, *, quiet: bool) -> None:
    """Each problem on a line of its own (also when quiet), then the notes and summary."""
    report = checked.report
    for problem in report.sorted_problems():
        say(stream, f"problem: {problem.line()}")
    if quiet:
        return
    for note in report.notes:
        say(stream, f"note: {note}")
    if checked.indexnow is not None:
        for message in checked.indexnow.messages:
            say(sys.stderr, f"sitemill: warning: {message}")
        say(stream, checked.indexnow.line())
    say(stream, report.summary())


def add_indexnow_command(
    commands: argparse._SubParsersAction[Parser],
    common: Parser,
) -> argparse.ArgumentParser:
    """The parser of `sitemill indexnow [SITE_DIR | --bucket NAME] [--dry-run]`."""
    command = add_command(commands, common, "indexnow")
    add_record_arguments(command, "a bucket's pending URLs, not a folder's")
    command.add_argument("--dry-run", action="store_true", help="print what would be sent")
    return command


def run_indexnow_command(args: argparse.Namespace, env: dict[str, str]) -> int:
    """Send the pending URLs; exit 1 when an engine refused some (400, 422). ``s3_client``
    makes a client at an endpoint (--endpoint-url, as `sitemill s3`'s), when one is needed."""
    from sitemill.commands.adapters import announced_exit, require_indexnow_key
    from sitemill.indexnow.run import deliver, pending_outcome

    config = record_config(args, env)
    if not args.dry_run:
        require_indexnow_key(config, " (SITEMILL_INDEXNOW_KEY)")
    client = partial(s3_client, args.endpoint_url)
    outcome = pending_outcome(config, _pending_store(args, config, client, env))
    deliver(config, outcome, dry_run=args.dry_run)
    for message in outcome.messages:
        say(sys.stderr, f"sitemill: warning: {message}")
    if not args.quiet:
        print_outcome(outcome, sys.stdout, dry_run=args.dry_run)
    return announced_exit(outcome)


def print_outcome(outcome: IndexNowOutcome, stream: TextIO, *, dry_run: bool) -> None:
    if dry_run:
        say(stream, f"dry run: nothing was sent ({len(outcome.urls):,} URL(s) pending)")
        for host, count in outcome.would_send:
            say(stream, f"would send a batch of {count:,} URL(s) for {host}")
        for url, kind in sorted(outcome.urls.items()):
            say(stream, f"  {kind}: {url}")
        return
    say(stream, outcome.line())


def _pending_store(
    args: argparse.Namespace,
    config: Config,
    s3_client: Callable[[], S3Client],
    env: Mapping[str, str],
) -> PendingStore:
    """Where the pending URLs are: the same place as a run with these options keeps them."""
    if not args.bucket:
        from sitemill.commands.adapters import folder_pending

        out = args.out or args.site_dir
        return folder_pending(config, args.site_dir, out, s3_client=s3_client)
    from sitemill.commands.check import bucket_pending

    return bucket_pending(config, s3_client(), record_site(args, env))
