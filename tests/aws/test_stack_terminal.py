"""The same rebuild from a terminal as the stack's function (`sitemill s3 --function NAME`, the
stack's TerminalRebuildCommand output): the function's configuration and state location, so
no second, public state lands in the site bucket and the sitemaps are the function's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from s3util import BASE, PAGE, restored_logging
from sitemill.aws.handler import handle
from sitemill.cli.main import main

SITE, STATE_BUCKET, FUNCTION = "my-site", "sitemill-statebucket-1x2y3z", "sitemill-Function-AB12"
REGION = "us-east-1"
# What infra/template.yaml's Globals give the function (defaults), with its state machine.
STACK_ENV = {
    "SITEMILL_BUCKET": SITE,
    "SITEMILL_PREFIX": "",
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_FORMAT": "xml",
    "SITEMILL_GZIP": "false",
    "SITEMILL_URL_STYLE": "auto",
    "SITEMILL_CONTENT_DATES": "true",
    "SITEMILL_SHARDS": "auto",
    "SITEMILL_SHARD_FILL": "40000",
    "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{SITE}/sitemill-state.json.gz",
    "SITEMILL_INCLUDE": "",
    "SITEMILL_EXCLUDE": "",
    "SITEMILL_FINGERPRINT_IGNORE": "",
    "SITEMILL_LOG_LEVEL": "INFO",
    "SITEMILL_STATE_MACHINE_ARN": f"arn:aws:states:{REGION}:123456789012:stateMachine:s-rebuild",
}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    for name in list(STACK_ENV):
        monkeypatch.delenv(name, raising=False)
    with mock_aws(config={"lambda": {"use_docker": False}}):
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket=SITE)
        client.create_bucket(Bucket=STATE_BUCKET)
        backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
        for n in range(61):
            backend.put_object(SITE, f"docs/p{n:02d}.html", PAGE)
        iam = boto3.client("iam", region_name=REGION)
        role = iam.create_role(RoleName="fn", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        boto3.client("lambda", region_name=REGION).create_function(
            FunctionName=FUNCTION, Runtime="python3.12", Role=role, Handler="handler.handler",
            Code={"ZipFile": b"in-process"}, Environment={"Variables": STACK_ENV},
        )  # fmt: skip
        yield client


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


def objects(s3: Any, bucket: str) -> dict[str, bytes]:
    listed = s3.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {o["Key"]: s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read() for o in listed}


def sitemaps(s3: Any) -> dict[str, bytes]:
    return {key: data for key, data in objects(s3, SITE).items() if key.startswith("sitemap")}


def test_the_terminal_command_uses_the_stacks_state_and_gives_the_functions_sitemaps(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    built = handle({"action": "rebuild"}, env=STACK_ENV, s3=s3)  # the stack's first rebuild
    assert built["status"] == "ok" and built["urls"] == 61
    published = sitemaps(s3)
    state = objects(s3, STATE_BUCKET)
    assert main(["s3", "--function", FUNCTION]) == 0
    out = capsys.readouterr().out
    assert "61 URLs" in out and f"s3://{SITE}/" in out
    assert sitemaps(s3) == published  # the same sitemaps, nothing rewritten
    assert not any("sitemill" in key for key in objects(s3, SITE))  # no state in the site
    assert set(objects(s3, STATE_BUCKET)) >= set(state)  # its own, in the state bucket
    # A page added, rebuilt from the terminal: the function then finds nothing to change.
    s3.put_object(Bucket=SITE, Key="docs/new.html", Body=PAGE)
    assert main(["s3", "--function", FUNCTION, "-q"]) == 0
    assert b"docs/new.html" in sitemaps(s3)["sitemap.xml"]
    again = handle({"action": "rebuild"}, env=STACK_ENV, s3=s3)
    assert again["urls"] == 62 and again["written"] == 0 and again["pages_read"] == 0


def test_a_flag_still_wins_but_not_another_bucket(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["s3", "--function", FUNCTION, "--bucket", "other", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err == f"sitemill: error: bucket: {FUNCTION} rebuilds {SITE}, not other\n"
    assert main(["s3", "--function", FUNCTION, "--dry-run", "--exclude", "docs/p0*"]) == 0
    assert "51 URLs" in capsys.readouterr().out  # (10 excluded by the flag)
    assert objects(s3, STATE_BUCKET) == {} and sitemaps(s3) == {}


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["s3", "--function", "nope"], "function: cannot read the Lambda function nope: "),
        (["s3", "--base-url", BASE], "bucket: give --bucket (or --function: the stack's function)"),
    ],
)
def test_a_wrong_function_or_no_bucket_is_one_line(
    s3: Any, capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    assert main(argv) == 2  # a mistake on the command line: one line, exit 2
    err = capsys.readouterr().err
    assert err.startswith(f"sitemill: error: {line}") and err.count("\n") == 1, err


def test_the_old_terminal_command_on_a_sharded_stack_site_says_where_the_state_is(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sharded = {**STACK_ENV, "SITEMILL_SHARDS": "on", "SITEMILL_SHARD_FILL": "16"}
    assert handle({"action": "rebuild"}, env=sharded, s3=s3)["sitemaps"] == 5
    published = sitemaps(s3)
    assert main(["s3", "--bucket", SITE, "--base-url", BASE]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"sitemill: error: state: s3://{SITE}/sitemap.xml names shards of a run that keeps its "
        "state elsewhere (the stack's state bucket), and there is no state here: run "
        "`sitemill s3 --function <the stack's FunctionName>` (its TerminalRebuildCommand "
        "output), or give that state with --state\n"
    )
    assert sitemaps(s3) == published and not any("sitemill" in key for key in objects(s3, SITE))


def test_a_state_location_beside_the_stacks_says_where_the_stacks_is(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    handle({"action": "rebuild"}, env=STACK_ENV, s3=s3)
    state = objects(s3, STATE_BUCKET)
    wrong = f"s3://{STATE_BUCKET}/sitemill-state.json.gz"  # (the site's folder left out)
    assert main(["s3", "--bucket", SITE, "--base-url", BASE, "--state", wrong]) == 2
    assert capsys.readouterr().err == (
        f"sitemill: error: state: no state at {wrong}, but the stack's is in the same bucket: "
        f"give --state s3://{STATE_BUCKET}/{SITE}/sitemill-state.json.gz (or run "
        "`sitemill s3 --function <the stack's FunctionName>`)\n"
    )
    assert objects(s3, STATE_BUCKET) == state
    right = f"s3://{STATE_BUCKET}/{SITE}/sitemill-state.json.gz"
    assert main(["s3", "--bucket", SITE, "--base-url", BASE, "--state", right, "-q"]) == 0
