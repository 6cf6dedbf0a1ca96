"""Where a distributed rebuild's steps run: in this process, or on AWS Step Functions."""
# The Executor port: one interface, so that the same steps run anywhere. In this process on a thread
# pool (LocalExecutor: the same plan, items and reducer as the state machine), or on AWS Step
# Functions (StepFunctionsExecutor: one execution of the stack's state machine).

from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, Final, Protocol

from sitemill.errors import SinkError
from sitemill.robots.rules import RobotsRules
from sitemill.scaleout.distplan import DistributedRun, InventoryPlanner, RunRequest, plan_run
from sitemill.scaleout.distreduce import ReducedRun, reduce_run
from sitemill.scaleout.distshard import item_objects, render_item
from sitemill.scaleout.runfiles import Item, item_from_json

log = logging.getLogger(__name__)

# Step Functions keeps an execution's name for 90 days: the same name and input started
# again is the running execution, and a new one once it ended is refused (ExecutionAlreadyExists):
# https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html
_ALREADY: Final = "ExecutionAlreadyExists"
_ITEMS_LIMIT: Final = 64 * 1024 * 1024


class StatesClient(Protocol):
    """The one Step Functions call sitemill makes."""

    def start_execution(self, **kwargs: Any) -> Any: ...


def run_name(mode: str, what: Iterable[str], now: datetime) -> str:
    """A deterministic execution name: the mode, a digest of what asked for the run (a
    batch's message ids: SQS's redelivery of one batch starts nothing new) and the UTC
    minute (a rebuild asked for by hand twice in one minute is one run)."""
    return f"{mode}-{_code(what)}-{now.strftime('%Y%m%dT%H%MZ')}"


def next_run_name(run: str) -> str:
    """The name of the full run a superseded run ``run`` hands its pages on to: one per
    run (a retried reducer starts it once), unlike the name of any other run."""
    return f"next-{_code([run])}"


def _code(what: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=5)
    for part in sorted(what):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return base64.b32encode(digest.digest()).decode("ascii").lower()


class StepFunctionsExecutor:
    """Starts the stack's state machine with the execution input of docs/distributed.md (When it
    runs)."""

    def __init__(self, client: StatesClient, state_machine_arn: str) -> None:
        self.client = client
        self.arn = state_machine_arn

    def start(self, request: RunRequest) -> str:
        """The execution's ARN (the running one, when one of this name runs already)."""
        document: dict[str, Any] = {
            "bucket": request.bucket,
            "prefix": request.prefix,
            "mode": request.mode,
        }
        if request.mode == "shards":
            document["shards"] = list(request.shards)
        execution = self.arn.replace(":stateMachine:", ":execution:", 1) + ":" + request.run
        try:
            response = self.client.start_execution(
                stateMachineArn=self.arn,
                name=request.run,
                input=json.dumps(document, sort_keys=True, separators=(",", ":")),
            )
        except Exception as exc:  # botocore's ClientError, or a fake's
            code = getattr(exc, "response", {}).get("Error", {}).get("Code")
            if code == _ALREADY:
                log.info("execution %s was started already", request.run)
                return execution
            raise SinkError(f"cannot start the rebuild {request.run}: {exc}") from exc
        return str(response.get("executionArn", execution))


class LocalExecutor:
    """The steps of a distributed rebuild in this process: the plan, then each render item
    on a thread of its own (``threads`` at a time), then the reducer."""

    def __init__(
        self,
        run: DistributedRun,
        robots: RobotsRules | None,
        *,
        threads: int = 4,
        inventory: InventoryPlanner | None = None,
    ) -> None:
        """``inventory``: the planner of an S3 Inventory report (sitemill.scaleout.distshuffle),
        for a first build, as SITEMILL_INVENTORY gives the state machine one."""
        self.run = run
        self.robots = robots
        self.threads = threads
        self.inventory = inventory

    def execute(self, request: RunRequest, location: str = "") -> ReducedRun:
        """Run every step; ``location``: the inventory's (for its shuffle items)."""
        planned = plan_run(self.run, request, self.inventory)
        files = self.run.files(request.run)
        with ThreadPoolExecutor(max_workers=max(1, self.threads)) as pool:
            if planned["inventory"] is not None:
                from sitemill.scaleout.distshuffle import shuffle_item

                shuffles = _listed(files.get_json("inventory.json", limit=_ITEMS_LIMIT))
                list(pool.map(lambda event: shuffle_item(self.run, event, location), shuffles))
            items = [item_from_json(value) for value in _listed(files.get_json("shards.json"))]
            list(pool.map(self._render, items))
        return reduce_run(self.run, request.run)

    def _render(self, item: Item) -> None:
        render_item(self.run, item, item_objects(self.run, item), self.robots)


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []
