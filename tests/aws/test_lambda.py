"""The Lambda: event shapes, filtering, one rebuild per batch, SQS failures, logs, CloudFront."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import pytest

import sitemill.aws.rebuild
from s3util import BASE, BUCKET, PAGE, Requests, moto_bucket, restored_logging
from sitemill.aws._cloudfront import caller_reference, invalidation_paths
from sitemill.aws._selection import select_changes
from sitemill.aws.events import ObjectChange, parse_event
from sitemill.aws.handler import handle
from sitemill.errors import ConfigError, EventError, SinkError, SourceError
from sitemill.filenames.outputs import is_own_name
from sitemill.shards.plan import shard_id
from xsd import assert_xsd_valid

EVENTS = Path(__file__).resolve().parents[1] / "events"
ROOT = Path(__file__).resolve().parents[2]
ENV = {"SITEMILL_BASE_URL": BASE}


def event(name: str) -> Any:
    return json.loads((EVENTS / name).read_text(encoding="utf-8"))


class FakeCloudFront:
    """Records invalidations; fails when told to."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail = fail

    def create_invalidation(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.fail:
            raise RuntimeError("AccessDenied: not allowed")
        return {"Invalidation": {"Id": "I2J0I21PCUYOIK", "Status": "InProgress"}}


class Context:
    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e812345678"


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        for key in ("index.html", "about.html", "docs/a b+c%d café.html", "assets/site.css"):
            client.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
        yield client


def log_lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def summary_line(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    (line,) = [line for line in log_lines(capsys) if line["message"] == "sitemill summary"]
    return line


def index(client: Any, key: str = "sitemap.xml") -> bytes:
    data: bytes = client.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    return data


def sitemap_objects(client: Any) -> dict[str, bytes]:
    """Every object whose key starts with "sitemap", with its bytes."""
    listing = client.list_objects_v2(Bucket=BUCKET, Prefix="sitemap")
    return {item["Key"]: index(client, item["Key"]) for item in listing.get("Contents", [])}


# The S3 calls that create an object, and the notification each one sends.
CREATIONS = {
    "PutObject": "ObjectCreated:Put",
    "CopyObject": "ObjectCreated:Copy",
    "CompleteMultipartUpload": "ObjectCreated:CompleteMultipartUpload",
}


class S3Changes:
    """The objects a client creates and deletes, as S3 would then notify them."""

    def __init__(self, client: Any) -> None:
        self.changes: list[tuple[str, str]] = []  # (eventName, key)
        client.meta.events.register("provide-client-params.s3.*", self._note)

    def _note(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name in CREATIONS:
            self.changes.append((CREATIONS[model.name], params["Key"]))
        elif model.name == "DeleteObject":
            self.changes.append(("ObjectRemoved:Delete", params["Key"]))
        elif model.name == "DeleteObjects":
            for item in params["Delete"]["Objects"]:
                self.changes.append(("ObjectRemoved:Delete", item["Key"]))

    def take(self) -> list[tuple[str, str]]:
        taken, self.changes = self.changes, []
        return taken


def sqs_batch(changes: list[tuple[str, str]]) -> dict[str, Any]:
    """An SQS batch as the queue delivers S3's notifications: one record per message."""
    template = event("sqs_s3_batch.json")["Records"][1]
    messages = []
    for number, (name, key) in enumerate(changes):
        note = event("s3_delete.json")
        note["Records"][0]["eventName"] = name
        note["Records"][0]["s3"]["object"]["key"] = quote_plus(key, safe="/")
        message = copy.deepcopy(template)
        message["messageId"] = f"message-{number}"
        message["body"] = json.dumps(note)
        messages.append(message)
    return {"Records": messages}


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The buckets the handler rebuilds, in order (the real rebuild still runs)."""
    calls: list[str] = []
    real = sitemill.aws.rebuild.build_bucket

    def counted(config: Any, client: Any, site: Any, **options: Any) -> Any:
        calls.append(site.bucket)
        return real(config, client, site, **options)

    monkeypatch.setattr(sitemill.aws.rebuild, "build_bucket", counted)
    return calls


# --- reading events ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "sqs", "changes", "ignored"),
    [
        ("s3_put.json", False, [ObjectChange(BUCKET, "docs/a b+c%d café.html")], {}),
        ("s3_delete.json", False, [ObjectChange(BUCKET, "blog/old post.html", deleted=True)], {}),
        ("s3_sitemap_removed.json", False, [ObjectChange(BUCKET, "sitemap.xml", deleted=True)], {}),
        (
            "sqs_s3_batch.json",
            True,
            [
                ObjectChange(BUCKET, "index.html"),
                ObjectChange(BUCKET, "assets/site.css"),
                ObjectChange(BUCKET, "blog/old post.html", deleted=True),
                ObjectChange(BUCKET, "sitemap.xml"),
            ],
            {},
        ),
        (
            "sqs_stale_children_removed.json",
            True,
            [ObjectChange(BUCKET, f"sitemap-{number}.xml", deleted=True) for number in (4, 5, 6)],
            {},
        ),
        ("sqs_test_event.json", True, [], {"test_event": 1}),
        ("eventbridge_created.json", False, [ObjectChange(BUCKET, "news & notes/a b+c.html")], {}),
        (
            "eventbridge_deleted.json",
            False,
            [ObjectChange(BUCKET, "blog/old post.html", deleted=True)],
            {},
        ),
        (
            "eventbridge_sitemap_deleted.json",
            False,
            [ObjectChange(BUCKET, "sitemap.xml", deleted=True)],
            {},
        ),
        ("eventbridge_sitemap_created.json", False, [ObjectChange(BUCKET, "sitemap.xml")], {}),
        ("s3_state_written.json", False, [ObjectChange(BUCKET, "sitemill-state.json.gz")], {}),
        (
            "eventbridge_state_created.json",
            False,
            [ObjectChange(BUCKET, "sitemill-state.json.gz")],
            {},
        ),
        (
            "eventbridge_state_deleted.json",
            False,
            [ObjectChange(BUCKET, "sitemill-state.json.gz", deleted=True)],
            {},
        ),
        ("rebuild.json", False, [], {}),
    ],
)
def test_event_shapes(
    name: str, sqs: bool, changes: list[ObjectChange], ignored: dict[str, int]
) -> None:
    trigger = parse_event(event(name))
    assert trigger.from_sqs is sqs
    assert trigger.changes == changes
    assert trigger.ignored == ignored
    assert trigger.bad_messages == {}
    assert trigger.rebuild is (name == "rebuild.json")


@pytest.mark.parametrize(
    ("encoded", "key"),
    [
        ("a+b.html", "a b.html"),
        ("a%2Bb.html", "a+b.html"),
        ("100%25.html", "100%.html"),
        ("caf%C3%A9/%E6%97%A5%E6%9C%AC.html", "café/日本.html"),
        ("docs%2Fguide.html", "docs/guide.html"),  # other encoders also escape "/"
    ],
)
@pytest.mark.parametrize("name", ["s3_put.json", "s3_delete.json"])
def test_notification_keys_are_unquote_plus_decoded(encoded: str, key: str, name: str) -> None:
    body = event(name)
    body["Records"][0]["s3"]["object"]["key"] = encoded
    deleted = name == "s3_delete.json"
    assert parse_event(body).changes == [ObjectChange(BUCKET, key, deleted=deleted)]


@pytest.mark.parametrize(
    ("key", "decoded"),
    [
        ("sitemap.xml", "sitemap.xml"),
        ("site/sitemap-3.xml.gz", "site/sitemap-3.xml.gz"),
        ("a+b%2Bc d.html", "a+b%2Bc d.html"),  # EventBridge keys are not encoded
    ],
)
def test_eventbridge_deletions_keep_the_key_as_it_is(key: str, decoded: str) -> None:
    body = event("eventbridge_deleted.json")
    body["detail"]["object"]["key"] = key
    assert parse_event(body).changes == [ObjectChange(BUCKET, decoded, deleted=True)]


@pytest.mark.parametrize(
    ("name", "deleted"),
    [
        ("ObjectCreated:Put", False),
        ("ObjectCreated:Copy", False),
        ("ObjectCreated:CompleteMultipartUpload", False),
        ("ObjectRemoved:Delete", True),
        ("ObjectRemoved:DeleteMarkerCreated", True),
        ("LifecycleExpiration:Delete", True),
        ("LifecycleExpiration:DeleteMarkerCreated", True),
        ("ObjectRestore:Completed", None),
        ("ObjectTagging:Put", None),
    ],
)
def test_s3_event_names_tell_creations_from_deletions(name: str, deleted: bool | None) -> None:
    body = event("s3_sitemap_removed.json")
    body["Records"][0]["eventName"] = name
    trigger = parse_event(body)
    if deleted is None:
        assert (trigger.changes, trigger.ignored) == ([], {"other_event": 1})
    else:
        assert trigger.changes == [ObjectChange(BUCKET, "sitemap.xml", deleted=deleted)]


def test_rebuild_event_options() -> None:
    trigger = parse_event(event("rebuild_dry_run.json"))
    assert (trigger.rebuild, trigger.bucket, trigger.dry_run) == (True, BUCKET, True)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (event("malformed.json"), r"Records\[0\]\.s3\.object\.key is missing"),
        (event("unknown.json"), "not an S3 notification.*top-level keys: hello"),
        ([1, 2], "the event is a JSON list, not an object"),
        ({"action": "delete"}, "unknown action 'delete'"),
        ({"action": "rebuild", "dryrun": True}, "unknown key 'dryrun'"),
        ({"action": "rebuild", "dry_run": "maybe"}, "dry_run: 'maybe' is not a boolean"),
        ({"action": "rebuild", "bucket": 7}, '"bucket" must be a non-empty string'),
        ({"Records": [{"eventSource": "aws:sqs"}]}, "has no messageId"),
    ],
)
def test_malformed_events_are_clear_errors(body: Any, message: str) -> None:
    with pytest.raises(EventError, match=message):
        parse_event(body)


def test_selection_filters_buckets_prefix_own_outputs_and_non_pages() -> None:
    changes = [
        ObjectChange(BUCKET, "site/index.html"),
        ObjectChange(BUCKET, "site/robots.txt"),
        ObjectChange(BUCKET, "site/sitemap-3.xml"),
        ObjectChange(BUCKET, "site/blog/sitemap.xml"),  # not ours; not a page either
        ObjectChange(BUCKET, "elsewhere/index.html"),
        ObjectChange("other-bucket", "site/index.html"),
    ]
    selection = select_changes(
        changes,
        bucket=BUCKET,
        root="site/",
        affects_sitemaps=lambda p: p.endswith((".html", ".txt")),
    )
    assert selection.relevant == 2
    assert selection.sitemap_deletions == 0
    assert selection.buckets == {BUCKET}
    assert selection.ignored == {
        "own_output": 1,
        "not_a_page": 1,
        "outside_prefix": 1,
        "other_bucket": 1,
    }


def test_selection_counts_deletions_of_sitemills_files() -> None:
    changes = [
        ObjectChange(BUCKET, "site/sitemap.xml", deleted=True),
        ObjectChange(BUCKET, "site/sitemap-3.xml", deleted=True),
        ObjectChange(BUCKET, "site/sitemap-index-2.xml", deleted=True),
        ObjectChange(BUCKET, "site/sitemap-4.txt.gz", deleted=True),
        ObjectChange(BUCKET, "site/sitemap.xml"),  # written by sitemill: ignored
        ObjectChange(BUCKET, "site/old.html", deleted=True),  # a page: relevant as ever
        ObjectChange(BUCKET, "site/blog/sitemap.xml", deleted=True),  # not ours, not a page
        ObjectChange(BUCKET, "site/sitemap.xml.bak", deleted=True),  # not ours, not a page
        ObjectChange(BUCKET, "sitemap.xml", deleted=True),  # outside the prefix
        ObjectChange("other-bucket", "site/sitemap.xml", deleted=True),
        # The state: its write is sitemill's own; its deletion changes no sitemap.
        ObjectChange(BUCKET, "site/sitemill-state.json.gz"),
        ObjectChange(BUCKET, "site/sitemill-state.json.gz", deleted=True),
        ObjectChange(BUCKET, "site/blog/sitemill-state.json.gz", deleted=True),  # not ours
        # A staging copy a publish deleted once its final index was live: nothing changed.
        ObjectChange(BUCKET, "site/sitemap-2-next-20261123101500-1a2b3c.xml", deleted=True),
        ObjectChange(BUCKET, "site/sitemap-2-next.xml.gz", deleted=True),  # earlier versions'
    ]
    selection = select_changes(
        changes, bucket=BUCKET, root="site/", affects_sitemaps=lambda p: p.endswith(".html")
    )
    assert (selection.relevant, selection.sitemap_deletions) == (5, 4)
    assert selection.buckets == {BUCKET}
    assert selection.ignored == {
        "own_output": 2,
        "state_deleted": 1,
        "staging_deleted": 2,
        "not_a_page": 3,
        "outside_prefix": 1,
        "other_bucket": 1,
    }


# --- handling invocations ------------------------------------------------------------------


def test_s3_notification_rebuilds_and_returns_the_summary(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    result = handle(event("s3_put.json"), Context(), env=ENV, s3=s3)
    assert result.pop("duration_ms") >= 0
    assert result == {
        "status": "ok",
        "bucket": BUCKET,
        "urls": 3,
        "sitemaps": 1,
        "written": 1,
        "unchanged": 0,
        "deleted": 0,
        "pages_read": 3,  # a ranged GET of each HTML page's head
        "pages_reused": 0,
        "state": "written",
        # A first run over one upload's times: no evidence, no <lastmod> (docs/lastmod.md).
        "dates": {"no date (upload times are one sync's)": 3},
        # GETs of robots.txt, the state (none yet) and 3 page heads; PUTs of the sitemap and
        # the state
        "requests": {"GET": 5, "LIST": 1, "PUT": 2},
        "relevant": 1,
    }
    assert_xsd_valid(index(s3))
    assert b"docs/a%20b%2Bc%25d%20caf%C3%A9.html" in index(s3)
    line = summary_line(capsys)
    assert line["level"] == "INFO"
    assert line["request_id"] == Context.aws_request_id
    assert (line["urls"], line["written"], line["records"]) == (3, 1, 1)
    assert isinstance(line["duration_ms"], int)

    requests = Requests(s3)
    again = handle(event("s3_put.json"), Context(), env=ENV, s3=s3)
    assert (again["written"], again["unchanged"]) == (0, 1)
    assert (again["pages_read"], again["pages_reused"], again["state"]) == (0, 3, "unchanged")
    assert again["requests"] == {"GET": 3, "LIST": 1}  # what the report counts, as the hook
    # Nothing changed: one listing, no write, and no page read again: GETs only of robots.txt
    # and sitemill's own files (the state; the live index is read again before deleting).
    assert set(requests.summary()) == {"ListObjectsV2", "GetObject"}
    assert requests.count("ListObjectsV2") == 1
    read = [key for operation, key in requests.calls if operation == "GetObject"]
    assert read[:2] == ["robots.txt", "sitemill-state.json.gz"]
    assert all(key == "robots.txt" or is_own_name(key) for key in read), read


def test_sqs_batch_of_ten_thousand_records_costs_one_rebuild(s3: Any) -> None:
    batch = event("sqs_s3_batch.json")
    template = batch["Records"][0]
    records = []
    for number in range(10_000):
        record = copy.deepcopy(template)
        record["messageId"] = f"message-{number}"
        note = json.loads(record["body"])
        note["Records"] = note["Records"][:1]
        note["Records"][0]["s3"]["object"]["key"] = f"uploads/page-{number}.html"
        record["body"] = json.dumps(note)
        records.append(record)
    requests = Requests(s3)
    result = handle({"Records": records}, Context(), env=ENV, s3=s3)
    assert result["batchItemFailures"] == []
    assert result["relevant"] == 10_000
    # One rebuild: one LIST; GETs of robots.txt, the state and the head of each of the three
    # HTML pages (whatever the number of records); PUTs of the sitemap and the state.
    assert requests.summary() == {"ListObjectsV2": 1, "GetObject": 5, "PutObject": 2}
    gets = [key for operation, key in requests.calls if operation == "GetObject"]
    assert gets[:2] == ["robots.txt", "sitemill-state.json.gz"]
    assert sorted(gets[2:]) == ["about.html", "docs/a b+c%d café.html", "index.html"]
    puts = [key for operation, key in requests.calls if operation == "PutObject"]
    assert puts == ["sitemap.xml", "sitemill-state.json.gz"]


def test_summary_counts_page_reads_skips_by_reason_and_the_state(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    redirect = b'<!doctype html><meta http-equiv="refresh" content="0; url=/about.html">'
    noindex = b'<!doctype html><meta name="robots" content="noindex"><title>draft</title>'
    s3.put_object(Bucket=BUCKET, Key="old.html", Body=redirect)
    s3.put_object(Bucket=BUCKET, Key="draft.html", Body=noindex)
    env = ENV | {"SITEMILL_BUCKET": BUCKET}

    def rebuild(**options: Any) -> dict[str, Any]:
        result = handle({"action": "rebuild", **options}, Context(), env=env, s3=s3)
        line = summary_line(capsys)
        for name in ("pages_read", "pages_reused", "state", "skipped"):
            assert line.get(name) == result.get(name), name  # the log says the same
        return result

    fields = ("urls", "pages_read", "pages_reused", "state", "skipped")
    dry = rebuild(dry_run=True)
    skipped = {"noindex": 1, "redirect": 1}
    assert [dry[name] for name in fields] == [3, 5, 0, "would write", skipped]
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    assert "sitemill-state.json.gz" not in keys and "sitemap.xml" not in keys
    first = rebuild()  # a dry run leaves no state: every head is read again
    assert [first[name] for name in fields] == [3, 5, 0, "written", skipped]
    s3.put_object(Bucket=BUCKET, Key="draft.html", Body=PAGE)  # published: a new ETag
    second = rebuild()
    assert [second[name] for name in fields] == [4, 1, 4, "written", {"redirect": 1}]
    third = rebuild()
    assert [third[name] for name in fields] == [4, 0, 5, "unchanged", {"redirect": 1}]
    assert (third["written"], third["deleted"]) == (0, 0)


@pytest.mark.parametrize(
    ("name", "env", "ignored"),
    [
        ("s3_own_output.json", {}, {"own_output": 2}),
        ("eventbridge_sitemap_created.json", {}, {"own_output": 1}),
        ("s3_state_written.json", {}, {"own_output": 1}),
        ("eventbridge_state_created.json", {}, {"own_output": 1}),
        ("eventbridge_state_deleted.json", {}, {"state_deleted": 1}),
        ("s3_sitemap_removed.json", {"SITEMILL_PREFIX": "site/"}, {"outside_prefix": 1}),
        ("s3_sitemap_removed.json", {"SITEMILL_BUCKET": "another-bucket"}, {"other_bucket": 1}),
        ("sqs_test_event.json", {}, {"test_event": 1}),
        ("s3_put.json", {"SITEMILL_PREFIX": "site/"}, {"outside_prefix": 1}),
        ("s3_put.json", {"SITEMILL_BUCKET": "another-bucket"}, {"other_bucket": 1}),
        ("s3_put.json", {"SITEMILL_INCLUDE": "**/*.pdf"}, {"not_a_page": 1}),
    ],
)
def test_events_that_cannot_change_a_sitemap_trigger_nothing(
    s3: Any, name: str, env: dict[str, str], ignored: dict[str, int]
) -> None:
    requests = Requests(s3)
    result = handle(event(name), Context(), env=ENV | env, s3=s3)
    assert result["status"] == "skipped"
    # The function's bucket (SITEMILL_BUCKET), or the one the events come from, or no key
    # (a test event names none): never null.
    assert result.get("bucket", "left out") is not None
    if "SITEMILL_BUCKET" in env:
        assert result["bucket"] == env["SITEMILL_BUCKET"]
    elif name != "sqs_test_event.json":
        assert result["bucket"] == BUCKET
    assert result.get("ignored", {}) == ignored
    assert result.get("batchItemFailures", []) == []
    # A write of a sitemap costs a read of the record of what sitemill published (here the
    # state, absent) and a HEAD of the entry file (another writer's is restored: below).
    read = {("GetObject", "sitemill-state.json.gz"), ("HeadObject", "sitemap.xml")}
    assert [call for call in requests.calls if call not in read] == []


@pytest.mark.parametrize("key", ["404.html", "404/index.html", "fr/404.htm", "_static/theme.pdf"])
def test_a_built_in_exclude_changed_triggers_nothing(s3: Any, key: str) -> None:
    # The 404 page in any spelling and Sphinx theme assets are never listed: no rebuild.
    requests = Requests(s3)
    body = event("eventbridge_created.json")
    body["detail"]["object"]["key"] = key
    result = handle(body, Context(), env=ENV, s3=s3)
    assert (result["status"], result.get("ignored")) == ("skipped", {"not_a_page": 1})
    assert requests.calls == []


def test_sqs_failure_returns_every_message_for_retry(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    body = event("sqs_s3_batch.json")
    for record in body["Records"]:
        note = json.loads(record["body"])
        for item in note["Records"]:
            item["s3"]["bucket"]["name"] = "missing-bucket"
        record["body"] = json.dumps(note)
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "error"
    assert "NoSuchBucket" in result["error"]
    assert result["batchItemFailures"] == [
        {"itemIdentifier": record["messageId"]} for record in body["Records"]
    ]
    line = summary_line(capsys)
    assert (line["level"], line["status"], line["messages"]) == ("ERROR", "error", 3)


def test_unreadable_sqs_message_is_failed_alone_and_the_rest_rebuilds(
    s3: Any, capsys: pytest.CaptureFixture[str], rebuilds: list[str]
) -> None:
    body = event("sqs_malformed_body.json")
    bad = body["Records"][0]["messageId"]
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "ok"
    assert "error" not in result
    assert result["written"] == 1
    assert rebuilds == [BUCKET]
    assert result["batchItemFailures"] == [{"itemIdentifier": bad}]
    lines = log_lines(capsys)
    (complaint,) = [line for line in lines if line["level"] == "ERROR"]
    assert complaint["message"].startswith(f"SQS message {bad} cannot be read: the body is not")
    (summary,) = [line for line in lines if line["message"] == "sitemill summary"]
    assert (summary["level"], summary["bad_messages"], summary["messages"]) == ("INFO", 1, 2)


def test_a_message_nested_past_the_recursion_limit_is_failed_alone(
    s3: Any, capsys: pytest.CaptureFixture[str], rebuilds: list[str]
) -> None:
    body = event("sqs_malformed_body.json")
    bad = body["Records"][0]["messageId"]
    body["Records"][0]["body"] = "[" * 100_000 + "]" * 100_000  # (issue 78: a RecursionError)
    result = handle(body, Context(), env=ENV, s3=s3)
    assert (result["status"], result["written"], rebuilds) == ("ok", 1, [BUCKET])
    assert result["batchItemFailures"] == [{"itemIdentifier": bad}]
    (complaint,) = [line for line in log_lines(capsys) if line["level"] == "ERROR"]
    assert complaint["message"] == (
        f"SQS message {bad} cannot be read: the body is nested too deep to read"
    )


def test_a_batch_of_only_unreadable_messages_is_an_error(
    s3: Any, capsys: pytest.CaptureFixture[str], rebuilds: list[str]
) -> None:
    body = event("sqs_all_malformed.json")
    ids = [record["messageId"] for record in body["Records"]]
    requests = Requests(s3)
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "error"
    assert result["error"] == (
        "malformed event: none of the 2 SQS messages can be read; the first, "
        f"{ids[0]}: the body is not JSON (Expecting value at character 0)"
    )
    assert result["batchItemFailures"] == [{"itemIdentifier": message_id} for message_id in ids]
    assert (rebuilds, requests.calls) == ([], [])
    lines = log_lines(capsys)
    summary = [line for line in lines if line["message"] == "sitemill summary"]
    assert [(line["level"], line["error"]) for line in summary] == [("ERROR", result["error"])]
    assert summary[0]["bad_messages"] == 2
    complaints = [line["message"] for line in lines if line["message"] != "sitemill summary"]
    assert complaints[1] == f"SQS message {ids[1]} cannot be read: " + (
        "not an S3 notification, EventBridge S3 event, s3:TestEvent or "
        '{"action": "rebuild"} (top-level keys: hello)'
    )


def test_a_message_that_fails_part_way_counts_for_nothing(s3: Any, rebuilds: list[str]) -> None:
    body = event("sqs_s3_batch.json")
    body["Records"] = body["Records"][:1]
    note = json.loads(body["Records"][0]["body"])
    note["Records"].append(event("malformed.json")["Records"][0])
    body["Records"][0]["body"] = json.dumps(note)
    message_id = body["Records"][0]["messageId"]
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "error"
    assert result["error"] == (
        f"malformed event: SQS message {message_id} cannot be read: "
        "Records[2].s3.object.key is missing or not a string"
    )
    assert result["batchItemFailures"] == [{"itemIdentifier": message_id}]
    assert rebuilds == []  # its readable first record did not start a rebuild


def test_a_queued_rebuild_request_is_not_accepted(s3: Any, rebuilds: list[str]) -> None:
    body = event("sqs_test_event.json")
    body["Records"][0]["body"] = json.dumps({"action": "rebuild", "dry_run": True})
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "error"
    assert "cannot be read: not an S3 notification" in result["error"]
    assert result["batchItemFailures"] == [{"itemIdentifier": body["Records"][0]["messageId"]}]
    assert rebuilds == []


def test_direct_invocation_failure_raises(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match="NoSuchBucket"):
        handle({"action": "rebuild", "bucket": "missing-bucket"}, Context(), env=ENV, s3=s3)
    assert summary_line(capsys)["status"] == "error"


# Secrets of the function's environment, unique to this test (redaction is process-wide).
INDEXNOW_KEY, SESSION_TOKEN = "k39-redacted-indexnow-key-55e1", "k39-session-token-AQoDYXdzEJr"


@pytest.mark.parametrize("sqs", [False, True], ids=["direct", "sqs"])
def test_an_unexpected_errors_text_is_redacted_in_the_answer_and_the_log(
    s3: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, sqs: bool
) -> None:
    """An exception sitemill did not expect may quote anything (issue 39, item 10): the
    IndexNow key and the secrets of the environment reach neither the answer nor the log."""

    def crash(*args: Any, **options: Any) -> Any:
        raise RuntimeError(f"broken near {INDEXNOW_KEY} with {SESSION_TOKEN}")

    monkeypatch.setattr(sitemill.aws.rebuild, "build_bucket", crash)
    env = {**ENV, "SITEMILL_INDEXNOW_KEY": INDEXNOW_KEY, "AWS_SESSION_TOKEN": SESSION_TOKEN}
    if sqs:
        answer = str(
            handle(sqs_batch([("ObjectCreated:Put", "a.html")]), Context(), env=env, s3=s3)
        )
    else:
        with pytest.raises(Exception, match="broken near") as raised:
            handle({"action": "rebuild", "bucket": BUCKET}, Context(), env=env, s3=s3)
        answer = f"{raised.value!r} {raised.value}"
    logged = capsys.readouterr().out
    assert "broken near ***" in answer and "broken near ***" in logged
    for secret in (INDEXNOW_KEY, SESSION_TOKEN):
        assert secret not in answer and secret not in logged


def test_missing_base_url_is_a_config_error(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="base_url: is required") as raised:
        handle(event("rebuild.json"), Context(), env={"SITEMILL_BUCKET": BUCKET}, s3=s3)
    # What a stack's user sets: the parameter, not the CLI's flags.
    assert "the stack's BaseUrl parameter" in str(raised.value)
    assert "--base-url" not in str(raised.value) and "sitemill.toml" not in str(raised.value)
    assert summary_line(capsys)["bucket"] == BUCKET  # (issue 41: was null)
    result = handle(event("sqs_s3_batch.json"), Context(), env={}, s3=s3)
    assert len(result["batchItemFailures"]) == 3
    # The bucket the events come from, although the run failed before choosing it.
    assert (result["status"], result["bucket"]) == ("error", BUCKET)


@pytest.mark.parametrize("name", ["malformed.json", "unknown.json"])
def test_malformed_event_is_reported_not_raised_and_writes_nothing(
    s3: Any, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    requests = Requests(s3)
    result = handle(event(name), Context(), env=ENV, s3=s3)
    assert result["status"] == "error"
    assert result["error"].startswith("malformed event: ")
    assert requests.calls == []
    line = summary_line(capsys)
    assert (line["level"], line["error"]) == ("ERROR", result["error"])


def test_manual_rebuild_dry_run_writes_nothing(s3: Any) -> None:
    requests = Requests(s3)
    result = handle(event("rebuild_dry_run.json"), Context(), env=ENV, s3=s3)
    assert result["dry_run"] is True
    assert result["would_write"] == ["sitemap.xml"]
    assert "PutObject" not in requests.summary()


def test_manual_rebuild_uses_sitemill_bucket_and_refuses_another(s3: Any) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET}
    assert handle(event("rebuild.json"), Context(), env=env, s3=s3)["bucket"] == BUCKET
    with pytest.raises(ConfigError, match="rebuilds site-bucket"):
        handle({"action": "rebuild", "bucket": "other"}, Context(), env=env, s3=s3)
    with pytest.raises(ConfigError, match='give "bucket"'):
        handle(event("rebuild.json"), Context(), env=ENV, s3=s3)


def test_prefix_and_eventbridge(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="site/news & notes/a b+c.html", Body=PAGE)
    env = ENV | {"SITEMILL_PREFIX": "site", "SITEMILL_BASE_URL": BASE + "docs/"}
    result = handle(event("eventbridge_created.json"), Context(), env=env, s3=s3)
    assert result["status"] == "skipped"  # the event's key is outside "site/"
    body = event("eventbridge_created.json")
    body["detail"]["object"]["key"] = "site/news & notes/a b+c.html"
    result = handle(body, Context(), env=env, s3=s3)
    assert (result["status"], result["urls"]) == ("ok", 1)
    assert b"https://example.com/docs/news%20&amp;%20notes/a%20b%2Bc.html" in index(
        s3, "site/sitemap.xml"
    )


def test_cloudfront_invalidation_of_changed_files_only(s3: Any) -> None:
    env = ENV | {
        "SITEMILL_CLOUDFRONT_DISTRIBUTION_ID": "E2EXAMPLE",
        "SITEMILL_MAX_URLS": "1",
        "SITEMILL_SHARDS": "off",
    }
    cloudfront = FakeCloudFront()
    result = handle(
        event("rebuild.json") | {"bucket": BUCKET}, Context(), env=env, s3=s3, cloudfront=cloudfront
    )
    (call,) = cloudfront.calls
    assert call["DistributionId"] == "E2EXAMPLE"
    paths = call["InvalidationBatch"]["Paths"]
    assert paths == {
        "Quantity": 4,
        "Items": ["/sitemap-1.xml", "/sitemap-2.xml", "/sitemap-3.xml", "/sitemap.xml"],
    }
    reference = call["InvalidationBatch"]["CallerReference"]
    assert reference.startswith(f"sitemill-{Context.aws_request_id}-")
    assert result["invalidation"]["id"] == "I2J0I21PCUYOIK"
    handle(
        event("rebuild.json") | {"bucket": BUCKET}, Context(), env=env, s3=s3, cloudfront=cloudfront
    )
    assert len(cloudfront.calls) == 1  # nothing changed: nothing to invalidate


def test_many_changed_files_are_invalidated_with_one_wildcard() -> None:
    changed = [f"sitemap-{number}.xml" for number in range(1, 20)] + ["robots.txt"]
    assert invalidation_paths("/blog/", changed) == ["/blog/sitemap*", "/blog/robots.txt"]
    assert invalidation_paths("/", ["sitemap.xml"]) == ["/sitemap.xml"]
    assert caller_reference("r1", ["/a"]) == caller_reference("r1", ["/a"])
    assert caller_reference("r1", ["/a"]) != caller_reference("r1", ["/b"])
    assert caller_reference(None, ["/a"]) != caller_reference(None, ["/a"])


def test_cloudfront_failure_is_logged_not_raised(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    env = ENV | {"SITEMILL_CLOUDFRONT_DISTRIBUTION_ID": "E2EXAMPLE"}
    body = {"action": "rebuild", "bucket": BUCKET}
    result = handle(body, Context(), env=env, s3=s3, cloudfront=FakeCloudFront(fail=True))
    assert result["status"] == "ok"
    assert result["invalidation"]["error"] == "RuntimeError"
    lines = log_lines(capsys)
    assert any(line["message"].startswith("CloudFront invalidation failed") for line in lines)


def test_log_level_from_env(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    handle(
        event("rebuild.json"),
        Context(),
        env=ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_LOG_LEVEL": "warning"},
        s3=s3,
    )
    assert log_lines(capsys) == []
    handle(
        event("rebuild.json"),
        Context(),
        env=ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_LOG_LEVEL": "loud"},
        s3=s3,
    )
    messages = [line["message"] for line in log_lines(capsys)]
    assert messages[0] == "SITEMILL_LOG_LEVEL 'loud' is not a level name; using INFO"
    assert "sitemill summary" in messages


def test_the_thin_entry_point(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("lambda_handler", ROOT / "lambda" / "handler.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("SITEMILL_BASE_URL", BASE)
    monkeypatch.setenv("SITEMILL_BUCKET", BUCKET)
    result = module.handler(event("rebuild.json"), Context())  # builds its own client (moto)
    assert (result["status"], result["urls"]) == ("ok", 3)


# --- deletions of sitemill's own files -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key", "max_urls"),
    [
        ("s3_sitemap_removed.json", "sitemap.xml", "50000"),
        ("eventbridge_sitemap_deleted.json", "sitemap.xml", "50000"),
        ("s3_sitemap_removed.json", "sitemap.xml", "1"),  # the index of three children
        ("s3_sitemap_removed.json", "sitemap-3.xml", "1"),
        ("eventbridge_sitemap_deleted.json", "sitemap-3.xml", "1"),
    ],
)
def test_a_removed_sitemap_is_put_back(
    s3: Any, rebuilds: list[str], name: str, key: str, max_urls: str
) -> None:
    # (children split by count: the events name sitemap-3.xml)
    env = ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_MAX_URLS": max_urls, "SITEMILL_SHARDS": "off"}
    assert handle(event("rebuild.json"), Context(), env=env, s3=s3)["status"] == "ok"
    live = sitemap_objects(s3)
    assert key in live
    s3.delete_object(Bucket=BUCKET, Key=key)
    body = event(name)
    if "Records" in body:
        body["Records"][0]["s3"]["object"]["key"] = key
    else:
        body["detail"]["object"]["key"] = key
    result = handle(body, Context(), env=env, s3=s3)
    assert result["status"] == "ok"
    assert (result["relevant"], result["sitemap_deletions"]) == (1, 1)
    assert "ignored" not in result
    assert rebuilds == [BUCKET, BUCKET]
    assert sitemap_objects(s3) == live
    assert_xsd_valid(index(s3, key))


def test_sync_delete_of_a_build_without_sitemaps_puts_them_back(
    s3: Any, rebuilds: list[str]
) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_MAX_URLS": "1", "SITEMILL_SHARDS": "off"}
    assert handle(event("rebuild.json"), Context(), env=env, s3=s3)["status"] == "ok"
    live = sitemap_objects(s3)
    assert {"sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"} <= set(live)
    # `aws s3 sync dist/ s3://bucket --delete`, where dist/ has the pages but no sitemaps:
    # every sitemap object goes, and S3 sends one notification per deletion.
    deploy = S3Changes(s3)
    for key in live:
        s3.delete_object(Bucket=BUCKET, Key=key)
    assert sitemap_objects(s3) == {}
    batch = sqs_batch(deploy.take())
    result = handle(batch, Context(), env=env, s3=s3)
    assert result["status"] == "ok"
    assert result["batchItemFailures"] == []
    assert result["relevant"] == result["sitemap_deletions"] == len(live)
    assert rebuilds == [BUCKET, BUCKET]  # the whole batch: one rebuild
    assert sitemap_objects(s3) == live


def test_deletions_by_sitemills_own_cleanup_cost_one_rebuild_that_writes_nothing(
    s3: Any, rebuilds: list[str]
) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_MAX_URLS": "1"}
    handle(event("rebuild.json"), Context(), env=env, s3=s3)
    live = sitemap_objects(s3)
    rebuilds.clear()
    own = S3Changes(s3)
    # The notifications of an earlier run's stale-child cleanup (sitemap-4.xml and on).
    result = handle(event("sqs_stale_children_removed.json"), Context(), env=env, s3=s3)
    assert result["status"] == "ok"
    assert result["batchItemFailures"] == []
    assert (result["relevant"], result["sitemap_deletions"]) == (3, 3)
    assert rebuilds == [BUCKET]
    assert (result["written"], result["deleted"]) == (0, 0)
    assert own.take() == []  # nothing written or deleted: no further notification
    assert sitemap_objects(s3) == live


def test_feeding_sitemills_own_changes_back_settles_at_once(s3: Any, rebuilds: list[str]) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_MAX_URLS": "1"}
    handle(event("rebuild.json"), Context(), env=env, s3=s3)
    own = S3Changes(s3)
    # Two pages go: the next rebuild writes fewer children and deletes the stale ones.
    s3.delete_object(Bucket=BUCKET, Key="about.html")
    s3.delete_object(Bucket=BUCKET, Key="docs/a b+c%d café.html")
    result = handle(sqs_batch(own.take()), Context(), env=env, s3=s3)
    assert (result["status"], result["urls"]) == ("ok", 1)
    assert result["deleted"] > 0
    # What that rebuild wrote and deleted comes back from S3 as notifications: its writes
    # are ignored, its deletions cost one more rebuild, which changes nothing, so the chain
    # ends there.
    echo = own.take()
    assert any(name.startswith("ObjectRemoved:") for name, _ in echo)
    rebuilds.clear()
    again = handle(sqs_batch(echo), Context(), env=env, s3=s3)
    assert again["status"] == "ok"
    assert again["batchItemFailures"] == []
    assert rebuilds == [BUCKET]
    assert own.take() == []
    assert list(sitemap_objects(s3)) == ["sitemap.xml"]


# --- the state in a bucket of its own (SITEMILL_STATE, as the stack sets it) ---------------

STATE_BUCKET = "sitemill-state-bucket"
STATE_KEY = f"{BUCKET}/sitemill-state.json.gz"
STATE_ENV = {**ENV, "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{STATE_KEY}"}
STATE_PREFIX = f"{BUCKET}/sitemill-state/"  # the partitioned state's (state key, no .json.gz)


def test_the_state_lives_in_its_own_bucket_and_survives_a_sync_delete(s3: Any) -> None:
    s3.create_bucket(Bucket=STATE_BUCKET)
    first = handle(event("s3_put.json"), Context(), env=STATE_ENV, s3=s3)
    assert first["status"] == "ok", first
    undated = {"no date (upload times are one sync's)": 3}  # (one upload's times)
    assert (first["state"], first["dates"]) == ("written", undated)
    site_keys = [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    assert "sitemill-state.json.gz" not in site_keys
    # The state of a bucket whose sitemaps may be shards, in parts (docs/s3-lambda.md).
    stored = sorted(item["Key"] for item in s3.list_objects_v2(Bucket=STATE_BUCKET)["Contents"])
    assert stored[0] == f"{STATE_PREFIX}index-state.json"
    (shard,) = stored[1:]  # its one shard's state, under a name its bytes give
    assert re.fullmatch(rf"{STATE_PREFIX}shards/{shard_id('')}-[a-z2-7]{{8}}\.json\.gz", shard)
    sitemap = index(s3)

    # `aws s3 sync --delete` of a fresh build: every page uploaded again, the same bytes.
    for key in ("index.html", "about.html", "docs/a b+c%d café.html"):
        s3.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
    again = handle(event("s3_put.json"), Context(), env=STATE_ENV, s3=s3)

    assert again["status"] == "ok", again
    # Undated (a first run over one upload's times), and still so: no sync's time on a page.
    assert again["dates"] == {"no date (unchanged, none remembered)": 3}
    assert (again["written"], again["state"], again["pages_read"]) == (0, "unchanged", 0)
    assert index(s3) == sitemap


def test_a_dry_run_writes_no_state_to_its_bucket(s3: Any) -> None:
    s3.create_bucket(Bucket=STATE_BUCKET)
    result = handle(
        {"action": "rebuild", "bucket": BUCKET, "dry_run": True}, Context(), env=STATE_ENV, s3=s3
    )
    assert result["status"] == "ok", result
    assert result["state"] == "unchanged"
    assert s3.list_objects_v2(Bucket=STATE_BUCKET)["KeyCount"] == 0


def test_a_state_bucket_that_cannot_be_written_publishes_nothing(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # No such bucket: a run commits by writing its manifest there (docs/distributed.md, "How a
    # run commits"), so nothing goes live, and one error line names the state location.
    with pytest.raises(SinkError, match=f"s3://{STATE_BUCKET}/{STATE_PREFIX}"):
        handle(event("s3_put.json"), Context(), env=STATE_ENV, s3=s3)
    assert "sitemap.xml" not in [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    (error,) = [line for line in log_lines(capsys) if line["level"] == "ERROR"]
    assert f"s3://{STATE_BUCKET}/{STATE_PREFIX}" in error["error"], error


def test_a_bad_state_location_is_a_config_error_before_anything_is_written(s3: Any) -> None:
    env = {**ENV, "SITEMILL_STATE": "s3://Not_A_Bucket/key"}
    with pytest.raises(ConfigError, match="state: "):
        handle({"action": "rebuild", "bucket": BUCKET}, Context(), env=env, s3=s3)
    assert "sitemap.xml" not in [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]


def test_summary_counts_images_and_the_site_chrome_left_out(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(25):
        body = (
            f'<!doctype html><title>p{number}</title><img src="/logo.png"><img src="{number}.jpg">'
        )
        s3.put_object(Bucket=BUCKET, Key=f"posts/{number}.html", Body=body.encode())
    env = ENV | {"SITEMILL_BUCKET": BUCKET, "SITEMILL_IMAGES": "true"}
    result = handle({"action": "rebuild"}, Context(), env=env, s3=s3)
    assert (result["images"], result["image_chrome"]) == (25, 25)
    line = summary_line(capsys)
    assert (line["images"], line["image_chrome"]) == (25, 25)
    assert b"logo.png" not in index(s3)
    kept = handle(
        {"action": "rebuild"}, Context(), env=env | {"SITEMILL_KEEP_IMAGE_CHROME": "true"}, s3=s3
    )
    assert (kept["images"], kept["image_chrome"]) == (50, 0)


# --- sitemill's sitemap.xml overwritten by a sync of a build folder --------------------------

MKDOCS_SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"    <url>\n"
    b"         <loc>https://example.com/only-mkdocs/</loc>\n"
    b"    </url>\n"
    b"</urlset>"
)


def test_a_sync_that_overwrites_sitemap_xml_gets_sitemills_back(
    s3: Any, rebuilds: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET}
    handle(event("rebuild.json"), Context(), env=env, s3=s3)
    ours = index(s3)
    rebuilds.clear()
    capsys.readouterr()
    changes = S3Changes(s3)
    # `aws s3 sync site/ s3://bucket/` of a MkDocs build: its sitemap.xml replaces sitemill's.
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=MKDOCS_SITEMAP)
    result = handle(sqs_batch(changes.take()), Context(), env=env, s3=s3)
    assert (result["status"], result["relevant"], result["written"]) == ("ok", 1, 1)
    assert "ignored" not in result
    assert rebuilds == [BUCKET]
    assert index(s3) == ours
    (warning,) = [line for line in log_lines(capsys) if line["level"] == "WARNING"]
    assert warning["message"] == (
        f"s3://{BUCKET}/sitemap.xml is not the file sitemill published (a sync of a build "
        "folder?): rebuilding puts sitemill's back"
    )
    # sitemill's own write of it comes back as a notification: its ETag is the digest the
    # state recorded, so it is sitemill's, and ignored.
    echo = changes.take()
    assert echo == [("ObjectCreated:Put", "sitemap.xml")]
    rebuilds.clear()
    again = handle(sqs_batch(echo), Context(), env=env, s3=s3)
    assert (again["status"], again["ignored"]) == ("skipped", {"own_output": 1})
    assert rebuilds == []


def test_a_first_rebuild_over_a_synced_generator_sitemap_takes_over(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """No state, and the bucket holds MkDocs' sitemap.xml and its .gz twin (a sync of the
    build folder): the generator is named, not a lost state, and the twin goes."""
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=MKDOCS_SITEMAP)
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml.gz", Body=gzip.compress(MKDOCS_SITEMAP))
    s3.put_object(Bucket=BUCKET, Key="sitemap-notes.txt", Body=b"not a twin: stays")
    capsys.readouterr()
    result = handle(event("rebuild.json"), Context(), env=ENV | {"SITEMILL_BUCKET": BUCKET}, s3=s3)
    assert (result["status"], result["written"], result["deleted"]) == ("ok", 1, 1)
    assert set(sitemap_objects(s3)) == {"sitemap.xml", "sitemap-notes.txt"}
    assert b"only-mkdocs" not in index(s3)
    warnings = [line["message"] for line in log_lines(capsys) if line["level"] == "WARNING"]
    assert warnings == [
        "replacing MkDocs' sitemap.xml with sitemill's (deleting sitemap.xml.gz with it): "
        "MkDocs writes both on every build and has no setting to turn them off: run sitemill "
        "after every `mkdocs build`, which replaces them"
    ]


def test_a_first_rebuild_deletes_hugos_language_sitemaps_its_index_named(s3: Any) -> None:
    declaration = b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
    hugo_index = (
        declaration + b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>/en/sitemap.xml</loc></sitemap></sitemapindex>"
    )
    child = declaration + b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=hugo_index)
    s3.put_object(Bucket=BUCKET, Key="en/sitemap.xml", Body=child)
    s3.put_object(Bucket=BUCKET, Key="fr/sitemap.xml", Body=child)  # not named: stays
    result = handle(event("rebuild.json"), Context(), env=ENV | {"SITEMILL_BUCKET": BUCKET}, s3=s3)
    assert (result["status"], result["deleted"]) == ("ok", 1)
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert "en/sitemap.xml" not in keys
    assert "fr/sitemap.xml" in keys


def test_a_sync_that_brings_back_the_gz_twin_loses_it_again(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    env = ENV | {"SITEMILL_BUCKET": BUCKET}
    handle(event("rebuild.json"), Context(), env=env, s3=s3)
    changes = S3Changes(s3)
    # The next deploy's sync: MkDocs' sitemap.xml over sitemill's, and its .gz twin.
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=MKDOCS_SITEMAP)
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml.gz", Body=gzip.compress(MKDOCS_SITEMAP))
    capsys.readouterr()
    result = handle(sqs_batch(changes.take()), Context(), env=env, s3=s3)
    assert (result["status"], result["written"], result["deleted"]) == ("ok", 1, 1)
    assert set(sitemap_objects(s3)) == {"sitemap.xml"}
    # A state exists: the overwrite is the one warning, the takeover itself is said as info.
    lines = log_lines(capsys)
    assert [line["level"] for line in lines if "MkDocs" in line["message"]] == ["INFO"]
    (warning,) = [line["message"] for line in lines if line["level"] == "WARNING"]
    assert warning.startswith(f"s3://{BUCKET}/sitemap.xml is not the file sitemill published")
