"""`{"action": "diff"}` in the Lambda and the removed URLs in each rebuild's summary: the
bucket's next rebuild as a dry run against the stack's state (nothing written), its lists
cut_lists and its counts exact; a partitioned state diffed by the bucket run done dry from its
pages in one, one too big for the function one error line; the summary and its log line name
what a rebuild took out of the sitemaps."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sitemill.aws._command
import sitemill.scaleout.partitioned
from s3util import BASE, BUCKET, STATE_BUCKET, Requests, moto_bucket, restored_logging, words_page
from sitemill.aws.diff import DIFF_TOO_BIG, handle_diff
from sitemill.aws.handler import handle

ROOT = Path(__file__).resolve().parents[2]
EVENT = json.loads((ROOT / "tests" / "events" / "diff.json").read_text(encoding="utf-8"))
STATE = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
ENV = {"SITEMILL_BUCKET": BUCKET, "SITEMILL_BASE_URL": BASE, "SITEMILL_STATE": STATE}
ONE_STATE = {**ENV, "SITEMILL_SHARDS": "off"}  # (a state object of its own, not partitioned)


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for number in range(6):
            put(client, f"p{number}.html", words_page(f"page number {number} of the site"))
        yield client


def put(client: Any, key: str, body: bytes) -> None:
    client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html")


def summary_line(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (line,) = [line for line in lines if line["message"] == "sitemill summary"]
    return line


def test_the_diff_answers_the_change_report_and_writes_nothing(s3: Any) -> None:
    assert handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)["status"] == "ok"
    restructured(s3)
    requests = Requests(s3)
    answer = handle_diff(EVENT, env=ONE_STATE, s3=s3)
    assert answer["status"] == "ok" and answer["bucket"] == BUCKET
    assert answer["counts"] == {
        "added": 1, "changed": 0, "removed": 2, "redirected": 0, "renamed": 1, "gone": 1,
    }  # fmt: skip
    assert answer["removed"] == [
        {"url": f"{BASE}p1.html", "verdict": "renamed", "target": f"{BASE}new/p1.html",
         "resemblance": 1.0, "detail": "the same content: no redirect"},
        {"url": f"{BASE}p2.html", "verdict": "gone",
         "detail": "no redirect, no page with its content"},
    ]  # fmt: skip
    assert "listed_at_most" not in answer
    assert {name for name, _ in requests.calls} <= {"ListObjectsV2", "GetObject", "HeadObject"}
    # The rebuild that follows is the one the diff told.
    summary = handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)
    assert summary["removed_count"] == 2
    assert [item["url"] for item in summary["removed"]] == [f"{BASE}p1.html", f"{BASE}p2.html"]


def test_each_list_is_bounded_and_the_counts_are_every_url_s(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sitemill.aws.diff, "MAX_URLS_ANSWERED", 2)
    assert handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)["status"] == "ok"
    for number in range(5):
        s3.delete_object(Bucket=BUCKET, Key=f"p{number}.html")
    answer = handle_diff({"action": "diff"}, env=ONE_STATE, s3=s3)
    assert answer["counts"]["removed"] == answer["counts"]["gone"] == 5
    assert [item["url"] for item in answer["removed"]] == [f"{BASE}p0.html", f"{BASE}p1.html"]
    assert answer["listed_at_most"] == 2


def restructured(client: Any) -> None:
    """p1.html moves to new/p1.html with its bytes, p2.html goes."""
    put(client, "new/p1.html", client.get_object(Bucket=BUCKET, Key="p1.html")["Body"].read())
    for key in ("p1.html", "p2.html"):
        client.delete_object(Bucket=BUCKET, Key=key)


def test_a_partitioned_state_is_diffed_by_the_bucket_run_done_dry(s3: Any) -> None:
    assert handle({"action": "rebuild"}, env=ENV, s3=s3)["status"] == "ok"
    restructured(s3)
    requests = Requests(s3)
    answer = handle_diff(EVENT, env=ENV, s3=s3)
    assert {name for name, _ in requests.calls} <= {"ListObjectsV2", "GetObject", "HeadObject"}
    assert answer["status"] == "ok" and answer["counts"]["removed"] == 2
    assert [(item["url"], item["verdict"]) for item in answer["removed"]] == [
        (f"{BASE}p1.html", "renamed"), (f"{BASE}p2.html", "gone"),
    ]  # fmt: skip
    # Its manual (full) rebuild names them in its summary.
    summary = handle({"action": "rebuild"}, env=ENV, s3=s3)
    assert summary["removed_count"] == 2


def test_a_partitioned_diff_reads_the_manifest_once(s3: Any) -> None:
    """The size guard reads the manifest, and the diff starts from the manifest it read."""
    assert handle({"action": "rebuild"}, env=ENV, s3=s3)["status"] == "ok"
    requests = Requests(s3)
    assert handle_diff(EVENT, env=ENV, s3=s3)["status"] == "ok"
    reads = [path for name, path in requests.calls if name == "GetObject"]
    assert [path for path in reads if path.endswith("index-state.json")] == [
        "site/sitemill-state/index-state.json"
    ]


def test_a_partitioned_site_too_big_for_the_function_is_one_error_line(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert handle({"action": "rebuild"}, env=ENV, s3=s3)["status"] == "ok"
    monkeypatch.setattr(sitemill.scaleout.partitioned, "MAX_TOUCHED", 0)
    requests = Requests(s3)
    answer = handle_diff(EVENT, env=ENV, s3=s3)
    assert answer == {"status": "error", "error": DIFF_TOO_BIG.format(why="1 shards, more than 0")}
    assert requests.count("ListObjectsV2") == 0  # (the plan says so: no listing)


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ({"action": "diff", "dry_run": True}, "unknown key 'dry_run' in a diff event"),
        ({"action": "diff", "bucket": 3}, '"bucket" must be a bucket name'),
        (
            {"action": "diff", "bucket": "another"},
            f"this function diffs {BUCKET} (SITEMILL_BUCKET)",
        ),
    ],
)
def test_a_malformed_diff_event_is_one_error(s3: Any, event: dict[str, Any], error: str) -> None:
    answer = handle_diff(event, env=ONE_STATE, s3=s3)
    assert answer["status"] == "error" and error in answer["error"]


def test_a_bucket_without_a_state_has_nothing_to_compare_with(s3: Any) -> None:
    answer = handle_diff(EVENT, env=ONE_STATE, s3=s3)
    assert answer == {"status": "error", "error": f"no state to compare with at {STATE}"}


def test_the_entry_routes_a_diff_event(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ONE_STATE.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("lambda_entry", ROOT / "lambda" / "handler.py")
    assert spec is not None and spec.loader is not None
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    monkeypatch.setattr(sitemill.aws._command, "make_s3_client", lambda: s3)
    answer = entry.handler(EVENT, None)
    assert answer == {"status": "error", "error": f"no state to compare with at {STATE}"}


def test_the_summary_and_its_log_line_name_what_the_rebuild_removed(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    first = handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)
    assert "removed" not in first and "removed_count" not in first  # (a first run cannot tell)
    capsys.readouterr()
    s3.delete_object(Bucket=BUCKET, Key="p3.html")
    summary = handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)
    removed = [{"url": f"{BASE}p3.html", "verdict": "gone"}]
    assert (summary["removed"], summary["removed_count"]) == (removed, 1)
    logged = summary_line(capsys)
    assert (logged["removed"], logged["removed_count"]) == (removed, 1)
    summary = handle({"action": "rebuild"}, env=ONE_STATE, s3=s3)  # (nothing more removed)
    assert (summary["removed"], summary["removed_count"]) == ([], 0)
