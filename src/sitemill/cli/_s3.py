"""`sitemill s3`: rebuild a bucket's sitemaps from the command line, or preview the changes."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from sitemill.aws.clients import make_s3_client
from sitemill.cli._options import record_site
from sitemill.cli._progress import live_line
from sitemill.cli._report import print_preview, print_report
from sitemill.cli._s3function import refuse_state_elsewhere
from sitemill.config.model import Config
from sitemill.errors import ConfigError
from sitemill.jobs.afterpublish import after_publishing, bucket_file_writer
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.jobs.features import OUTPUTS
from sitemill.scaleout.bucketrun import RunAsked, rebuild_site

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


def run_s3_command(
    args: argparse.Namespace,
    config: Config,
    stdout: TextIO,
    *,
    client: S3Client | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Rebuild s3://BUCKET/PREFIX (or, with --dry-run, print what would change); exit code."""
    env = os.environ if env is None else env
    site = record_site(args, env)
    s3 = client if client is not None else make_s3_client(args.endpoint_url)
    # An s3:// state elsewhere is read and written with the same client (and endpoint).
    refuse_state_elsewhere(config, s3, site)
    partitioned = open_partitioned(config, s3, site)  # (a sharded bucket's: in parallel)
    with live_line(sys.stderr, quiet=args.quiet) as progress:
        asked = RunAsked(dry_run=args.dry_run, progress=progress, outputs=OUTPUTS)
        report = rebuild_site(config, s3, site, asked, partitioned)
    writer = bucket_file_writer(s3, site)
    after_publishing(config, report, writer, asked)
    where = f"s3://{site.bucket}/{site.root}"
    if args.dry_run:
        print_preview(report, where, stdout)
    elif not args.quiet:
        print_report(report, where, stdout)
    return 0


def site_bucket(given: str | None, function: str | None, env: Mapping[str, str]) -> str:
    """The bucket ``sitemill s3`` rebuilds: --bucket, else SITEMILL_BUCKET (the stack's own
    with --function, which a different --bucket may not contradict)."""
    configured = env.get("SITEMILL_BUCKET", "").strip() or None
    if function and given and given != configured:
        raise ConfigError("bucket", f"{function} rebuilds {configured}, not {given}")
    bucket = given or configured
    if bucket is None:
        raise ConfigError("bucket", "give --bucket (or --function: the stack's function)")
    return bucket
