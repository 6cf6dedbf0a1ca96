"""`{"action": "diff"}`: what the bucket's next rebuild would add, change and remove."""
# The rebuild as a dry run from the stack's state (jobs.bucketdiff): nothing is written, not the
# state either. The answer is the change report's JSON (diff.model.diff_to_json) with each list
# bounded to MAX_LISTED items, first in URL order; the counts are always every URL's. A
# partitioned state (a sharded site of the stack) is refused in one line: its dry run would
# have to assemble every shard's state. A malformed event or a failure is status "error" and
# one line, never a traceback in the answer.

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from sitemill.aws.clients import make_s3_client
from sitemill.aws.events import own_bucket
from sitemill.aws.logs import configure_logging, register_env_secrets
from sitemill.aws.settings import LambdaSettings, lambda_config
from sitemill.diff.model import diff_to_json
from sitemill.errors import EventError, SitemillError
from sitemill.jobs.bucketdiff import diff_bucket
from sitemill.messages import shown
from sitemill.scaleout.partitionedstore import open_partitioned
from sitemill.state.previous import open_previous
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)
_KEYS: Final = frozenset({"action", "bucket"})
# Items of each list (added, changed, removed) an answer holds at most: a Lambda's answer is
# 6 MB at most, and a restructure of a large site removes tens of thousands of URLs.
MAX_LISTED: Final = 1_000
PARTITIONED: Final = (
    "the diff of a partitioned (sharded) state is not supported yet: its dry run would read "
    "every shard's state; preview the rebuild with `sitemill s3 --function <name> --dry-run`"
)


def handle_diff(
    event: Mapping[str, Any],
    context: object = None,
    *,
    env: Mapping[str, str] | None = None,
    s3: S3Client | None = None,
) -> dict[str, Any]:
    """The change report of the function's bucket against its state (status ok or error)."""
    env = os.environ if env is None else env
    configure_logging(env.get("SITEMILL_LOG_LEVEL", "INFO"))
    register_env_secrets(env)
    try:
        _read(event)
        settings, config = LambdaSettings.from_env(env), lambda_config(env)
        bucket = own_bucket(event, settings.site.bucket, "diffs")
        client = s3 if s3 is not None else make_s3_client()
        site = settings.site.site(bucket)
        if open_partitioned(config, client, site) is not None:
            raise EventError(PARTITIONED)
        store = open_state_store(config, s3_client=lambda: client)
        found = diff_bucket(config, client, site, state_store=store, previous=open_previous(config))
    except SitemillError as exc:
        failed = {"status": "error", "error": shown(str(exc))}
        log.error("%s", json.dumps(failed))
        return failed
    report = diff_to_json(found.diff)
    answer: dict[str, Any] = {"status": "ok", "bucket": bucket, **bounded(report)}
    answer["requests"] = dict(sorted(found.report.requests.items()))
    if found.report.warnings:
        answer["warnings"] = found.report.warnings[:20]
    log.info("%s", json.dumps({"status": "ok", "bucket": bucket, "counts": report["counts"]}))
    return answer


def bounded(report: dict[str, Any]) -> dict[str, Any]:
    """The report with each list cut to its first MAX_LISTED items (``listed_at_most`` says
    so when one was cut; ``counts`` are every URL's)."""
    lists = ("added", "changed", "removed")
    cut = {name: report[name][:MAX_LISTED] for name in lists}
    if any(len(report[name]) > MAX_LISTED for name in lists):
        cut["listed_at_most"] = MAX_LISTED
    return report | cut


def _read(event: Mapping[str, Any]) -> None:
    unknown = sorted(set(event) - _KEYS)
    if unknown:
        raise EventError(f"unknown key {unknown[0]!r} in a diff event (known: action, bucket)")
    if "bucket" in event and not isinstance(event["bucket"], str):
        raise EventError('"bucket" must be a bucket name')
