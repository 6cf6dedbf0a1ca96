"""The diff of a bucket: its rebuild as a dry run, compared with the state it starts from."""
# The same as jobs.treediff for a site directory: the ordinary rebuild (the same pages, the same
# dates) with nothing written, not the state either; the rebuild itself compares the state it
# would write with the one it started from (jobs.bucketremoved), asking the bucket only where a
# removed URL leads. A partitioned state (the stack's sharded sites) is not this job's: its full
# rebuild makes the same report (scaleout.shardfull), which the front end asks for (aws.diff).

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.diff.model import SiteDiff
from sitemill.errors import DiffError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite, rebuild_bucket
from sitemill.report import Report
from sitemill.state.start import Previous
from sitemill.state.store import StateStore

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


@dataclass(frozen=True)
class BucketDiff:
    """A bucket's change report and the dry run that made it (its requests, its warnings)."""

    diff: SiteDiff
    report: Report


def diff_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    *,
    state_store: StateStore | None = None,
    previous: Previous | None = None,
) -> BucketDiff:
    """The change report of ``site``'s objects against its state (``state_store``, default
    beside the sitemaps; ``previous`` when it holds none): nothing is written."""
    report = rebuild_bucket(
        config, client, site, dry_run=True, state_store=state_store, previous=previous
    )
    if report.diff is None:
        place = state_store.where if state_store else f"s3://{site.bucket}/{site.root}{STATE_NAME}"
        raise DiffError(f"no state to compare with at {place}")
    return BucketDiff(report.diff, report)
