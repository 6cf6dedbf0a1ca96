"""The Lambda's logic: an event in, at most one rebuild, a JSON summary out."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sitemill.aws.clients import CloudFrontClient, make_cloudfront_client, make_s3_client
from sitemill.aws.cloudfront import invalidate
from sitemill.aws.distribute import distributor, started_answer
from sitemill.aws.events import Trigger, parse_event, unreadable_batch
from sitemill.aws.logs import configure_logging, log_summary, redacted, register_env_secrets
from sitemill.aws.overwritten import restore_overwritten
from sitemill.aws.selection import Selection, affects_sitemaps, choose_bucket, select_changes
from sitemill.config.model import Config, env_name, load_config
from sitemill.errors import ConfigError, EventError, SitemillError
from sitemill.jobs.afterpublish import after_publishing
from sitemill.jobs.bucket import BucketSettings, BucketSite, rebuild_bucket
from sitemill.jobs.bucketkey import bucket_file_writer
from sitemill.jobs.bucketsite import BUCKET_ENV
from sitemill.messages import shown
from sitemill.report import Report, summary_counts
from sitemill.scaleout.partitioned import DEFAULT_THREADS, open_partitioned, rebuild_partitioned
from sitemill.sources.s3 import normalize_prefix
from sitemill.state.previous import open_previous
from sitemill.state.store import open_state_store
from sitemill.urls import site_root_path

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.scaleout.executor import StatesClient

log = logging.getLogger("sitemill.lambda")

_EMPTY_SUMMARY: Final[Mapping[str, Any]] = {
    "status": "ok",
    "bucket": None,
    "urls": 0,
    "sitemaps": 0,
    "written": 0,
    "unchanged": 0,
    "deleted": 0,
    "pages_read": 0,
    "pages_reused": 0,
    "state": "unchanged",
    "dates": {},
}

# What a run that started the distributed rebuild instead does not answer.
_RUN_COUNTS: Final = frozenset(_EMPTY_SUMMARY) - {"status", "bucket"}


@dataclass(frozen=True, slots=True)
class LambdaSettings:
    """The Lambda's own SITEMILL_* variables (the sitemap options are in Config)."""

    site: BucketSettings  # SITEMILL_BUCKET, _PREFIX, _CACHE_CONTROL
    distribution_id: str | None
    state_machine: str | None = None  # the distributed rebuild's (infra/rebuild.asl.json)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LambdaSettings:
        """Read the bucket settings, SITEMILL_CLOUDFRONT_DISTRIBUTION_ID and
        SITEMILL_STATE_MACHINE_ARN."""
        return cls(
            site=BucketSettings.read(env),
            distribution_id=env.get("SITEMILL_CLOUDFRONT_DISTRIBUTION_ID", "").strip() or None,
            state_machine=env.get("SITEMILL_STATE_MACHINE_ARN", "").strip() or None,
        )


def handle(
    event: object,
    context: object = None,
    *,
    env: Mapping[str, str] | None = None,
    s3: S3Client | None = None,
    cloudfront: CloudFrontClient | None = None,
    states: StatesClient | None = None,
) -> dict[str, Any]:
    """Handle one invocation; clients are built on first use unless given (tests give moto's).

    SQS batches: on failure every message is returned in ``batchItemFailures`` (retried, then
    dead-lettered); a message that cannot be read is returned alone, and a batch with no
    readable message is an error. Direct invocations raise.
    """
    env = os.environ if env is None else env
    configure_logging(env.get("SITEMILL_LOG_LEVEL", "INFO"))
    register_env_secrets(env)
    started = time.monotonic()
    request_id = str(getattr(context, "aws_request_id", "")) or None
    summary: dict[str, Any] = dict(_EMPTY_SUMMARY)
    trigger: Trigger | None = None
    failure: Exception | None = None
    try:
        trigger = parse_event(event)
        summary.update(_run(trigger, env, (s3, cloudfront, states), request_id))
        if summary["status"] == "started":  # (the counts are the execution's own)
            summary = {key: value for key, value in summary.items() if key not in _RUN_COUNTS}
    except EventError as exc:
        # Malformed: retrying cannot help, so say why and return. An SQS batch whose
        # messages cannot even be told apart is raised, so that nothing is dropped.
        summary.update(status="error", error=f"malformed event: {exc}")
        failure = exc if _looks_like_sqs(event) else None
    except Exception as exc:
        if isinstance(exc, SitemillError):
            summary.update(status="error", error=shown(str(exc)))
        else:
            summary.update(status="error", error=shown(f"unexpected {type(exc).__name__}: {exc}"))
            log.exception("rebuild failed")
        # SQS: the messages go back to the queue (below). Direct: the caller sees the error.
        failure = exc if trigger is None or not trigger.from_sqs else None
    if summary["bucket"] is None:  # (failed before _run said, or nothing to rebuild)
        named = env.get(BUCKET_ENV, "").strip() or None
        summary["bucket"] = named or (trigger.named_bucket if trigger is not None else None)
    if summary["bucket"] is None:  # (no bucket to name: the key is left out, never null)
        del summary["bucket"]
    level = logging.ERROR if summary["status"] == "error" else logging.INFO
    log_summary(summary, trigger, started, request_id, level)
    if failure is not None:
        if redacted(failure) is failure:
            raise failure
        raise redacted(failure) from None
    if trigger is not None and trigger.from_sqs:
        failed = trigger.message_ids if summary["status"] == "error" else trigger.bad_messages
        summary["batchItemFailures"] = [{"itemIdentifier": message_id} for message_id in failed]
    return summary


