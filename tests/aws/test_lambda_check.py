"""`{"action": "check"}` in the Lambda: the bucket's record against the live site (the stand
on 127.0.0.1), a JSON answer with each problem and its fix, the stack's distribution named in
the invalidation it suggests; a malformed check event is one error line, never a traceback."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from enginestand import Stand
from llmsrecord import keep_llms_digests
from s3util import BUCKET, moto_bucket, restored_logging
from sitemill.aws.check import handle_check
from sitemill.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def page(words: str) -> bytes:
    return f"<html><head><title>t</title></head><body><main>{words}</main></body></html>".encode()


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    """The handler sends the sitemill loggers to JSON lines on stdout: put them back."""
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        for name in ("a.html", "b.html"):
            client.put_object(Bucket=BUCKET, Key=name, Body=page(name), ContentType="text/html")
        yield client


def served(client: Any, stand: Stand) -> None:
    stand.files.clear()
    for item in client.list_objects_v2(Bucket=BUCKET)["Contents"]:
        got = client.get_object(Bucket=BUCKET, Key=item["Key"])
        body = got["Body"].read()
        stand.files["/" + item["Key"]] = (200, body, {"Content-Type": got["ContentType"]})


def env(stand: Stand) -> dict[str, str]:
    return {
        "SITEMILL_BUCKET": BUCKET,
        "SITEMILL_BASE_URL": stand.origin + "/",
        "SITEMILL_CLOUDFRONT_DISTRIBUTION_ID": "E2EXAMPLE",
    }


def test_the_check_answers_json_with_each_problem_and_the_stack_s_distribution(
    s3: Any, stand: Stand
) -> None:
    assert main(["s3", "--bucket", BUCKET, "--base-url", stand.origin + "/", "-q"]) == 0
    served(s3, stand)
    answer = handle_check({"action": "check", "all": True}, env=env(stand), s3=s3)
    assert answer["status"] == "ok" and answer["problems"] == [] and answer["checked"] == 2
    _, body, headers = stand.files["/sitemap.xml"]
    stand.files["/sitemap.xml"] = (200, body + b"\n", {**headers, "X-Amz-Cf-Id": "x"})
    answer = handle_check({"action": "check"}, env=env(stand), s3=s3)
    assert answer["status"] == "problems" and answer["bucket"] == BUCKET
    (problem,) = answer["problems"]
    assert problem["url"] == stand.origin + "/sitemap.xml" and problem["kind"] == "sitemap"
    assert "--distribution-id E2EXAMPLE --paths '/sitemap.xml'" in problem["fix"]


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ({"action": "check", "everything": True}, "unknown key 'everything'"),
        ({"action": "check", "all": "yes"}, '"all" must be true or false'),
    ],
)
def test_a_malformed_check_event_is_one_error(
    s3: Any, stand: Stand, event: dict[str, Any], error: str
) -> None:
    answer = handle_check(event, env=env(stand), s3=s3)
    assert answer["status"] == "error" and error in answer["error"]


def test_the_entry_routes_a_check_event(
    s3: Any, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env(stand).items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("lambda_entry", ROOT / "lambda" / "handler.py")
    assert spec is not None and spec.loader is not None
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    answer = entry.handler({"action": "check"}, None)
    assert answer["status"] == "error" and "no sitemill state" in answer["error"]


@pytest.mark.parametrize("named", ["another-site", "Not A Bucket!", "../" + BUCKET, "x" * 300])
def test_a_check_of_another_bucket_is_one_error_and_no_s3_call(
    s3: Any, stand: Stand, capsys: pytest.CaptureFixture[str], named: str
) -> None:
    assert main(["s3", "--bucket", BUCKET, "--base-url", stand.origin + "/", "-q"]) == 0
    calls: list[str] = []
    s3.meta.events.register("before-call.s3.*", lambda model, **_: calls.append(model.name))
    answer = handle_check({"action": "check", "bucket": named}, env=env(stand), s3=s3)
    assert answer == {
        "status": "error",
        "error": f"this function checks {BUCKET} (SITEMILL_BUCKET) only, not {named[:100]!r}",
    }
    assert calls == []
    (logged,) = capsys.readouterr().out.splitlines()  # (the log: JSON lines on stdout)
    assert (
        json.loads(logged)["level"] == "ERROR" and answer["error"] in json.loads(logged)["message"]
    )
    # Its own bucket, named or not, is checked.
    answer = handle_check({"action": "check", "bucket": BUCKET}, env=env(stand), s3=s3)
    assert answer["bucket"] == BUCKET and answer["status"] != "error" and calls


def test_a_removed_url_that_answers_404_is_in_the_json_answer(s3: Any, stand: Stand) -> None:
    from sitemill.state.model import dump_state
    from sitemill.state.parse import parse_state
    from sitemill.state.removedurls import RemovedUrl

    assert main(["s3", "--bucket", BUCKET, "--base-url", stand.origin + "/", "-q"]) == 0
    key = "sitemill-state.json.gz"
    state = parse_state(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read())
    state.removed = {stand.origin + "/old.html": RemovedUrl("renamed", stand.origin + "/a.html")}
    s3.put_object(Bucket=BUCKET, Key=key, Body=dump_state(state))
    served(s3, stand)
    answer = handle_check({"action": "check"}, env=env(stand), s3=s3)
    assert answer["status"] == "problems"
    assert answer["removed"] == answer["removed_kept"] == 1
    (problem,) = answer["problems"]
    assert problem["url"] == stand.origin + "/old.html" and problem["kind"] == "removed"
    assert problem["fix"].startswith("redirect it: /old.html -> /a.html")


def test_an_llms_file_served_as_an_html_page_is_in_the_json_answer(
    s3: Any, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state's digests name llms.txt, as a build with llms_txt keeps it; the host answers
    its HTML fallback (a single-page app's, a CloudFront error page's) with 200 there."""
    assert main(["s3", "--bucket", BUCKET, "--base-url", stand.origin + "/", "-q"]) == 0
    served(s3, stand)
    keep_llms_digests(monkeypatch, {"llms.txt": b"# Example\n"})
    stand.default = (200, page("app"), {"Content-Type": "text/html"})
    answer = handle_check(
        {"action": "check"}, env={**env(stand), "SITEMILL_LLMS_TXT": "true"}, s3=s3
    )
    assert answer["status"] == "problems" and answer["llms"] == 1
    (problem,) = answer["problems"]
    assert problem["url"] == stand.origin + "/llms.txt" and problem["kind"] == "llms"
    assert problem["problem"].startswith("answers 200 with an HTML page (text/html)")
    answer = handle_check({"action": "check"}, env=env(stand), s3=s3)  # (llms_txt off)
    assert answer["status"] == "ok" and "llms" not in answer
