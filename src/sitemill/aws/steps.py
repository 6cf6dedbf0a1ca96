"""The four functions of the distributed rebuild's state machine (infra/rebuild.asl.json)."""
# ``plan``, ``shuffle``, ``shard`` and ``reduce``, each a few lines around sitemill.jobs, configured
# by the same SITEMILL_* environment as the router. A failure is raised: the state machine retries
# what may pass on a second try (its Retry names the error types).

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from sitemill.aws._cloudfront import invalidate
from sitemill.aws._logs import LambdaSettings, function_env, redact_error
from sitemill.aws.clients import (
    CloudFrontClient,
    make_cloudfront_client,
    make_s3_client,
    make_states_client,
)
from sitemill.config.model import load_config
from sitemill.errors import ConfigError, SitemillError
from sitemill.jobs.afterpublish import after_publishing, bucket_file_writer
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.jobs.features import OUTPUTS
from sitemill.report import summary_counts
from sitemill.scaleout.distplan import DistributedRun, RunRequest, plan_run
from sitemill.scaleout.distreduce import reduce_run
from sitemill.scaleout.distshard import item_objects, render_item
from sitemill.scaleout.runfiles import item_from_json
from sitemill.scaleout.shardinputs import bucket_robots
from sitemill.urls import site_root_path

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.scaleout.executor import StatesClient

log = logging.getLogger("sitemill.lambda")

INVENTORY_ENV: Final = "SITEMILL_INVENTORY"


def _setup(
    env: Mapping[str, str] | None, s3: S3Client | None, bucket: str | None = None
) -> DistributedRun:
    env = function_env(env)
    settings = LambdaSettings.from_env(env)
    config = load_config({}, env)
    name = settings.site.bucket or bucket
    if name is None:
        raise ConfigError("bucket", "set SITEMILL_BUCKET")
    if bucket is not None and bucket != name:
        raise ConfigError("bucket", f"this stack rebuilds {name} (SITEMILL_BUCKET) only")
    client = s3 if s3 is not None else make_s3_client()
    site = settings.site.site(name)
    store = open_partitioned(config, client, site)
    if store is None:
        raise ConfigError(
            "state", "a distributed rebuild keeps a partitioned state: SITEMILL_STATE in a "
            "bucket of its own, with SITEMILL_SHARDS not off",
        )  # fmt: skip
    return DistributedRun(config, client, site, store, store.bucket, asked=RunAsked(OUTPUTS))


def _timed(step: str, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run one step; log its summary line (and an error's) with its duration."""
    started = time.monotonic()
    try:
        result = work()
    except Exception as exc:
        fields: dict[str, Any] = {"step": step, "status": "error"}
        fields["error"] = f"{type(exc).__name__}: {exc}"
        fields["duration_ms"] = round((time.monotonic() - started) * 1000)
        log.error("sitemill step failed", extra={"fields": fields})
        if not isinstance(exc, SitemillError):
            log.exception("%s failed", step)
        if redact_error(exc) is exc:
            raise
        raise redact_error(exc) from None  # (its text is the execution's error cause)
    fields = {"step": step, **result, "duration_ms": round((time.monotonic() - started) * 1000)}
    log.info("sitemill step", extra={"fields": fields})
    return result


def plan(event: Any, context: Any = None, *, env: Mapping[str, str] | None = None,
         s3: S3Client | None = None) -> dict[str, Any]:  # fmt: skip
    """``{"input": <execution input>, "run": <execution name>}`` -> the run's files."""
    payload = event if isinstance(event, dict) else {}
    source = payload.get("input")
    bucket = source.get("bucket") if isinstance(source, dict) else None
    run = _setup(env, s3, bucket if isinstance(bucket, str) else None)
    request = RunRequest.read(source, str(payload.get("run", "")))
    location = (os.environ if env is None else env).get(INVENTORY_ENV, "").strip()
    planner = None
    if location:  # (the inventory reader is imported only where it is used)
        from sitemill.scaleout.distshuffle import inventory_planner

        planner = inventory_planner(location)
    return _timed("plan", lambda: plan_run(run, request, planner))


def shuffle(event: Any, context: Any = None, *, env: Mapping[str, str] | None = None,
            s3: S3Client | None = None) -> dict[str, Any]:  # fmt: skip
    """One inventory data file -> its rows, routed to the groups' fragments."""
    from sitemill.scaleout.distshuffle import shuffle_item

    run = _setup(env, s3)
    location = (os.environ if env is None else env).get(INVENTORY_ENV, "").strip()
    return _timed("shuffle", lambda: shuffle_item(run, event, location))


def shard(event: Any, context: Any = None, *, env: Mapping[str, str] | None = None,
          s3: S3Client | None = None) -> dict[str, Any]:  # fmt: skip
    """One render item -> its shards' parts, states and summary (staged)."""
    run = _setup(env, s3)
    item = item_from_json(event)
    objects = item_objects(run, item)

    def work() -> dict[str, Any]:
        summary = render_item(
            run, item, objects, bucket_robots(run.config, run.client, run.site)[1]
        )
        return {"run": item.run, "item": item.shard, **summary["report"]}

    return _timed("shard", work)


def reduce(event: Any, context: Any = None, *, env: Mapping[str, str] | None = None,
           s3: S3Client | None = None, cloudfront: CloudFrontClient | None = None,
           states: StatesClient | None = None) -> dict[str, Any]:  # fmt: skip
    """The run's verdict: published (then invalidated, announced), or an error (a run
    superseded by another's commit starts the next one first: SITEMILL_STATE_MACHINE_ARN)."""
    env = os.environ if env is None else env
    run = _setup(env, s3)
    name = event.get("run") if isinstance(event, dict) else None
    if not isinstance(name, str):
        raise ConfigError("run", 'the reducer is given no "run"')
    hand_on = _hand_on(run, LambdaSettings.from_env(env).state_machine, states)
    return _timed("reduce", lambda: _reduce(run, name, env, cloudfront, hand_on))


def _hand_on(
    run: DistributedRun, machine: str | None, states: StatesClient | None
) -> Callable[[str], str] | None:
    """What starts the full run a superseded run hands its pages on to (its ARN)."""
    if machine is None:
        return None

    def start(superseded: str) -> str:
        from sitemill.scaleout.executor import StepFunctionsExecutor, next_run_name

        client = states if states is not None else make_states_client()
        request = RunRequest(next_run_name(superseded), run.site.bucket, run.site.prefix)
        return StepFunctionsExecutor(client, machine).start(request)

    return start


def _reduce(
    run: DistributedRun,
    name: str,
    env: Mapping[str, str],
    cloudfront: CloudFrontClient | None,
    hand_on: Callable[[str], str] | None,
) -> dict[str, Any]:
    reduced = reduce_run(run, name, hand_on)
    config, report = run.config, reduced.report
    result = dict(reduced.verdict)
    distribution = LambdaSettings.from_env(env).distribution_id
    if distribution and report.result.changed:
        make_client = make_cloudfront_client if cloudfront is None else lambda: cloudfront
        result["invalidation"] = invalidate(
            make_client,
            distribution,
            site_root_path(config.base_url),
            [*report.result.written, *report.result.deleted],
            None,
        )
    after_publishing(config, report, bucket_file_writer(run.client, run.site), run.asked)
    return result | summary_counts(report)  # (after sending: what was sent, what is pending)