def lambda_config(env: Mapping[str, str]) -> Config:
    """The function's Config; a missing base URL names the stack's parameter (no flags here)."""
    if not env.get(env_name("base_url"), "").strip():
        raise ConfigError(
            "base_url",
            "is required: set the stack's BaseUrl parameter (the function's SITEMILL_BASE_URL)",
        )
    return load_config({}, env)


def _looks_like_sqs(event: object) -> bool:
    records = event.get("Records") if isinstance(event, Mapping) else None
    return isinstance(records, list) and any(
        isinstance(record, Mapping) and record.get("eventSource") == "aws:sqs" for record in records
    )


def _run(
    trigger: Trigger,
    env: Mapping[str, str],
    clients: tuple[S3Client | None, CloudFrontClient | None, StatesClient | None],
    request_id: str | None,
) -> dict[str, Any]:
    s3, cloudfront, states = clients
    for message_id, why in trigger.bad_messages.items():
        log.error("SQS message %s cannot be read: %s", message_id, why)
    if trigger.bad_messages and not trigger.readable_messages:
        # Nothing readable is left: an error (the messages go back, then to the dead-letter
        # queue), not a batch that merely asked for nothing.
        return {"status": "error", "error": unreadable_batch(trigger.bad_messages)}
    settings = LambdaSettings.from_env(env)
    config = lambda_config(env)
    selection = _select(trigger, settings, config, s3)
    bucket = choose_bucket(trigger, settings.site.bucket, selection)
    base: dict[str, Any] = {"bucket": bucket, "relevant": selection.relevant}
    if selection.sitemap_deletions:
        base["sitemap_deletions"] = selection.sitemap_deletions
    if selection.own_replaced:
        base["sitemaps_replaced"] = len(selection.own_replaced)
    ignored = trigger.ignored + selection.ignored
    if ignored:
        base["ignored"] = dict(ignored)
    if bucket is None:
        return {**base, "status": "skipped"}
    site = settings.site.site(bucket)
    client = s3 if s3 is not None else make_s3_client()
    distribute = distributor(settings.state_machine, site, trigger.message_ids, states)
    report = _rebuild(config, client, site, trigger, selection, distribute)
    if report.execution is not None:
        return base | started_answer(report, distribute.why if distribute else "")
    result = base | summary_counts(report, dry_run=trigger.dry_run)
    if trigger.dry_run:
        result |= {
            "dry_run": True,
            "would_write": report.result.written,
            "would_delete": report.result.deleted,
        }
    elif settings.distribution_id and report.result.changed:
        make_client = make_cloudfront_client if cloudfront is None else lambda: cloudfront
        result["invalidation"] = invalidate(
            make_client,
            settings.distribution_id,
            site_root_path(config.base_url),
            [*report.result.written, *report.result.deleted],
            request_id,
        )
    # The pages are live once uploaded, the sitemaps once invalidated: now announce.
    after_publishing(config, report, bucket_file_writer(client, site), dry_run=trigger.dry_run)
    if report.indexnow is not None:
        result["indexnow"] = report.indexnow.counts()
    return result


def _select(
    trigger: Trigger, settings: LambdaSettings, config: Config, s3: S3Client | None
) -> Selection:
    """The changes that ask for a rebuild; a notified write of one of sitemill's sitemap
    files does when its bytes are not the ones sitemill published (sitemill.aws.overwritten)."""
    selection = select_changes(
        trigger.changes,
        bucket=settings.site.bucket,
        root=normalize_prefix(settings.site.prefix),
        affects_sitemaps=lambda path: affects_sitemaps(config, path),
    )
    if selection.own_written and not trigger.rebuild:
        make_s3 = (lambda: s3) if s3 is not None else make_s3_client
        restore_overwritten(config, selection, make_s3, settings.site.site)
    return selection


def _rebuild(
    config: Config,
    client: S3Client,
    site: BucketSite,
    trigger: Trigger,
    selection: Selection,
    distribute: Callable[[str], str] | None,
) -> Report:
    """The rebuild the trigger asks for. SITEMILL_STATE (the stack's private state bucket) is
    read and written with this client; partitioned there when the sitemaps may be shards:
    then the changed keys go to their shards (docs/s3-lambda.md, Sharded buckets)."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        # A deletion of sitemill's own file, or its replacement by other bytes, is a full
        # rebuild when the manifest names it (the router tells); its own retired files'
        # deletions change nothing.
        return rebuild_partitioned(
            config,
            client,
            site,
            partitioned,
            changed=None if trigger.rebuild else selection.paths,
            deleted=[*selection.own_deleted, *selection.own_replaced],
            dry_run=trigger.dry_run,
            threads=config.workers or DEFAULT_THREADS,
            distribute=distribute,
        )
    return rebuild_bucket(
        config,
        client,
        site,
        dry_run=trigger.dry_run,
        state_store=open_state_store(config, s3_client=lambda: client),
        previous=open_previous(config),
    )
