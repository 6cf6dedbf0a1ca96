"""The ``why`` command's parser, and its run, loaded only when the command runs."""
# `sitemill --version` and the other commands load none of the dating code `why` explains.

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sitemill.cli.options import add_config_flags
from sitemill.cli.usage import bucket_name, endpoint_url, key_prefix


def add_why_command(commands: Any, common: argparse.ArgumentParser) -> None:
    """The ``why`` command's parser, under ``commands`` (the subparsers of `sitemill`)."""
    why = commands.add_parser(
        "why", parents=[common], help="one page's date and its evidence (writes nothing)"
    )
    why.add_argument("page", type=_page, metavar="PAGE", help="a site path (blog/post/) or a URL")
    why.add_argument("site_dir", nargs="?", type=Path, metavar="SITE_DIR")
    why.add_argument("--out", type=Path, help="the sitemaps' folder (default: SITE_DIR)")
    why.add_argument("--bucket", type=bucket_name, metavar="NAME", help="a page of this bucket")
    why.add_argument("--prefix", type=key_prefix, help="the bucket's site prefix")
    why.add_argument("--endpoint-url", type=endpoint_url, help="S3-compatible endpoint")
    add_config_flags(why)


def _page(text: str) -> str:
    """The type of PAGE: any name but an empty one (a file name may hold any character)."""
    if not text:
        raise argparse.ArgumentTypeError("PAGE is empty: give a site path (blog/post/) or a URL")
    return text


def run_why_command(args: argparse.Namespace, env: dict[str, str]) -> int:
    """``sitemill why``, a page of a bucket or of a folder (sitemill.cli.bucketwhy)."""
    from sitemill.cli.bucketwhy import run_why_command as run

    return run(args, env)
