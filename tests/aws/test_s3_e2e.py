"""End to end over HTTP: moto's server, the real `aws` CLI, `sitemill s3` and the Lambda entry."""

from __future__ import annotations

import html
import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import boto3
import pytest
from botocore.config import Config

import sitemill.jobs.bucket
import sitemill.jobs.bucketpass
from motoserver import moto_server
from outputlist import rebuild_bucket
from s3util import BUCKET, PAGE, make_config, restored_logging
from sitemill.aws.clients import make_s3_client
from sitemill.jobs.bucket import BucketSite
from xsd import assert_valid_sitemaps

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
BASE = "https://www.example.com/"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_CONFIG_FILE": os.devnull,
    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
}
EXPECTED_URLS = [
    BASE + "about.html",
    BASE + "blog/2024/caf%C3%A9%20&%20cr%C3%A8me.html",
    BASE + "blog/2024/hello-world.html",
    BASE + "blog/",
    BASE + "docs/guide.html",
    BASE + "docs/manual.pdf",  # docs/private.html says noindex: its head is read on S3 too
    BASE,
    BASE + "news%20&%20notes/",
]


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        yield url


def run(
    command: list[str], endpoint: str, cwd: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "SITEMILL_"))}
    env |= CREDENTIALS | {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"} | (extra or {})
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result


def aws(endpoint: str, cwd: Path, *args: str) -> str:
    return run([str(BIN / "aws"), "--endpoint-url", endpoint, *args], endpoint, cwd).stdout


def sitemill_s3(endpoint: str, cwd: Path, *args: str) -> str:
    command = [str(BIN / "sitemill"), "s3", "--bucket", BUCKET, "--base-url", BASE]
    return run([*command, "--endpoint-url", endpoint, *args], endpoint, cwd).stdout


def locs(data: bytes) -> list[str]:
    """The URLs listed, XML-unescaped ("&" stays raw in a path: "&amp;" in the XML)."""
    return [html.unescape(loc) for loc in re.findall(r"<loc>(.*?)</loc>", data.decode())]


def notification(key: str, name: str = "ObjectCreated:Put") -> dict[str, Any]:
    # As S3 sends it: the key URL-encoded with "+" for spaces, "/" left as is.
    s3 = {"bucket": {"name": BUCKET}, "object": {"key": quote_plus(key, safe="/")}}
    return {"Records": [{"eventSource": "aws:s3", "eventName": name, "s3": s3}]}


def load_handler() -> Any:
    spec = importlib.util.spec_from_file_location("lambda_handler", ROOT / "lambda" / "handler.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler


def test_aws_cli_upload_then_sitemill_s3_then_the_lambda(
    endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    aws(endpoint, tmp_path, "s3", "mb", f"s3://{BUCKET}")
    aws(
        endpoint,
        tmp_path,
        "s3",
        "cp",
        "--recursive",
        str(ROOT / "examples" / "site"),
        f"s3://{BUCKET}/",
    )

    preview = sitemill_s3(endpoint, tmp_path, "--dry-run")
    assert "would write: sitemap.xml" in preview
    assert "sitemap.xml" not in aws(endpoint, tmp_path, "s3", "ls", f"s3://{BUCKET}/")

    # The dry run read every head and wrote no state: the first real run reads them again.
    assert "page heads: 8 read, 0 remembered from the last run" in preview
    first = sitemill_s3(endpoint, tmp_path)
    assert "written: sitemap.xml" in first
    assert "page heads: 8 read, 0 remembered from the last run" in first
    # drafts/, docs/private.html; the 404 page
    assert "skipped: excluded 1, robots.txt 1, noindex 1" in first
    again = sitemill_s3(endpoint, tmp_path)
    assert "nothing changed" in again
    assert "page heads: 0 read, 8 remembered from the last run" in again
    client = boto3.client("s3", endpoint_url=endpoint, **_client_credentials())
    head = client.head_object(Bucket=BUCKET, Key="sitemap.xml")
    assert (head["ContentType"], head["CacheControl"]) == ("application/xml", "public, max-age=300")
    sitemap = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert locs(sitemap) == EXPECTED_URLS
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "sitemap.xml").write_bytes(sitemap)
    assert_valid_sitemaps(tmp_path / "out", BASE)

    # The Lambda entry point, pointed at the same endpoint, sees an upload and a deletion.
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", endpoint)
    monkeypatch.setenv("SITEMILL_BASE_URL", BASE)
    handler = load_handler()
    new_key = "blog/2024/a+b 100% é.html"
    (tmp_path / "new.html").write_text("<!doctype html><title>new</title>", encoding="utf-8")
    aws(endpoint, tmp_path, "s3", "cp", str(tmp_path / "new.html"), f"s3://{BUCKET}/{new_key}")
    result = handler(notification(new_key), None)
    assert (result["status"], result["urls"], result["written"]) == ("ok", 9, 1)
    # Only the new page's head is read; the CLI's state vouches for the eight others.
    assert (result["pages_read"], result["pages_reused"], result["state"]) == (1, 8, "written")
    sitemap = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert BASE + "blog/2024/a%2Bb%20100%25%20%C3%A9.html" in locs(sitemap)

    aws(endpoint, tmp_path, "s3", "rm", f"s3://{BUCKET}/about.html")
    result = handler(notification("about.html", "ObjectRemoved:Delete"), None)
    assert (result["status"], result["urls"]) == ("ok", 8)
    assert (result["pages_read"], result["pages_reused"], result["state"]) == (0, 8, "written")
    sitemap = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert BASE + "about.html" not in locs(sitemap)
    own = handler(notification("sitemap.xml"), None)
    assert (own["status"], own["ignored"]) == ("skipped", {"own_output": 1})
    state = handler(notification("sitemill-state.json.gz"), None)
    assert (state["status"], state["ignored"]) == ("skipped", {"own_output": 1})
    print(json.dumps(result))


def _client_credentials() -> dict[str, str]:
    return {
        "aws_access_key_id": "testing",
        "aws_secret_access_key": "testing",
        "region_name": "us-east-1",
    }


class InFlight:
    """The most GETs a client had under way at once (between sending and the answer)."""

    def __init__(self, client: Any) -> None:
        self.now = self.peak = 0
        self._lock = threading.Lock()
        client.meta.events.register("before-call.s3.GetObject", self._start)
        client.meta.events.register("after-call.s3.GetObject", self._end)

    def _start(self, **_: Any) -> None:
        with self._lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def _end(self, **_: Any) -> None:
        with self._lock:
            self.now -= 1


@pytest.mark.parametrize("pool", [None, 4], ids=["cli and lambda client", "pool of 4"])
def test_head_reads_share_the_clients_pool_without_discarding_connections(
    endpoint: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    pool: int | None,
) -> None:
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    client = make_s3_client(endpoint)  # the client `sitemill s3` and the Lambda build
    assert client.meta.config.max_pool_connections == sitemill.jobs.bucket.MAX_HEAD_READERS == 32
    if pool is not None:
        # The check's own check: 32 readers on a smaller pool make urllib3 discard
        # connections ("Connection pool is full"), which is what the right pool avoids.
        client = boto3.client("s3", endpoint_url=endpoint, config=Config(max_pool_connections=pool))
        monkeypatch.setattr(sitemill.jobs.bucketpass, "head_readers", lambda _: 32)
    bucket = f"pool-{pool or 32}"
    client.create_bucket(Bucket=bucket)
    for number in range(160):
        client.put_object(Bucket=bucket, Key=f"p/{number:03d}.html", Body=PAGE)
    in_flight = InFlight(client)
    caplog.set_level(logging.WARNING, logger="urllib3")
    report = rebuild_bucket(make_config(), client, BucketSite(bucket))
    assert (report.heads_read, report.result.url_count) == (160, 160)
    discarded = [r for r in caplog.records if "Connection pool is full" in r.getMessage()]
    if pool is None:
        assert in_flight.peak > 10, in_flight.peak  # more than botocore's default pool of 10
        assert discarded == []
    else:
        assert discarded


def test_indexnow_reads_a_bucket_at_the_endpoint_given(endpoint: str, tmp_path: Path) -> None:
    """`sitemill indexnow --bucket NAME --endpoint-url URL` reads what a run left pending at
    that endpoint, as `sitemill s3` does (it asked AWS instead). Any request to another host
    goes to a closed port on 127.0.0.1 here, so it fails at once."""
    bucket = "indexnow-at-an-endpoint"
    aws(endpoint, tmp_path, "s3", "mb", f"s3://{bucket}")
    page = tmp_path / "a.html"
    elsewhere = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    key = {"SITEMILL_INDEXNOW_KEY": "0123456789abcdef0123456789abcdef"}
    common = ["--bucket", bucket, "--base-url", BASE, "--endpoint-url", endpoint]
    for words in ("One.", "One, edited."):
        page.write_text(f"<title>A</title><main><p>{words}</p></main>")
        aws(endpoint, tmp_path, "s3", "cp", str(page), f"s3://{bucket}/a.html")
        ran = run(
            [str(BIN / "sitemill"), "s3", *common, "--indexnow=later"], endpoint, tmp_path, key
        )
    assert "1 pending for `sitemill indexnow`" in ran.stdout

    command = [str(BIN / "sitemill"), "indexnow", *common, "--dry-run"]
    announced = run(command, endpoint, tmp_path, key | elsewhere).stdout
    assert f"changed: {BASE}a.html" in announced
