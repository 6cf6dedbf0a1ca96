"""The router's rebuild of the bucket it chose: run, invalidate, announce, count."""
# Imported by sitemill.aws.handler only once an event asks for a rebuild: the events that ask
# for none (most are sitemill's own writes coming back) start without the pipeline. A rebuild
# imports the partitioned state's rebuild and CloudFront's invalidation only when it uses them.
# A big bucket's full rebuild runs on the stack's state machine instead (Distributor): the
# execution is started with a deterministic name (docs/distributed.md, When it runs).

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sitemill.aws._logs import LambdaSettings
from sitemill.aws._selection import Selection
from sitemill.aws.clients import (
    CloudFrontClient,
    make_cloudfront_client,
    make_s3_client,
    make_states_client,
)
from sitemill.aws.events import Trigger
from sitemill.config.model import Config
from sitemill.jobs.afterpublish import after_publishing, bucket_file_writer
from sitemill.jobs.bucket import BucketSite, build_bucket
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.jobs.features import OUTPUTS
from sitemill.report import Report, summary_counts
from sitemill.scaleout.bucketrun import RunAsked, rebuild_site
from sitemill.urls import site_root_path

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.scaleout.executor import StatesClient


def rebuild_chosen(
    bucket: str,
    trigger: Trigger,
    selection: Selection,
    setup: tuple[LambdaSettings, Config],
    clients: tuple[S3Client | None, CloudFrontClient | None, StatesClient | None],
    request_id: str | None,
) -> dict[str, Any]:
    """Rebuild ``bucket`` (or start the distributed rebuild); the summary's counts."""
    settings, config = setup
    s3, cloudfront, states = clients
    site = settings.site.site(bucket)
    client = s3 if s3 is not None else make_s3_client()
    distribute = None
    if settings.state_machine is not None:  # (the stack's distributed rebuild)
        distribute = Distributor(settings.state_machine, site, trigger.message_ids, states)
    asked = RunAsked(
        changed=None if trigger.rebuild else selection.paths,
        deleted=[*selection.own_deleted, *selection.own_replaced],
        dry_run=trigger.dry_run,
        distribute=distribute,
        outputs=OUTPUTS,
    )
    report = _rebuild(config, client, site, asked)
    if report.execution is not None:
        return started_answer(report, distribute.why if distribute else "")
    result = summary_counts(report, dry_run=trigger.dry_run)
    if report.diff is not None:  # (what it took out of the sitemaps: none on a first run)
        from sitemill.jobs.removedpages import removed_summary

        result |= removed_summary(report.diff.removed)
    if trigger.dry_run:
        result |= {
            "dry_run": True,
            "would_write": report.result.written,
            "would_delete": report.result.deleted,
        }
    elif settings.distribution_id and report.result.changed:
        from sitemill.aws._cloudfront import invalidate

        make_client = make_cloudfront_client if cloudfront is None else lambda: cloudfront
        result["invalidation"] = invalidate(
            make_client,
            settings.distribution_id,
            site_root_path(config.base_url),
            [*report.result.written, *report.result.deleted],
            request_id,
        )
    # The pages are live once uploaded, the sitemaps once invalidated: now announce.
    after_publishing(config, report, bucket_file_writer(client, site), asked)
    if report.indexnow is not None:
        result["indexnow"] = report.indexnow.counts()
    return result


def _rebuild(config: Config, client: S3Client, site: BucketSite, asked: RunAsked) -> Report:
    """The rebuild the trigger ``asked`` for (its changed keys, sitemill's own files deleted
    or replaced, a dry run, a distributed rebuild to start). SITEMILL_STATE (the stack's
    private state bucket) is read and written with this client; partitioned there when the
    sitemaps may be shards: then the changed keys go to their shards (docs/s3-lambda.md,
    Sharded buckets). A deletion of sitemill's own file, or its replacement by other bytes, is
    a full rebuild when the manifest names it (the router tells); its own retired files'
    deletions change nothing."""
    partitioned = open_partitioned(config, client, site)
    # (the bucket job by this module's name for it, which a test may wrap to count the rebuilds)
    return rebuild_site(config, client, site, asked, partitioned, job=build_bucket)


class Distributor:
    """Starts the distributed full rebuild of a site on the stack's state machine, with a
    deterministic name; remembers why it was asked to (for the answer)."""

    def __init__(
        self,
        state_machine: str,
        site: BucketSite,
        asked_by: Sequence[str],
        states: StatesClient | None = None,
    ) -> None:
        """``asked_by``: the SQS message ids of the batch (none: a rebuild asked for by hand)."""
        self.state_machine, self.site, self.asked_by, self.states = (
            state_machine, site, asked_by, states
        )  # fmt: skip
        self.why = ""

    def __call__(self, why: str) -> str:
        """Start it (``why``: the site does not fit the function); the execution's ARN."""
        from sitemill.scaleout.distplan import RunRequest
        from sitemill.scaleout.executor import StepFunctionsExecutor, run_name

        self.why = why
        client = self.states if self.states is not None else make_states_client()
        name = run_name("full", self.asked_by or ("rebuild",), datetime.now(UTC))
        request = RunRequest(name, self.site.bucket, self.site.prefix)
        return StepFunctionsExecutor(client, self.state_machine).start(request)


def started_answer(report: Report, why: str) -> dict[str, Any]:
    """The answer of a run that handed the rebuild to the state machine: no counts of a
    rebuild that has not happened yet, but the execution, and why."""
    execution = report.execution or ""
    return {
        "status": "started",
        "execution": execution,
        "execution_name": execution.rsplit(":", 1)[-1],
        "why": f"a distributed rebuild on Step Functions: {why}",
        "requests": dict(sorted(report.requests.items())),
    }
