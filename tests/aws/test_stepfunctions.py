"""The distributed rebuild on the real state machine (infra/rebuild.asl.json), executed by
moto's Step Functions parser, with the four functions run in-process (moto's Lambda without
Docker is patched to call sitemill.aws.steps). moto lets a Distributed Map end well when a
child failed, so every check reads the reducer's verdict, never the execution's status."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.awslambda_simple.models import LambdaSimpleBackend
from moto.core import DEFAULT_ACCOUNT_ID as ACCOUNT_ID
from moto.s3.models import s3_backends
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

from s3util import BASE, BUCKET, PAGE, restored_logging
from sitemill.aws import steps
from sitemill.aws.handler import handle
from sitemill.config.model import load_config
from sitemill.errors import SourceError
from sitemill.jobs.bucketsite import BucketSite
from sitemill.jobs.distplan import DistributedRun, RunRequest
from sitemill.jobs.executor import LocalExecutor, StepFunctionsExecutor
from sitemill.jobs.partitioned import open_partitioned
from xsd import assert_xsd_valid

ASL = Path(__file__).resolve().parents[2] / "infra" / "rebuild.asl.json"
STATE_BUCKET = "state-bucket"
STATE = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
REGION = "us-east-1"
S3_PARTITION = "aws"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PAGES = 600
ENV = {
    "SITEMILL_BUCKET": BUCKET,
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_STATE": STATE,
    "SITEMILL_SHARDS": "on",
    "SITEMILL_SHARD_FILL": "24",
    "SITEMILL_LOG_LEVEL": "WARNING",
}

Fault = Callable[[str, dict[str, Any]], None]


class Stack:
    """moto's S3, Lambda and Step Functions with the stack's state machine in them."""

    def __init__(self) -> None:
        self.s3 = boto3.client("s3", region_name=REGION)
        self.states = boto3.client("stepfunctions", region_name=REGION)
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.fault: Fault | None = None
        iam = boto3.client("iam", region_name=REGION)
        role = iam.create_role(RoleName="sitemill", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        lam = boto3.client("lambda", region_name=REGION)
        text = ASL.read_text(encoding="utf-8")
        for name in ("plan", "shuffle", "shard", "reduce"):
            arn = lam.create_function(
                FunctionName=name, Runtime="python3.12", Role=role, Handler=f"handler.{name}",
                Code={"ZipFile": b"in-process"},
            )["FunctionArn"]  # fmt: skip
            text = text.replace("${" + name.capitalize() + "FunctionArn}", arn)
        self.machine = self.states.create_state_machine(
            name="sitemill-rebuild", definition=text, roleArn=role
        )["stateMachineArn"]

    def invoke(self, name: str, event: dict[str, Any]) -> Any:
        """One function's invocation, in this process (what the patched Lambda calls)."""
        self.calls.append((name, event))
        if self.fault is not None:
            self.fault(name, event)
        return getattr(steps, name)(event, env=ENV, s3=self.s3)

    def execute(self, name: str, document: dict[str, Any]) -> dict[str, Any]:
        started = self.states.start_execution(
            stateMachineArn=self.machine, name=name, input=json.dumps(document)
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            described = self.states.describe_execution(executionArn=started["executionArn"])
            if described["status"] != "RUNNING":
                return described
            time.sleep(0.05)
        raise AssertionError("the execution did not end")

    def verdict(self, run: str) -> dict[str, Any] | None:
        key = f"site/sitemill-state/runs/{run}/verdict.json"
        try:
            return json.loads(self.s3.get_object(Bucket=STATE_BUCKET, Key=key)["Body"].read())
        except ClientError:
            return None


@pytest.fixture(scope="module")
def built() -> Iterator[Stack]:
    """One stack for the module (its first full run reads every page's head; later runs
    read none): each test starts runs of its own names."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
            patch.setenv(name, "testing")
        patch.setenv("AWS_DEFAULT_REGION", REGION)

        class _NoWait:  # the Retry's jittered waits, without the waiting
            @staticmethod
            def sleep(seconds: float) -> None:
                return None

        patch.setattr(retrier_decl, "time", _NoWait)
        config = {"stepfunctions": {"execute_state_machine": True}, "lambda": {"use_docker": False}}
        with mock_aws(config=config):
            stack = Stack()

            def invoke(self: Any, function_name: str, qualifier: Any, body: Any,
                       headers: Any, response_headers: Any) -> bytes:  # fmt: skip
                event = json.loads(body) if body else {}
                try:
                    result = stack.invoke(function_name.rsplit(":", 1)[-1], event)
                except Exception as exc:  # what the Lambda runtime reports: the class name
                    response_headers["x-amz-function-error"] = "Unhandled"
                    error = {"errorType": type(exc).__name__, "errorMessage": str(exc)}
                    return json.dumps(error).encode()
                return json.dumps(result).encode()

            patch.setattr(LambdaSimpleBackend, "invoke", invoke)
            stack.s3.create_bucket(Bucket=BUCKET)
            stack.s3.create_bucket(Bucket=STATE_BUCKET)
            backend = s3_backends[ACCOUNT_ID][S3_PARTITION]  # (no HTTP round trip per page)
            for n in range(PAGES):
                backend.put_object(BUCKET, f"s{n % 7}/p{n:05d}.html", PAGE)
            yield stack


@pytest.fixture
def stack(built: Stack) -> Iterator[Stack]:
    built.calls.clear()
    yield built
    built.fault = None


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


def sitemap_files(s3: Any) -> dict[str, bytes]:
    listed = s3.list_objects_v2(Bucket=BUCKET, Prefix="sitemap").get("Contents", [])
    return {
        item["Key"]: s3.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read() for item in listed
    }


def request(name: str, **more: Any) -> dict[str, Any]:
    return {"bucket": BUCKET, "prefix": "", "mode": "full", **more}


def local_run(stack: Stack) -> DistributedRun:
    config = load_config({}, ENV)
    site = BucketSite(BUCKET)
    store = open_partitioned(config, stack.s3, site)
    assert store is not None
    return DistributedRun(config, stack.s3, site, store, STATE_BUCKET, NOW)


def test_a_full_rebuild_on_the_state_machine_gives_the_local_executors_files(
    stack: Stack,
) -> None:
    stack.execute("full-1", request("full-1"))
    verdict = stack.verdict("full-1")
    assert verdict is not None and verdict["status"] == "published", verdict
    assert 20 <= verdict["shards"] <= 50 and verdict["urls"] == PAGES
    published = sitemap_files(stack.s3)
    assert len(published) == verdict["shards"] + 1
    assert_xsd_valid(published["sitemap.xml"])
    rendered = [name for name, _ in stack.calls if name == "shard"]
    assert len(rendered) == verdict["shards"]  # one Lambda per shard, none twice
    # The same steps in this process: the same bytes, nothing to write.
    reduced = LocalExecutor(local_run(stack), None, threads=4).execute(
        RunRequest("local-1", BUCKET, "")
    )
    assert reduced.verdict["written"] == 0 and sitemap_files(stack.s3) == published


def test_a_worker_that_fails_once_is_retried_by_the_state_machine(stack: Stack) -> None:
    failed: list[str] = []

    def once(name: str, event: dict[str, Any]) -> None:
        if name == "shard" and event["afters"][0] and not failed:
            failed.append(event["shard"])
            raise SourceError("cannot list s3://site-bucket/: SlowDown (injected)")

    stack.fault = once
    stack.execute("full-2", request("full-2"))
    verdict = stack.verdict("full-2")
    assert verdict is not None and verdict["status"] == "published"
    tries = [
        event for name, event in stack.calls if name == "shard" and event["shard"] == failed[0]
    ]
    assert len(tries) == 2 and verdict["urls"] == PAGES


def test_a_worker_that_always_fails_leaves_nothing_published(stack: Stack) -> None:
    before = sitemap_files(stack.s3)  # (what earlier tests published, or nothing)
    stack.s3.put_object(Bucket=BUCKET, Key="s1/new.html", Body=PAGE)
    target: list[str] = []

    def always(name: str, event: dict[str, Any]) -> None:
        if name == "shard" and event["afters"][0]:
            target.append(event["shard"])
            if event["shard"] == target[0]:
                raise SourceError("cannot list s3://site-bucket/: AccessDenied (injected)")

    stack.fault = always
    stack.execute("full-4", request("full-4"))
    verdict = stack.verdict("full-4")
    assert verdict == {"status": "incomplete", "run": "full-4", "missing": [target[0]]}
    assert sitemap_files(stack.s3) == before  # nothing of the failed run is live


def test_starting_the_same_run_twice_is_one_execution(stack: Stack) -> None:
    executor = StepFunctionsExecutor(stack.states, stack.machine)
    first = executor.start(RunRequest("full-same", BUCKET, ""))
    second = executor.start(RunRequest("full-same", BUCKET, ""))
    assert first == second
    executions = stack.states.list_executions(stateMachineArn=stack.machine)["executions"]
    assert [item["name"] for item in executions].count("full-same") == 1


def test_the_router_starts_the_state_machine_for_a_site_without_a_plan(stack: Stack) -> None:
    env = {**ENV, "SITEMILL_STATE_MACHINE_ARN": stack.machine}
    summary = handle({"action": "rebuild"}, env=env, s3=stack.s3, states=stack.states)
    assert summary["status"] == "ok"
    assert ":execution:sitemill-rebuild:full-" in summary["execution"]
    assert summary["written"] == 0  # the router itself published nothing
