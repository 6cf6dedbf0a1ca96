"""The library's front door: the public runs, writing every output feature the config turns on."""
# The runs of sitemill.jobs write only the output features their front end passes down; this is the
# front end of a program that calls `sitemill.build_from_tree` and friends: it passes every feature
# (jobs.features), as the CLI does, and makes what the caller asks one RunAsked.

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final

from sitemill.jobs import tree, urllist
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS, URL_LIST_OUTPUTS

if TYPE_CHECKING:
    from pathlib import Path

    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.jobs.bucketsite import BucketSite
    from sitemill.report import Report
    from sitemill.sinks import Sink

build_from_url_list: Final = partial(urllist.build_url_list, outputs=URL_LIST_OUTPUTS)


def build_from_tree(
    config: Config, site_dir: Path, sink: Sink, *, output_dir: Path | None = None, **asked: Any
) -> Report:
    """sitemill.jobs.tree.build_tree as ``asked`` (RunAsked's fields, by name), with every
    output feature unless it lists others."""
    return tree.build_tree(config, site_dir, sink, asked_with_outputs(asked), output_dir=output_dir)


def rebuild_bucket(config: Config, client: S3Client, site: BucketSite, **asked: Any) -> Report:
    """sitemill.jobs.bucket.build_bucket as ``asked`` (RunAsked's fields, by name), with every
    output feature unless it lists others (botocore loads here, for a bucket's run alone)."""
    from sitemill.jobs import bucket

    return bucket.build_bucket(config, client, site, asked_with_outputs(asked))


def asked_with_outputs(asked: dict[str, Any]) -> RunAsked:
    """RunAsked of ``asked``'s fields, with every output feature unless it names others."""
    return RunAsked(**{"outputs": OUTPUTS, **asked})
