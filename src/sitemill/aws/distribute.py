"""The router's way out (scale-out.md): a full rebuild of a big bucket runs on the stack's
state machine, started with a deterministic name, instead of in the router itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sitemill.aws.clients import make_states_client
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report

if TYPE_CHECKING:  # (the rebuild's modules load when one starts: not on every cold start)
    from sitemill.jobs.executor import StatesClient


def distributor(
    state_machine: str | None,
    site: BucketSite,
    asked_by: Sequence[str],
    states: StatesClient | None = None,
) -> Callable[[], str] | None:
    """What starts the distributed full rebuild of ``site`` (None without a state machine).
    ``asked_by``: the SQS message ids of the batch (none: a rebuild asked for by hand)."""
    if state_machine is None:
        return None

    def start() -> str:
        from sitemill.jobs.distplan import RunRequest
        from sitemill.jobs.executor import StepFunctionsExecutor, run_name

        client = states if states is not None else make_states_client()
        name = run_name("full", asked_by or ("rebuild",), datetime.now(UTC))
        request = RunRequest(name, site.bucket, site.prefix)
        return StepFunctionsExecutor(client, state_machine).start(request)

    return start


def started_answer(report: Report) -> dict[str, Any]:
    """The answer of a run that handed the rebuild to the state machine: no counts of a
    rebuild that has not happened yet, but the execution, and why."""
    execution = report.execution or ""
    return {
        "status": "started",
        "execution": execution,
        "execution_name": execution.rsplit(":", 1)[-1],
        "why": f"a distributed rebuild on Step Functions: {report.distributed}",
        "requests": dict(sorted(report.requests.items())),
    }
