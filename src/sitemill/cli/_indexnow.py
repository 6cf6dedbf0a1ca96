"""`sitemill indexnow`, and the announcements of `sitemill build` and `sitemill s3`."""
# `sitemill indexnow` sends what the state holds pending (a workflow step after the deploy); `build`
# and `s3` announce after they publish.

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, TextIO

from sitemill.cli._options import add_record_arguments, record_config, record_site
from sitemill.cli._usage import Parser, add_command, s3_client, say
from sitemill.errors import ConfigError

if TYPE_CHECKING:  # (the command's modules are imported when it runs: `sitemill validate`
    # and the parser need none of them)
    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.indexnow.outcome import IndexNowOutcome, PendingStore


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
    from sitemill.indexnow.run import deliver, pending_outcome

    config = record_config(args, env)
    if not config.indexnow_key and not args.dry_run:
        raise ConfigError("indexnow_key", "is required to send (SITEMILL_INDEXNOW_KEY)")
    client = partial(s3_client, args.endpoint_url)
    outcome = pending_outcome(config, _pending_store(args, config, client, env))
    deliver(config, outcome, dry_run=args.dry_run)
    for message in outcome.messages:
        say(sys.stderr, f"sitemill: warning: {message}")
    if not args.quiet:
        print_outcome(outcome, sys.stdout, dry_run=args.dry_run)
    return 1 if outcome.refused else 0


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
    from sitemill.state.store import open_state_store

    if not args.bucket:
        from sitemill.indexnow.pending import tree_pending

        store = open_state_store(config, s3_client=s3_client)
        return tree_pending(store, args.site_dir, args.out or args.site_dir)
    from sitemill.indexnow.pending import PENDING_PLACES
    from sitemill.scaleout.bucketrecord import bucket_pending

    return bucket_pending(config, s3_client(), record_site(args, env), PENDING_PLACES)
