"""The Lambda's router: an event in, at most one rebuild (aws/rebuild.py), a JSON summary out."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from sitemill.aws._logs import (
    LambdaSettings,
    function_env,
    lambda_config,
    log_summary,
    redact_error,
)
from sitemill.aws._selection import Selection, affects_sitemaps, choose_bucket, select_changes
from sitemill.aws.clients import CloudFrontClient, make_s3_client
from sitemill.aws.events import Trigger, parse_event, unreadable_batch
from sitemill.config.model import Config
from sitemill.errors import EventError, SitemillError
from sitemill.filenames.outputs import normalize_prefix
from sitemill.jobs.bucketsite import BUCKET_ENV
from sitemill.messages import shown

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
    env = function_env(env)
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
        if redact_error(failure) is failure:
            raise failure
        raise redact_error(failure) from None
    if trigger is not None and trigger.from_sqs:
        failed = trigger.message_ids if summary["status"] == "error" else trigger.bad_messages
        summary["batchItemFailures"] = [{"itemIdentifier": message_id} for message_id in failed]
    return summary


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
    for message_id, why in trigger.bad_messages.items():
        log.error("SQS message %s cannot be read: %s", message_id, why)
    if trigger.bad_messages and not trigger.readable_messages:
        # Nothing readable is left: an error (the messages go back, then to the dead-letter
        # queue), not a batch that merely asked for nothing.
        return {"status": "error", "error": unreadable_batch(trigger.bad_messages)}
    settings = LambdaSettings.from_env(env)
    config = lambda_config(env)
    selection = _select(trigger, settings, config, clients[0])
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
    # Imported here: an event that asks for no rebuild (most are sitemill's own writes
    # coming back) starts without the pipeline.
    from sitemill.aws.rebuild import rebuild_chosen

    setup = (settings, config)
    return base | rebuild_chosen(bucket, trigger, selection, setup, clients, request_id)


def _select(
    trigger: Trigger, settings: LambdaSettings, config: Config, s3: S3Client | None
) -> Selection:
    """The changes that ask for a rebuild; a notified write of one of sitemill's sitemap
    files does when its bytes are not the ones sitemill published (sitemill.aws._overwritten)."""
    selection = select_changes(
        trigger.changes,
        bucket=settings.site.bucket,
        root=normalize_prefix(settings.site.prefix),
        affects_sitemaps=lambda path: affects_sitemaps(config, path),
    )
    if selection.own_written and not trigger.rebuild:
        from sitemill.aws._overwritten import restore_overwritten  # (only for these)

        make_s3 = (lambda: s3) if s3 is not None else make_s3_client
        restore_overwritten(config, selection, make_s3, settings.site.site)
    return selection
