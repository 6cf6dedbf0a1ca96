"""The router's way out: a big bucket's full rebuild runs on the stack's state machine."""
# The execution is started with a deterministic name, instead of the rebuild running in the router
# itself (docs/distributed.md, When it runs).

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sitemill.aws.clients import make_states_client
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report

if TYPE_CHECKING:  # (the rebuild's modules load when one starts: not on every cold start)
    from sitemill.scaleout.executor import StatesClient


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
