"""The S3 forms applied as a user applies them, with the real `aws` CLI against moto's server:
the routing rules through put-bucket-website and back, the objects script run by sh."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from motoserver import moto_server
from sitemill.redirects import Redirect, RedirectForm, parse_routing_rules, render_redirects

BIN = Path(sys.executable).parent
BUCKET = "site-bucket"
MOVES = [
    Redirect("/docs/old/", "/docs/new/"),
    Redirect("/docs/old/x.html", "/docs/new/x/"),
    Redirect("/docs/a%20b%20%22c%22.html", "/docs/new/a%20b/"),
    Redirect("/docs/it's%20$(touch%20pwned).html", "/docs/new/q/"),
    Redirect("/docs/caf%C3%A9%25.html", "https://other.example/caf%C3%A9/"),
    Redirect("/", "/docs/"),
]


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        yield url


def environment(endpoint: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    return env | {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "AWS_ENDPOINT_URL": endpoint,
        "NO_PROXY": "127.0.0.1",
        "no_proxy": "127.0.0.1",
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    }


def aws(endpoint: str, cwd: Path, *args: str) -> str:
    command = [str(BIN / "aws"), "--endpoint-url", endpoint, *args]
    done = subprocess.run(
        command, cwd=cwd, env=environment(endpoint), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_rules_go_through_put_bucket_website_and_read_back(
    endpoint: str, tmp_path: Path
) -> None:
    bucket = "rules-bucket"
    aws(endpoint, tmp_path, "s3api", "create-bucket", "--bucket", bucket)
    (tmp_path / "routing-rules.json").write_text(render_redirects(MOVES, RedirectForm.S3_RULES))
    aws(endpoint, tmp_path, "s3api", "put-bucket-website", "--bucket", bucket,
        "--website-configuration", "file://routing-rules.json")  # fmt: skip
    answer = json.loads(aws(endpoint, tmp_path, "s3api", "get-bucket-website", "--bucket", bucket))
    # the root's rule names its index document: a prefix "" would catch every missing key
    assert all(rule["Condition"]["KeyPrefixEquals"] for rule in answer["RoutingRules"])
    rules = parse_routing_rules(answer)
    assert len(rules) == len(MOVES) and rules.invalid == 0
    for move in MOVES:
        assert rules.target_of(move.source) == (move.target, 301), move


def test_the_objects_script_writes_one_redirect_object_per_removed_url(
    endpoint: str, tmp_path: Path
) -> None:
    aws(endpoint, tmp_path, "s3api", "create-bucket", "--bucket", BUCKET)
    script = tmp_path / "redirects.sh"
    script.write_text(render_redirects(MOVES, RedirectForm.S3_OBJECTS, bucket=BUCKET))
    subprocess.run(["sh", "-n", str(script)], check=True)
    done = subprocess.run(
        ["sh", str(script)], cwd=tmp_path, env=environment(endpoint), capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "pwned").exists()
    listed = json.loads(aws(endpoint, tmp_path, "s3api", "list-objects-v2", "--bucket", BUCKET))
    keys = sorted(item["Key"] for item in listed["Contents"])
    assert keys == sorted([
        "docs/old/index.html", "docs/old/x.html", 'docs/a b "c".html',
        "docs/it's $(touch pwned).html", "docs/café%.html", "index.html",
    ])  # fmt: skip
    head = aws(endpoint, tmp_path, "s3api", "head-object", "--bucket", BUCKET,
               "--key", "docs/café%.html")  # fmt: skip
    assert json.loads(head)["WebsiteRedirectLocation"] == "https://other.example/caf%C3%A9/"
