"""`sitemill check`: after a deploy, what is live is what the last build published."""
# One line per problem on stdout (its URL, what is wrong, the fix), then the notes and a summary;
# exit 1 on any problem unless --warn-only. With an IndexNow key, the pending URLs that
# passed are announced and the rest stay pending.

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TextIO

from sitemill.cli._options import add_record_arguments, record_config, record_site
from sitemill.cli._usage import Parser, add_command, s3_client, say
from sitemill.commands import COMMANDS, CommandInput

if TYPE_CHECKING:
    from sitemill.commands.check import Checked


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
    from sitemill.commands.check import check_record, check_tree
    from sitemill.jobs.features import OUTPUTS
    from sitemill.state.store import open_state_store
    from sitemill.web.livesite import Limits

    options = CheckOptions(every=args.every, sample=args.sample, outputs=OUTPUTS)
    limits = Limits(args.concurrency, min(10.0, args.timeout), args.timeout, args.deadline)
    client = partial(s3_client, args.endpoint_url)
    if args.bucket:
        from sitemill.indexnow.pending import PENDING_PLACES
        from sitemill.scaleout.bucketrecord import bucket_record

        record = bucket_record(config, client(), record_site(args, env), PENDING_PLACES)
        checked = check_record(config, record, options, limits)
    else:
        store = open_state_store(config, s3_client=client)
        out = args.out or args.site_dir
        checked = check_tree(config, args.site_dir, out, store, options, limits)
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
