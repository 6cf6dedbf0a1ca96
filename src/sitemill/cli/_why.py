"""`sitemill why PAGE [SITE_DIR | --bucket NAME]`: one page's date and its evidence."""
# `sitemill --version` and the other commands load this parser only: none of the dating code `why`
# explains (sitemill.cli._whylines, imported when the command runs).

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.cli._options import add_config_flags, config_from_args, record_site, site_and_config
from sitemill.cli._usage import (
    EXIT_INVALID,
    Parser,
    add_command,
    add_site_dir,
    bucket_name,
    endpoint_url,
    key_prefix,
    require_s3_extra,
    s3_client,
    say,
)
from sitemill.errors import ConfigError, UsageError

if TYPE_CHECKING:
    from sitemill.commands.why import PageWhy
    from sitemill.config.model import Config


def add_why_command(commands: argparse._SubParsersAction[Parser], common: Parser) -> None:
    """The ``why`` command's parser, under ``commands`` (the subparsers of `sitemill`)."""
    why = add_command(commands, common, "why")
    why.add_argument("page", type=_page, metavar="PAGE", help="a site path (blog/post/) or a URL")
    add_site_dir(why, "the sitemaps' folder (default: SITE_DIR)", given=True)
    why.add_argument("--bucket", type=bucket_name, metavar="NAME", help="a page of this bucket")
    why.add_argument("--prefix", type=key_prefix, help="the bucket's site prefix")
    why.add_argument("--endpoint-url", type=endpoint_url, help="S3-compatible endpoint")
    add_config_flags(why)


def _page(text: str) -> str:
    """The type of PAGE: any name but an empty one (a file name may hold any character)."""
    if not text:
        raise argparse.ArgumentTypeError("PAGE is empty: give a site path (blog/post/) or a URL")
    return text


def _refuse_swapped(page: str, site_dir: Path) -> None:
    """PAGE comes first: a PAGE that is a folder holding SITE_DIR (`why . blog/post/`) has the two
    swapped, and would explain SITE_DIR's index page as a site of its own."""
    try:
        folder = Path(page).resolve()
        swapped = folder.is_dir() and folder in site_dir.resolve().parents
    except (OSError, ValueError):  # (a name the system refuses: no folder)
        return
    if swapped:
        raise UsageError(
            f"SITE_DIR {site_dir} is inside PAGE {page}: the page comes first "
            f"(sitemill why {site_dir} {page})"
        )


def run_why_command(args: argparse.Namespace, env: dict[str, str]) -> int:
    """``sitemill why``: run the build dry (of a bucket with ``--bucket``: nothing is written
    to it) and print what it decided for PAGE: a site path, a key under the prefix, or a URL
    under the base URL."""
    if args.bucket is not None:
        if args.site_dir is not None or args.out is not None:
            raise ConfigError("bucket", "give a SITE_DIR (and --out) or --bucket, not both")
        require_s3_extra()  # (before sitemill.aws, whose modules import botocore)
        config = config_from_args(args, env)
    else:
        if args.prefix is not None or args.endpoint_url is not None:
            raise ConfigError("bucket", "--prefix and --endpoint-url name a bucket: give --bucket")
        if args.site_dir is None:
            args.site_dir = Path(".")
        else:
            _refuse_swapped(args.page, args.site_dir)
        args.site_dir, args.out, config = site_and_config(args, env)
    from sitemill.cli._whylines import why_code, why_lines
    from sitemill.commands.why import site_path

    name = site_path(args.page, config.base_url)
    if name is None:
        say(sys.stdout, f"{args.page} is not under the base URL {config.base_url}")
        return EXIT_INVALID
    why = _bucket_page(args, env, config, name) if args.bucket else _folder_page(args, config, name)
    for line in why_lines(why, args.page):
        say(sys.stdout, line)
    return why_code(why)


def _folder_page(args: argparse.Namespace, config: Config, name: str) -> PageWhy:
    """The tree job run dry on SITE_DIR, the page ``name`` watched."""
    from sitemill.commands.why import explain_page
    from sitemill.filenames.outputs import STATE_NAME
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS
    from sitemill.sinks import LocalDirSink
    from sitemill.state.previous import open_previous
    from sitemill.state.store import SinkStateStore, open_state_store

    sink = LocalDirSink(args.out)
    beside = SinkStateStore(sink, str(args.out / STATE_NAME))
    store = open_state_store(config, s3_client=s3_client) or beside
    asked = RunAsked(OUTPUTS, state_store=store, previous=open_previous(config))
    return explain_page(config, args.site_dir, name, sink, asked)


def _bucket_page(
    args: argparse.Namespace, env: dict[str, str], config: Config, name: str
) -> PageWhy:
    """The bucket job's reading and dating run dry, the page ``name`` watched."""
    from sitemill.cli._s3function import refuse_state_elsewhere
    from sitemill.commands.whybucket import explain_bucket_page
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS
    from sitemill.state.previous import open_previous
    from sitemill.state.store import open_state_store

    site = record_site(args, env)
    s3 = s3_client(args.endpoint_url)
    refuse_state_elsewhere(config, s3, site)  # (the dates the stack keeps: not where it looks)
    store = open_state_store(config, s3_client=lambda: s3)
    asked = RunAsked(OUTPUTS, state_store=store, previous=open_previous(config))
    return explain_bucket_page(config, s3, site, name, asked)
