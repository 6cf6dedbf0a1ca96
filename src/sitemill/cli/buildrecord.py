"""Where the commands run after a deploy find the last build's record: a folder or a bucket."""
# `sitemill indexnow` and `sitemill check` read what a build kept (its state, its sitemaps): in
# SITE_DIR (or --out, or the `state` it names), or in a bucket (--bucket, --prefix).

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.cli.options import config_from_args
from sitemill.cli.usage import (
    bucket_name,
    check_out_dir,
    check_site_dir,
    endpoint_url,
    key_prefix,
    require_s3_extra,
)

if TYPE_CHECKING:
    from sitemill.config.model import Config


def add_record_arguments(command: argparse.ArgumentParser, bucket_help: str) -> None:
    """SITE_DIR, --out, --bucket, --prefix and --endpoint-url."""
    command.add_argument("site_dir", nargs="?", type=Path, default=Path("."), metavar="SITE_DIR")
    command.add_argument("--out", type=Path, help="where the sitemaps are (default: SITE_DIR)")
    command.add_argument("--bucket", type=bucket_name, metavar="NAME", help=bucket_help)
    command.add_argument("--prefix", default="", type=key_prefix, help="the bucket's source prefix")
    command.add_argument("--endpoint-url", type=endpoint_url, help="S3-compatible endpoint")


def record_config(args: argparse.Namespace, env: Mapping[str, str]) -> Config:
    """The configuration, once the folders (or the s3 extra, for a bucket) are checked; a
    folder's sitemill.toml is found there."""
    if args.bucket:
        require_s3_extra()
    else:
        check_site_dir(args.site_dir)
        check_out_dir(args.site_dir, args.out or args.site_dir)
    search = [] if args.bucket else [args.site_dir]
    return config_from_args(args, dict(env), search_dirs=search)
