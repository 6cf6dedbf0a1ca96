"""The stack end to end on moto: the site bucket's S3 -> SQS notifications (or its EventBridge
rule) configured exactly as infra/template.yaml's own filters say, the function driven with the
SQS messages they queue.
A sitemap-only upload (`aws s3 sync --size-only` of a build whose pages did not change, the
generator's sitemap.xml, or sitemill's own from a staging run) is heard and put right; the
function's own writes, heard the same way, trigger nothing."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_plus

import boto3
import pytest
from moto import mock_aws
from test_infra import BUCKET, MODES, allowed, make_stack, translate
from test_infra import STATE_BUCKET as STACK_STATE_BUCKET

from s3util import PAGE, Requests, restored_logging
from sitemill.aws.handler import handle

REGION = "us-east-1"
BASE = "https://example.com/"
STATE_BUCKET = "sitemill-state-bucket"
PAGES = ["index.html", "a.html", "b.html", "docs/c.html", "docs/d.html"]
SHARDED = {"Shards": "on", "MaxUrls": "2", "ShardFill": "2", "Gzip": "true"}
STACKS = {
    "defaults": {},
    "prefix": {"SourcePrefix": "site/"},
    "shards off": {"Shards": "off", "MaxUrls": "2", "Gzip": "true"},
    "sharded": SHARDED,
    # Mode (b): an existing bucket, its events through the stack's EventBridge rule.
    "eventbridge": {"CreateBucket": "false", "SourcePrefix": "site/"},
    "eventbridge sharded": {"CreateBucket": "false", **SHARDED},
}
MKDOCS_SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"    <url>\n         <loc>https://example.com/only-mkdocs/</loc>\n    </url>\n</urlset>"
)


@pytest.fixture(scope="module")
def translated() -> dict[str, Any]:
    from test_infra import load_template

    return translate(load_template())


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


class Stack:
    """The site bucket, its queue and the function's environment, as the template makes them."""

    def __init__(self, translated: dict[str, Any], parameters: dict[str, str]) -> None:
        stack = make_stack(translated, MODES["created bucket"], {"BaseUrl": BASE}, parameters)
        resources = stack.resources()
        self.statements = stack.role_statements()  # the function's IAM policy
        self.prefix = parameters.get("SourcePrefix", "")
        self.s3 = boto3.client("s3", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.queue = self.sqs.create_queue(QueueName="sitemill-queue")["QueueUrl"]
        arn = self.sqs.get_queue_attributes(QueueUrl=self.queue, AttributeNames=["QueueArn"])
        self.queue_arn = arn["Attributes"]["QueueArn"]
        self.s3.create_bucket(Bucket=BUCKET)
        self.s3.create_bucket(Bucket=STATE_BUCKET)
        if "SiteBucket" in resources:  # mode (a): the bucket's own notifications to the queue
            self._notify_queue(resources["SiteBucket"]["Properties"]["NotificationConfiguration"])
        else:  # mode (b): EventBridge delivery on, the stack's rule targets the queue
            self._route_events(resources["ObjectEventsRule"]["Properties"])
        variables = resources["SitemillFunction"]["Properties"]["Environment"]["Variables"]
        self.env = {name: str(value) for name, value in variables.items()}
        # The stack's state bucket (the evaluator names it StateBucket-physical-id).
        state = self.env["SITEMILL_STATE"].split("/", 3)[3]
        self.env["SITEMILL_STATE"] = f"s3://{STATE_BUCKET}/{state}"
        self.drain()  # (S3's s3:TestEvent for the new configuration)

    def _notify_queue(self, notifications: dict[str, Any]) -> None:
        self.s3.put_bucket_notification_configuration(
            Bucket=BUCKET,
            NotificationConfiguration={
                "QueueConfigurations": [
                    {
                        "QueueArn": self.queue_arn,
                        "Events": [rule["Event"]],
                        "Filter": {"Key": {"FilterRules": rule["Filter"]["S3Key"]["Rules"]}},
                    }
                    for rule in notifications["QueueConfigurations"]
                ]
            },
        )

    def _route_events(self, rule: dict[str, Any]) -> None:
        self.s3.put_bucket_notification_configuration(
            Bucket=BUCKET, NotificationConfiguration={"EventBridgeConfiguration": {}}
        )
        events = boto3.client("events", region_name=REGION)
        events.put_rule(Name="sitemill", EventPattern=json.dumps(rule["EventPattern"]))
        ((target),) = rule["Targets"]
        events.put_targets(Rule="sitemill", Targets=[{"Id": target["Id"], "Arn": self.queue_arn}])

    def key(self, name: str) -> str:
        return self.prefix + name

    def get(self, name: str) -> bytes:
        data: bytes = self.s3.get_object(Bucket=BUCKET, Key=self.key(name))["Body"].read()
        return data

    def drain(self) -> list[dict[str, Any]]:
        """Every message queued, as the Lambda's SQS event source hands them over."""
        records: list[dict[str, Any]] = []
        while True:
            answer = self.sqs.receive_message(QueueUrl=self.queue, MaxNumberOfMessages=10)
            messages = answer.get("Messages", [])
            if not messages:
                return records
            for message in messages:
                records.append(
                    {
                        "messageId": message["MessageId"],
                        "receiptHandle": message["ReceiptHandle"],
                        "body": message["Body"],
                        "attributes": {"ApproximateReceiveCount": "1"},
                        "messageAttributes": {},
                        "md5OfBody": message["MD5OfBody"],
                        "eventSource": "aws:sqs",
                        "eventSourceARN": self.queue_arn,
                        "awsRegion": REGION,
                    }
                )
                self.sqs.delete_message(QueueUrl=self.queue, ReceiptHandle=message["ReceiptHandle"])

    def deliver(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """The function run on one batch of queued messages; every S3 request it makes is one
        its role allows (least privilege: nothing was added for these reads)."""
        calls: list[tuple[str, dict[str, Any]]] = []

        def note(params: dict[str, Any], model: Any, **_: Any) -> None:
            calls.append((model.name, dict(params)))

        self.s3.meta.events.register("provide-client-params.s3.*", note)
        try:
            result = handle({"Records": records}, env=self.env, s3=self.s3)
        finally:
            self.s3.meta.events.unregister("provide-client-params.s3.*", note)
        assert result["batchItemFailures"] == [], result
        assert calls, "the function read what it needed"
        for operation, params in calls:
            action, arn = grant_for(operation, params)
            assert allowed(self.statements, action, arn), (operation, params)
        return result

    def sitemaps(self) -> dict[str, bytes]:
        listing = self.s3.list_objects_v2(Bucket=BUCKET, Prefix=self.key("sitemap"))
        return {
            item["Key"]: self.get(item["Key"][len(self.prefix) :])
            for item in listing.get("Contents", [])
        }


ACTIONS = {
    "HeadObject": "s3:GetObject",
    "GetObject": "s3:GetObject",
    "PutObject": "s3:PutObject",
    # A renewed child (sitemill.sinks.s3conditional) goes up as a one-part multipart upload,
    # which IAM authorises as s3:PutObject.
    "CreateMultipartUpload": "s3:PutObject",
    "UploadPart": "s3:PutObject",
    "CompleteMultipartUpload": "s3:PutObject",
    "DeleteObject": "s3:DeleteObject",
    "ListObjectsV2": "s3:ListBucket",
}


def grant_for(operation: str, params: dict[str, Any]) -> tuple[str, str]:
    """The IAM action and resource an S3 request needs (the stack's state bucket by the name
    the template evaluator gives it)."""
    bucket = STACK_STATE_BUCKET if params["Bucket"] == STATE_BUCKET else params["Bucket"]
    if operation == "ListObjectsV2":
        return ACTIONS[operation], f"arn:aws:s3:::{bucket}"
    return ACTIONS[operation], f"arn:aws:s3:::{bucket}/{params['Key']}"


def keys_of(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """("created" or "deleted", key) of each S3 notification or EventBridge event queued."""
    found = []
    for record in records:
        body = json.loads(record["body"])
        if "detail" in body:
            kind = {"Object Created": "created", "Object Deleted": "deleted"}[body["detail-type"]]
            found.append((kind, body["detail"]["object"]["key"]))
        for note in body.get("Records", []):
            kind = "created" if note["eventName"].startswith("ObjectCreated:") else "deleted"
            found.append((kind, unquote_plus(note["s3"]["object"]["key"])))
    return found


def settle(stack: Stack) -> None:
    """Deliver what the queue holds until the function's own writes come back as events that
    trigger nothing: each echo batch is skipped, writes nothing, and the queue is then empty."""
    echoes = stack.drain()
    assert echoes, "the function's own writes are heard (their creation is delivered)"
    requests = Requests(stack.s3)
    result = stack.deliver(echoes)
    assert result["status"] == "skipped", result
    assert not {"PutObject", "DeleteObject"} & set(requests.summary())
    assert stack.drain() == []


@pytest.fixture(params=list(STACKS), ids=list(STACKS))
def stack(request: pytest.FixtureRequest, translated: dict[str, Any], monkeypatch: Any) -> Any:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        stack = Stack(translated, STACKS[request.param])
        for page in PAGES:
            stack.s3.put_object(Bucket=BUCKET, Key=stack.key(page), Body=PAGE)
        deploy = stack.drain()
        assert len(keys_of(deploy)) == len(PAGES)
        first = stack.deliver(deploy)
        assert (first["status"], first["urls"]) == ("ok", len(PAGES)), first
        settle(stack)
        yield stack


def staging_copy(data: bytes) -> bytes:
    """The same file from a staging run of sitemill: its URLs on localhost."""
    if data[:2] == b"\x1f\x8b":
        return gzip.compress(staging_copy(gzip.decompress(data)), mtime=0)
    return data.replace(BASE.encode(), b"http://localhost:8000/")


@pytest.mark.parametrize("upload", ["generator", "staging"])
def test_a_sitemap_only_upload_is_heard_and_sitemills_restored(stack: Stack, upload: str) -> None:
    ours = stack.sitemaps()
    live = stack.get("sitemap.xml")
    # `aws s3 sync --size-only site/ s3://bucket/`: the pages' sizes did not change, so only
    # sitemap.xml goes up: the generator's, or sitemill's own from a staging build.
    other = MKDOCS_SITEMAP if upload == "generator" else staging_copy(live)
    assert other != live
    stack.s3.put_object(Bucket=BUCKET, Key=stack.key("sitemap.xml"), Body=other)
    records = stack.drain()
    assert keys_of(records) == [("created", stack.key("sitemap.xml"))]
    result = stack.deliver(records)
    assert (result["status"], result.get("sitemaps_replaced")) == ("ok", 1), result
    assert stack.sitemaps() == ours
    settle(stack)


@pytest.mark.parametrize("stack", ["shards off", "sharded", "eventbridge sharded"], indirect=True)
def test_a_gz_child_overwritten_by_a_staging_copy_is_restored(stack: Stack) -> None:
    ours = stack.sitemaps()
    children = sorted(name for name in ours if name != stack.key("sitemap.xml"))
    assert children and all(name.endswith(".xml.gz") for name in children), children
    child = children[0]
    stack.s3.put_object(Bucket=BUCKET, Key=child, Body=staging_copy(ours[child]))
    records = stack.drain()
    assert keys_of(records) == [("created", child)]
    result = stack.deliver(records)
    assert (result["status"], result.get("sitemaps_replaced")) == ("ok", 1), result
    assert stack.sitemaps() == ours
    settle(stack)


def test_a_deploy_that_moves_every_child_settles_after_one_rebuild(stack: Stack) -> None:
    # New pages at the front: every child of the split layout changes (staging copies, an
    # interim index, then the final one); each write of it comes back, and triggers nothing.
    for page in ("0.html", "00.html", "000.html"):
        stack.s3.put_object(Bucket=BUCKET, Key=stack.key(page), Body=PAGE)
    result = stack.deliver(stack.drain())
    assert (result["status"], result["urls"]) == ("ok", len(PAGES) + 3), result
    settle(stack)
