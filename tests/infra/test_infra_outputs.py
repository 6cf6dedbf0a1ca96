"""The stack's outputs a user copies: RebuildCommand and TerminalRebuildCommand, run as
printed (the real `aws` CLI v1, a shell, `sitemill s3`) against moto's server, with the
Lambda's invocations served in-process by sitemill's handler."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto.awslambda_simple.models import LambdaSimpleBackend
from moto.core.config import default_user_config

from motoserver import moto_server
from s3util import PAGE, restored_logging
from sitemill.aws.handler import handle

BIN = Path(sys.executable).parent
REGION = "us-east-1"
SITE, STATE_BUCKET, FUNCTION = "example-site", "sitemill-statebucket-1x2y3z", "sitemill-Fn-AB12"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("test_infra.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


infra = _load("sitemill_test_infra_outputs")


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    """Every output's value as CloudFormation gives it for the stack ``sitemill``, the real
    names in place of the resources' (the function's and the state bucket's)."""
    translated = infra.translate(infra.load_template())
    stack = infra.make_stack(translated, {"BucketName": SITE})
    values = {name: stack.resolve(item["Value"]) for name, item in translated["Outputs"].items()}
    real = {"SitemillFunction-physical-id": FUNCTION, "StateBucket-physical-id": STATE_BUCKET}
    for name, value in values.items():
        for placeholder, physical in real.items():
            value = value.replace(placeholder, physical)
        values[name] = value
    return values


def test_the_outputs_name_the_function_the_state_and_ready_commands(
    outputs: dict[str, str],
) -> None:
    assert outputs["FunctionName"] == FUNCTION
    assert outputs["StateBucketName"] == STATE_BUCKET
    # (Shards=auto, the default: the partitioned state's manifest)
    assert outputs["StateLocation"] == (
        f"s3://{STATE_BUCKET}/{SITE}/sitemill-state/index-state.json"
    )
    assert outputs["RebuildCommand"] == (
        """printf '{"action":"rebuild"}' > rebuild.json && aws lambda invoke """
        f"--function-name {FUNCTION} --cli-read-timeout 900 --payload fileb://rebuild.json "
        "out.json && cat out.json"
    )
    # AWS CLI v1 refuses --cli-binary-format; v2 would read an inline payload as base64.
    assert "--cli-binary-format" not in outputs["RebuildCommand"]
    assert outputs["TerminalRebuildCommand"] == f"sitemill s3 --function {FUNCTION}"
    assert outputs["DiffCommand"] == (
        """printf '{"action":"diff"}' > diff-event.json && aws lambda invoke """
        f"--function-name {FUNCTION} --cli-read-timeout 900 --payload fileb://diff-event.json "
        "diff.json && cat diff.json"
    )


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """moto's server on 127.0.0.1 with the stack's site, state bucket and function, whose
    invocations run sitemill's handler in this process with the function's environment."""
    monkeypatch.setitem(default_user_config["lambda"], "use_docker", False)
    with moto_server() as url:
        client = _client("s3", url)
        env = {
            "SITEMILL_BUCKET": SITE, "SITEMILL_PREFIX": "",
            "SITEMILL_BASE_URL": "https://example.com/", "SITEMILL_SHARDS": "auto",
            "SITEMILL_SHARD_FILL": "40000", "SITEMILL_LOG_LEVEL": "ERROR",
            "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{SITE}/sitemill-state.json.gz",
            "SITEMILL_STATE_MACHINE_ARN": f"arn:aws:states:{REGION}:123456789012:stateMachine:x",
        }  # fmt: skip

        def invoke(self: Any, name: str, qualifier: Any, body: Any, headers: Any,
                   response_headers: Any) -> bytes:  # fmt: skip
            return json.dumps(handle(json.loads(body), env=env, s3=client)).encode()

        monkeypatch.setattr(LambdaSimpleBackend, "invoke", invoke)
        client.create_bucket(Bucket=SITE)
        client.create_bucket(Bucket=STATE_BUCKET)
        for n in range(61):
            client.put_object(Bucket=SITE, Key=f"docs/p{n:02d}.html", Body=PAGE)
        iam = _client("iam", url)
        role = iam.create_role(RoleName="fn", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        _client("lambda", url).create_function(
            FunctionName=FUNCTION, Runtime="python3.12", Role=role, Handler="handler.handler",
            Code={"ZipFile": b"in-process"}, Environment={"Variables": env},
        )  # fmt: skip
        yield url


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


def _client(service: str, url: str) -> Any:
    return boto3.client(
        service, endpoint_url=url, region_name=REGION,
        aws_access_key_id="testing", aws_secret_access_key="testing",
    )  # fmt: skip


def shell(command: str, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` as a user pastes it, with this venv's `aws` and `sitemill` first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "SITEMILL_"))}
    env |= {
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
    }  # fmt: skip
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def site_objects(url: str) -> dict[str, bytes]:
    client = _client("s3", url)
    listed = client.list_objects_v2(Bucket=SITE).get("Contents", [])
    return {o["Key"]: client.get_object(Bucket=SITE, Key=o["Key"])["Body"].read() for o in listed}


def sitemaps(url: str) -> dict[str, bytes]:
    return {key: data for key, data in site_objects(url).items() if not key.startswith("docs/")}


def test_the_printed_commands_rebuild_and_rebuild_again_from_a_terminal(
    outputs: dict[str, str], endpoint: str, tmp_path: Path
) -> None:
    done = shell(outputs["RebuildCommand"], endpoint, tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads((tmp_path / "out.json").read_text())
    assert answer["status"] == "ok" and "execution" not in answer
    assert (answer["urls"], answer["sitemaps"], answer["written"]) == (61, 1, 1)
    assert json.loads(done.stdout[done.stdout.index("{", done.stdout.index("}") + 1) :]) == answer
    published = sitemaps(endpoint)
    assert list(published) == ["sitemap.xml"]
    # StateLocation names the object the run keeps its state in.
    location = outputs["StateLocation"].removeprefix(f"s3://{STATE_BUCKET}/")
    kept = _client("s3", endpoint).list_objects_v2(Bucket=STATE_BUCKET).get("Contents", [])
    assert location in [item["Key"] for item in kept], [item["Key"] for item in kept]
    print(json.dumps(answer))  # (the README's example: pytest -s shows it)
    again = shell(outputs["TerminalRebuildCommand"], endpoint, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "61 URLs" in again.stdout
    assert sitemaps(endpoint) == published  # the same sitemaps; no state in the site bucket
    assert not any("state" in key for key in site_objects(endpoint))
    print(again.stdout)
