"""A cold start imports its event's path only: counted in fresh interpreters (never timed)."""
# Each child imports lambda/handler.py from this checkout (the zip's layout: the handler beside
# the sitemill package), runs one event against a moto server on loopback and names the modules
# the import and the event loaded. "Every path" is what the handler imported for any event before
# its entries imported their own: the router, the rebuild and the check.

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from motoserver import moto_server

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests" / "events"
BUCKET = "site-bucket"  # (the bucket the events under tests/events name)
# The check reads the live site there: the discard port, refused at once (no request leaves).
LIVE_SITE = "http://127.0.0.1:9/"
EVERY_PATH = ("sitemill.aws.handler", "sitemill.aws.rebuild", "sitemill.aws.check")
# The modules only a rebuild, a check of the live site or IndexNow runs.
REBUILD_ONLY = ("jinja2", "sitemill.pipeline", "sitemill.render", "sitemill.jobs.bucket")
REBUILD_ONLY += ("sitemill.writing", "sitemill.aws.rebuild", "sitemill.aws.steps")
CHECK_ONLY = ("sitemill.check.run", "sitemill.web", "sitemill.jobs.check", "sitemill.aws.check")
INDEXNOW = ("sitemill.indexnow",)
# What a page's S3 event needs no module of: IndexNow's sending (off), the git walk, the partitioned
# rebuild, Jinja (the built-in templates come compiled), boto3 (botocore's client serves).
# (sitemill.state.pending names the changes the state keeps for `sitemill check`)
NOT_FOR_A_PAGE = ("sitemill.indexnow.run", "sitemill.indexnow.pending", "sitemill.indexnow.key")
NOT_FOR_A_PAGE += ("sitemill.lastmod.history.walk", "sitemill.git", "jinja2", "boto3")
NOT_FOR_A_PAGE += ("sitemill.scaleout.partitioned", "sitemill.state.partitioned", "s3transfer")
# A changed page's S3 event when issue 64 was written (06397bb; counted as below): 592 modules,
# 331 of them beyond what botocore's S3 client loads alone (261 there), 235 of sitemill.
PAGE_EVENT_BEFORE = 331
CHILD = """
import json, sys
sys.path[:0] = [sys.argv[1] + "/lambda", sys.argv[1] + "/src"]
before = set(sys.modules)
import handler
entry, event = sys.argv[2], json.loads(sys.argv[3])
for module in sys.argv[4:]:
    __import__(module)
try:
    status = getattr(handler, entry)(event, None).get("status") if event is not None else None
except Exception as exc:  # (a step with no partitioned state to read)
    status = type(exc).__name__
print(json.dumps({"status": status, "modules": sorted(set(sys.modules) - before)}))
"""


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        s3 = boto3.client(
            "s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="testing",
            aws_secret_access_key="testing",
        )  # fmt: skip
        s3.create_bucket(Bucket=BUCKET)
        for page in ("index.html", "docs/guide.html"):
            s3.put_object(Bucket=BUCKET, Key=page, Body=b"<!doctype html><title>A page</title>")
        yield url


def cold_start(
    endpoint: str, event: object, *also: str, entry: str = "handler"
) -> tuple[str | None, set[str]]:
    """A fresh interpreter's answer to ``event`` given to ``entry`` (None: import only) and
    the modules it loaded."""
    command = [sys.executable, "-I", "-c", CHILD, str(ROOT), entry, json.dumps(event), *also]
    done = subprocess.run(command, capture_output=True, text=True, env=child_env(endpoint))
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["status"], set(found["modules"])


def child_env(endpoint: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SITEMILL_")}
    return env | {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": endpoint,
        "NO_PROXY": "127.0.0.1",
        "SITEMILL_BUCKET": BUCKET,
        "SITEMILL_BASE_URL": LIVE_SITE,
    }


SDK_FLOOR = """
import json, os, sys
before = set(sys.modules)
from botocore.session import get_session
s3 = get_session().create_client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
bucket = os.environ["SITEMILL_BUCKET"]
s3.list_objects_v2(Bucket=bucket)
s3.get_object(Bucket=bucket, Key="index.html")["Body"].read()
s3.put_object(Bucket=bucket, Key="floor.txt", Body=b"")
s3.delete_object(Bucket=bucket, Key="floor.txt")
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def sdk_floor(endpoint: str) -> set[str]:
    """The modules botocore's S3 client loads for a listing, a GET and a PUT, alone."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", SDK_FLOOR], capture_output=True, text=True,
        env=child_env(endpoint), check=True,
    )  # fmt: skip
    return set(json.loads(done.stdout))


