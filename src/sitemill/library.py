"""The library's front door: the public runs, writing every output feature the config turns on."""
# The runs of sitemill.jobs write only the output features their front end passes down (the core
# names none, docs/architecture.md). The CLI, the Action and the Lambda pass the list; this module
# is the front end of a program that calls `sitemill.build_from_tree` and friends, so that such a
# caller gets `sitemap.html`, llms.txt and IndexNow's pending list when its config turns them on,
# as the CLI does.

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Final

from sitemill.jobs import tree, urllist
from sitemill.jobs.features import OUTPUTS, URL_LIST_OUTPUTS
from sitemill.jobs.tree import TreeAsked

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.jobs.bucket import BucketSite
    from sitemill.outputs import OutputFeature
    from sitemill.report import Progress, Report
    from sitemill.state.start import Previous
    from sitemill.state.store import StateStore

# The tree's and the URL list's runs, with every output feature asked unless the caller says.
build_from_tree: Final = partial(tree.build_tree, asked=TreeAsked(outputs=OUTPUTS))
build_from_url_list: Final = partial(urllist.build_url_list, outputs=URL_LIST_OUTPUTS)


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
