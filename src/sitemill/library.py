"""The library's front door: the public runs, writing every output feature the config turns on."""
# The runs of sitemill.jobs write only the output features their front end passes down (the core
# names none, docs/architecture.md). The CLI, the Action and the Lambda pass the list; this module
# is the front end of a program that calls `sitemill.build_from_tree` and friends, so that such a
# caller gets `sitemap.html` and llms.txt when its config turns them on, as the CLI does.

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sitemill.jobs import tree, urllist
from sitemill.jobs.features import OUTPUTS, URL_LIST_OUTPUTS
from sitemill.jobs.tree import TreeAsked

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.jobs.bucket import BucketSite
    from sitemill.outputs import OutputFeature
    from sitemill.report import Progress, Report
    from sitemill.sinks import Sink
    from sitemill.state.start import Previous
    from sitemill.state.store import StateStore

_EVERY_OUTPUT = TreeAsked(outputs=OUTPUTS)


def build_from_tree(
    config: Config,
    site_dir: Path,
    sink: Sink,
    *,
    progress: Progress | None = None,
    output_dir: Path | None = None,
    state_store: StateStore | None = None,
    previous: Previous | None = None,
    asked: TreeAsked = _EVERY_OUTPUT,
) -> Report:
    """sitemill.jobs.tree.build_tree, asking every output feature unless ``asked`` says."""
    return tree.build_tree(
        config,
        site_dir,
        sink,
        progress=progress,
        output_dir=output_dir,
        state_store=state_store,
        previous=previous,
        asked=asked,
    )


def build_from_url_list(
    config: Config,
    lines: Iterable[str] | BinaryIO,
    sink: Sink,
    *,
    name: str = "-",
    progress: Progress | None = None,
    size_hint: int | None = None,
    outputs: Sequence[OutputFeature] = URL_LIST_OUTPUTS,
) -> Report:
    """sitemill.jobs.urllist.build_url_list, with the URL list's outputs by default."""
    return urllist.build_url_list(
        config, lines, sink, name=name, progress=progress, size_hint=size_hint, outputs=outputs
    )


def rebuild_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    state_store: StateStore | None = None,
    previous: Previous | None = None,
    outputs: Sequence[OutputFeature] = OUTPUTS,
) -> Report:
    """sitemill.jobs.bucket.build_bucket, asking every output feature by default."""
    from sitemill.jobs import bucket  # (botocore: loaded for a bucket's run alone)

    return bucket.build_bucket(
        config,
        client,
        site,
        dry_run=dry_run,
        progress=progress,
        state_store=state_store,
        previous=previous,
        outputs=outputs,
    )
