"""The distributed rebuild on the real state machine (infra/rebuild.asl.json), executed by
moto's Step Functions parser, with the four functions run in-process (moto's Lambda without
Docker is patched to call sitemill.aws.steps). moto lets a Distributed Map end well when a
child failed, so every check reads the reducer's verdict, never the execution's status."""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
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

import inventoryutil
from outputlist import DistributedRun, rebuild_partitioned
from s3util import BASE, BUCKET, PAGE, restored_logging
from sitemill.aws import steps
from sitemill.aws.handler import handle
from sitemill.config.model import load_config
from sitemill.errors import IncompleteRunError, SourceError
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor, StepFunctionsExecutor, next_run_name
from xsd import assert_xsd_valid

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

ASL = Path(__file__).resolve().parents[2] / "infra" / "rebuild.asl.json"
STATE_BUCKET = "state-bucket"
REGION = "us-east-1"
S3_PARTITION = "aws"
PAGES = 400
ENV = {
    "SITEMILL_BUCKET": BUCKET,
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{BUCKET}/sitemill-state.json.gz",
    "SITEMILL_SHARDS": "on",
    "SITEMILL_SHARD_FILL": "16",
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
        self.env = ENV
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
        extra = {"states": self.states} if name == "reduce" else {}
        return getattr(steps, name)(event, env=self.env, s3=self.s3, **extra)

    def execute(self, name: str, document: dict[str, Any]) -> dict[str, Any]:
        started = self.states.start_execution(
            stateMachineArn=self.machine, name=name, input=json.dumps(document)
        )
        return self.ended(started["executionArn"])

    def ended(self, execution: str) -> dict[str, Any]:
        """The execution once it ended (the parser runs it in threads of its own)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            described = self.states.describe_execution(executionArn=execution)
            if described["status"] != "RUNNING":
                return described
            time.sleep(0.05)
        raise AssertionError("the execution did not end")

    def small_site(self, name: str, pages: int = 48) -> str:
        """A site of its own (this test's runs see no other), which the functions now serve."""
        self.s3.create_bucket(Bucket=name)
        backend = s3_backends[ACCOUNT_ID][S3_PARTITION]
        for n in range(pages):
            backend.put_object(name, f"d{n % 3}/p{n:04d}.html", PAGE)
        self.env = {
            **ENV,
            "SITEMILL_BUCKET": name,
            "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{name}/sitemill-state.json.gz",
        }
        return name

    def verdict(self, run: str, site: str = BUCKET) -> dict[str, Any] | None:
        key = f"{site}/sitemill-state/runs/{run}/verdict.json"
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
    built.fault, built.env = None, ENV


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


def sitemap_files(s3: Any, bucket: str = BUCKET) -> dict[str, bytes]:
    listed = s3.list_objects_v2(Bucket=bucket, Prefix="sitemap").get("Contents", [])
    return {o["Key"]: s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read() for o in listed}


def executions(stack: Stack) -> list[str]:
    listed = stack.states.list_executions(stateMachineArn=stack.machine)["executions"]
    return sorted(item["name"] for item in listed)


def _objects(s3: Any, bucket: str) -> list[dict[str, Any]]:
    return list(s3.list_objects_v2(Bucket=bucket).get("Contents", []))


def request(bucket: str = BUCKET) -> dict[str, Any]:
    return {"bucket": bucket, "prefix": "", "mode": "full"}


def local_run(stack: Stack) -> DistributedRun:
    config = load_config({}, ENV)
    site = BucketSite(BUCKET)
    store = open_partitioned(config, stack.s3, site)
    assert store is not None
    # (after the state machine's run, as a later run is: a child's date is never after its run)
    return DistributedRun(config, stack.s3, site, store, STATE_BUCKET, datetime.now(UTC))


def test_a_full_rebuild_on_the_state_machine_gives_the_local_executors_files(
    stack: Stack,
) -> None:
    stack.execute("full-1", request())
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
    site = stack.small_site("retried-site")
    failed: list[str] = []

    def once(name: str, event: dict[str, Any]) -> None:
        if name == "shard" and event["afters"][0] and not failed:
            failed.append(event["shard"])
            raise SourceError(f"cannot list s3://{site}/: SlowDown (injected)")

    stack.fault = once
    stack.execute("full-2", request(site))
    verdict = stack.verdict("full-2", site)
    assert verdict is not None and verdict["status"] == "published" and verdict["shards"] == 3
    tries = [
        event for name, event in stack.calls if name == "shard" and event["shard"] == failed[0]
    ]
    assert len(tries) == 2 and verdict["urls"] == 48


def test_a_worker_that_always_fails_leaves_nothing_published(stack: Stack) -> None:
    site = stack.small_site("failing-site")
    stack.execute("full-3", request(site))
    before = sitemap_files(stack.s3, site)
    assert len(before) == 4
    stack.s3.put_object(Bucket=site, Key="d1/new.html", Body=PAGE)
    target: list[str] = []

    def always(name: str, event: dict[str, Any]) -> None:
        if name == "shard" and event["afters"][0]:
            target.append(event["shard"])
            if event["shard"] == target[0]:
                raise SourceError(f"cannot list s3://{site}/: AccessDenied (injected)")

    stack.fault = always
    stack.execute("full-4", request(site))
    verdict = stack.verdict("full-4", site)
    assert verdict == {"status": "incomplete", "run": "full-4", "missing": [target[0]]}
    assert sitemap_files(stack.s3, site) == before  # nothing of the failed run is live


def test_starting_the_same_run_twice_is_one_execution(stack: Stack) -> None:
    executor = StepFunctionsExecutor(stack.states, stack.machine)
    other = RunRequest("full-same", "another-bucket", "")  # (its plan fails at once)
    first = executor.start(other)
    second = executor.start(other)
    assert first == second
    executions = stack.states.list_executions(stateMachineArn=stack.machine)["executions"]
    assert [item["name"] for item in executions].count("full-same") == 1
    assert stack.ended(first)["status"] == "FAILED"
    assert [name for name, _ in stack.calls] == ["plan"]


def test_the_router_starts_the_state_machine_for_a_site_too_big_for_it(stack: Stack) -> None:
    # No plan yet, and more than 20 shards' worth of pages (20 x 16 = 320): listed until the
    # 321st page, then handed over; the answer says so, and names the execution.
    site = stack.small_site("routed-site", pages=330)
    env = {**stack.env, "SITEMILL_STATE_MACHINE_ARN": stack.machine}
    summary = handle({"action": "rebuild"}, env=env, s3=stack.s3, states=stack.states)
    assert summary["status"] == "started" and "urls" not in summary and "written" not in summary
    execution = summary["execution"]
    assert ":execution:sitemill-rebuild:full-" in execution
    assert summary["execution_name"] == execution.rsplit(":", 1)[1]
    assert summary["why"] == (
        "a distributed rebuild on Step Functions: no plan yet, and more than 320 pages "
        "(20 shards of 16 the function takes)"
    )
    stack.ended(execution)
    verdict = stack.verdict(summary["execution_name"], site)
    assert verdict is not None and verdict["status"] == "published" and verdict["urls"] == 330


def test_a_small_sites_first_rebuild_with_the_stacks_settings_answers_with_its_urls(
    stack: Stack,
) -> None:
    # infra/template.yaml's environment: the state in the private state bucket, shards "auto"
    # (40,000 a shard), the state machine configured. 61 pages: rebuilt in the function.
    site = stack.small_site("first-site", pages=61)
    env = {
        **stack.env, "SITEMILL_SHARDS": "auto", "SITEMILL_SHARD_FILL": "40000",
        "SITEMILL_STATE_MACHINE_ARN": stack.machine,
    }  # fmt: skip
    del env["SITEMILL_LOG_LEVEL"]
    before = executions(stack)
    summary = handle({"action": "rebuild"}, env=env, s3=stack.s3, states=stack.states)
    assert summary["status"] == "ok" and "execution" not in summary, summary
    assert summary["urls"] == 61 and summary["sitemaps"] == 1 and summary["written"] == 1
    assert summary["state"] == "written" and summary["pages_read"] == 61
    published = sitemap_files(stack.s3, site)
    assert list(published) == ["sitemap.xml"] and published["sitemap.xml"].count(b"<url>") == 61
    assert_xsd_valid(published["sitemap.xml"])
    # No execution started, and no state in the site bucket: it is in the state bucket.
    assert executions(stack) == before
    assert not any("state" in key for key in (o["Key"] for o in _objects(stack.s3, site)))
    state = stack.s3.list_objects_v2(Bucket=STATE_BUCKET, Prefix=f"{site}/sitemill-state/")
    assert state["KeyCount"] > 0
    print(json.dumps(summary))  # (the README's example answer: pytest -s shows it)


def test_a_first_build_from_s3_inventory_runs_the_shuffle_map(stack: Stack) -> None:
    site = stack.small_site("inventory-site", pages=150)
    backend = s3_backends[ACCOUNT_ID][S3_PARTITION]
    listed = stack.s3.list_objects_v2(Bucket=site)["Contents"]
    rows = [
        [site, inventoryutil.encode(o["Key"]), str(o["Size"]),
         o["LastModified"].strftime("%Y-%m-%dT%H:%M:%S.000Z"), o["ETag"].strip('"'), "STANDARD"]
        for o in listed
    ]  # fmt: skip
    folder = f"inventory/{site}/sitemill/"
    put = functools.partial(backend.put_object, STATE_BUCKET)
    when = datetime.now(UTC) - timedelta(hours=3)
    inventoryutil.put_report(
        put, folder, site, STATE_BUCKET, when, [rows[0::3], rows[1::3], rows[2::3]]
    )
    stack.env = {**stack.env, "SITEMILL_INVENTORY": f"s3://{STATE_BUCKET}/{folder}"}
    stack.execute("full-inventory", {"bucket": site, "prefix": "", "mode": "full"})
    key = f"{site}/sitemill-state/runs/full-inventory/"
    verdict = json.loads(
        stack.s3.get_object(Bucket=STATE_BUCKET, Key=key + "verdict.json")["Body"].read()
    )
    # One group (of up to 400,000 rows), cut by the cut rule: 16 pages a shard.
    assert verdict["status"] == "published" and verdict["urls"] == 150
    assert verdict["shards"] == 10 and [name for name, _ in stack.calls].count("shard") == 1
    assert [name for name, _ in stack.calls].count("shuffle") == 3
    run = json.loads(stack.s3.get_object(Bucket=STATE_BUCKET, Key=key + "run.json")["Body"].read())
    assert run["source"] == "inventory"
    index = stack.s3.get_object(Bucket=site, Key="sitemap.xml")["Body"].read()
    assert index.count(b"<sitemap>") == 10


def listed_urls(files: dict[str, bytes]) -> set[str]:
    found = set()
    for name, data in files.items():
        if name != "sitemap.xml":
            found |= {loc.decode() for loc in re.findall(rb"<loc>([^<]*)</loc>", data)}
    return found


def test_a_run_superseded_by_the_router_hands_its_pages_on(stack: Stack) -> None:
    """Pages whose events were folded into a distributed run that a router deploy then
    overtook are listed by no other run: the superseded reducer publishes nothing and starts
    the next full run itself, which lists them (no schedule, no person: issue 46, item 6)."""
    site = stack.small_site("handed-on-site")
    stack.env = {**stack.env, "SITEMILL_STATE_MACHINE_ARN": stack.machine}
    stack.execute("full-h1", request(site))
    folded = ["d1/folded-a.html", "d2/folded-b.html"]  # (only the next run lists them)
    for key in folded:
        stack.s3.put_object(Bucket=site, Key=key, Body=PAGE)
    deployed: list[str] = []

    def router_deploy(name: str, event: dict[str, Any]) -> None:
        if name == "reduce" and event.get("run") == "full-h2" and not deployed:
            deployed.append("d0/deployed.html")
            stack.s3.put_object(Bucket=site, Key=deployed[0], Body=PAGE)
            config = load_config({}, stack.env)
            store = open_partitioned(config, stack.s3, BucketSite(site))
            assert store is not None
            rebuild_partitioned(config, stack.s3, BucketSite(site), store, changed=deployed)

    stack.fault = router_deploy
    described = stack.execute("full-h2", request(site))
    assert described["status"] == "FAILED"  # (it published nothing)
    verdict = stack.verdict("full-h2", site)
    assert verdict is not None and verdict["status"] == "superseded", verdict
    following = verdict["next"]
    assert following.endswith(":execution:sitemill-rebuild:" + next_run_name("full-h2"))
    assert stack.ended(following)["status"] == "SUCCEEDED"
    handed = stack.verdict(next_run_name("full-h2"), site)
    assert handed is not None and handed["status"] == "published", handed
    # The superseded reducer retried (Step Functions, a redrive) starts no second run, and
    # the run it started published: it started none of its own (no loop of runs).
    with pytest.raises(IncompleteRunError, match=next_run_name("full-h2") + " was started"):
        steps.reduce({"run": "full-h2"}, env=stack.env, s3=stack.s3, states=stack.states)
    assert [name for name in executions(stack) if name.startswith("next-")] == [
        next_run_name("full-h2")
    ]
    stack.fault = None
    published = sitemap_files(stack.s3, site)
    pages = {BASE + o["Key"] for o in _objects(stack.s3, site) if o["Key"].endswith(".html")}
    assert len(pages) == 51 and listed_urls(published) == pages
    # The same bytes as a clean full rebuild of the same plan: it writes nothing.
    stack.execute("full-h3", request(site))
    again = stack.verdict("full-h3", site)
    assert again is not None and again["status"] == "published" and again["written"] == 0
    assert sitemap_files(stack.s3, site) == published
    assert_xsd_valid(published["sitemap.xml"])