def s3_event(key: str) -> dict[str, object]:
    record = {"eventSource": "aws:s3", "eventName": "ObjectCreated:Put"}
    return {"Records": [record | {"s3": {"bucket": {"name": BUCKET}, "object": {"key": key}}}]}


def named(modules: set[str], paths: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in paths))


def event(name: str) -> object:
    return json.loads((EVENTS / name).read_text())


def test_an_s3_event_that_asks_for_no_rebuild_imports_under_half_of_every_path(
    endpoint: str,
) -> None:
    _, every = cold_start(endpoint, None, *EVERY_PATH)
    status, modules = cold_start(endpoint, event("s3_state_written.json"))
    assert status == "skipped"
    assert len(modules) <= len(every) / 2, (len(modules), len(every))
    assert named(modules, (*REBUILD_ONLY, *CHECK_ONLY, *INDEXNOW, "sitemill.lastmod")) == []


def test_sitemills_own_sitemaps_coming_back_import_no_rebuild(endpoint: str) -> None:
    # The router reads what sitemill last published (the state) and HEADs each file.
    status, modules = cold_start(endpoint, event("s3_own_output.json"))
    assert status == "skipped"
    assert named(modules, (*REBUILD_ONLY, *CHECK_ONLY, *INDEXNOW)) == []


@pytest.mark.parametrize("name", ["s3_put.json", "rebuild.json"])
def test_a_rebuild_imports_no_check_of_the_live_site(endpoint: str, name: str) -> None:
    status, modules = cold_start(endpoint, event(name))
    assert status == "ok"
    assert named(modules, (*CHECK_ONLY, "sitemill.aws.steps", "sitemill.scaleout.distplan")) == []
    assert "sitemill.aws.rebuild" in modules


def test_a_check_imports_no_router_and_no_rebuild(endpoint: str) -> None:
    assert cold_start(endpoint, {"action": "rebuild"})[0] == "ok"  # (a record to check)
    status, modules = cold_start(endpoint, {"action": "check"})
    assert status in ("ok", "problems")
    router = ("sitemill.aws.handler", "sitemill.aws._selection", "sitemill.aws.rebuild")
    assert named(modules, (*router, "sitemill.aws.steps")) == []


@pytest.mark.parametrize("step", ["plan", "shuffle", "shard", "reduce"])
def test_a_step_imports_no_router_and_no_check(endpoint: str, step: str) -> None:
    # The bucket keeps no partitioned state: the step stops at its setup, its module imported.
    status, modules = cold_start(endpoint, {}, entry=step)
    assert status == "ConfigError"
    assert "sitemill.aws.steps" in modules
    router = ("sitemill.aws.handler", "sitemill.aws._selection", "sitemill.aws.rebuild")
    assert named(modules, (*router, *CHECK_ONLY)) == []


def test_a_changed_pages_s3_event_imports_under_two_thirds_of_what_it_did(endpoint: str) -> None:
    # The router rebuilt the bucket before (its state is there); then a page changed: its event
    # reads it (its fingerprint, its head) and rebuilds the sitemaps.
    assert cold_start(endpoint, {"action": "rebuild"})[0] == "ok"
    s3 = boto3.client(
        "s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )  # fmt: skip
    body = b"<!doctype html><title>A guide</title><main><p>Its text, changed.</p></main>"
    s3.put_object(Bucket=BUCKET, Key="docs/guide.html", Body=body)
    status, modules = cold_start(endpoint, s3_event("docs/guide.html"))
    assert status == "ok"
    assert named(modules, NOT_FOR_A_PAGE) == []
    beyond = modules - sdk_floor(endpoint)
    assert len(beyond) <= PAGE_EVENT_BEFORE * 2 / 3, (len(beyond), len(modules))
