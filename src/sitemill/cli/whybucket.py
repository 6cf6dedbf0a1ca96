"""`sitemill why PAGE --bucket NAME`: a bucket page's date and its evidence, from a dry run."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from sitemill.cli.options import config_from_args
from sitemill.cli.output import say
from sitemill.cli.usage import EXIT_INVALID, require_s3_extra
from sitemill.cli.whylines import why_code, why_lines
from sitemill.errors import ConfigError

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.jobs.bucketsite import BucketSite
    from sitemill.state.start import Start


def run_bucket_why(args: argparse.Namespace, env: dict[str, str]) -> int:
    """Run the bucket job's reading and dating dry (nothing is written to the bucket), and
    print what it decided for PAGE: a key under the prefix, or a URL under the base URL."""
    if args.site_dir is not None or args.out is not None:
        raise ConfigError("bucket", "give a SITE_DIR (and --out) or --bucket, not both")
    require_s3_extra()  # (before sitemill.aws, whose modules import botocore)
    from sitemill.aws.clients import make_s3_client
    from sitemill.cli.s3function import stack_state_elsewhere
    from sitemill.jobs.bucketsite import BucketSettings
    from sitemill.jobs.bucketwhy import explain_bucket_page
    from sitemill.jobs.treewhy import site_path
    from sitemill.state.previous import open_previous
    from sitemill.state.store import open_state_store

    config = config_from_args(args, env)
    name = site_path(args.page, config.base_url)
    if name is None:
        say(sys.stdout, f"{args.page} is not under the base URL {config.base_url}")
        return EXIT_INVALID
    site = BucketSettings.read(env, bucket=args.bucket, prefix=args.prefix).site(args.bucket)
    s3 = make_s3_client(args.endpoint_url)
    elsewhere = stack_state_elsewhere(config, s3, site)
    if elsewhere is not None:  # (the dates the stack keeps are not where this run looks)
        raise ConfigError("state", elsewhere)
    store = open_state_store(config, s3_client=lambda: s3)
    begun = partitioned_start(config, s3, site)
    why = explain_bucket_page(
        config, s3, site, name, state_store=store, previous=open_previous(config), begun=begun
    )
    for line in why_lines(why, args.page):
        say(sys.stdout, line)
    return why_code(why)


def partitioned_start(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[Start, str] | None:
    """The state a rebuild starts from when it is kept in parts (every shard's pages in one),
    and where it was read; None: the state is one object."""
    from sitemill.scaleout.partitioned import DEFAULT_THREADS
    from sitemill.scaleout.partitionedstore import open_partitioned
    from sitemill.scaleout.shardfull import merged_start

    store = open_partitioned(config, client, site)
    if store is None:
        return None
    plan = store.read_manifest().plan
    start, _ = merged_start(store, plan, config.workers or DEFAULT_THREADS)
    legacy = store.legacy
    return start, store.where if plan is not None or legacy is None else legacy.where
