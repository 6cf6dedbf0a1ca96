"""The router's incremental run of a sharded bucket names what it removed in its summary, as
a full rebuild does: from the touched shards' own states before and after, together (a page
moved to another touched shard is renamed, not gone), with no request for a page it kept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from s3util import BASE, BUCKET, Requests, moto_bucket, restored_logging, words_page
from sitemill.aws.handler import handle

STATE_BUCKET = "sitemill-state-bucket"
ENV = {
    "SITEMILL_BUCKET": BUCKET,
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{BUCKET}/sitemill-state.json.gz",
    "SITEMILL_SHARDS": "on",
    "SITEMILL_MAX_URLS": "4",
    "SITEMILL_SHARD_FILL": "4",
}
PAGES = [f"{section}/p{number}.html" for section in "abc" for number in range(4)]


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for key in PAGES:
            put(client, key, words_page(f"the page {key} says its own words here"))
        first = handle({"action": "rebuild"}, env=ENV, s3=client)
        assert first["status"] == "ok" and first["shards"] >= 3, first
        yield client


def put(client: Any, key: str, body: bytes, **more: Any) -> None:
    client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html", **more)


def notified(*changes: tuple[str, str]) -> dict[str, Any]:
    """S3's notification of each (event name, key), as the bucket sends it."""
    records = [
        {"eventSource": "aws:s3", "eventName": name, "s3": {"bucket": {"name": BUCKET},
         "object": {"key": key, "size": 1}}}
        for name, key in changes
    ]  # fmt: skip
    return {"Records": records}


def test_a_deploy_names_the_page_it_deleted_and_the_one_it_moved_to_another_shard(
    s3: Any,
) -> None:
    body = s3.get_object(Bucket=BUCKET, Key="b/p2.html")["Body"].read()
    put(s3, "c/moved.html", body)  # (c's shard: b/p2.html's content under another key)
    put(s3, "a/p3.html", b"", WebsiteRedirectLocation="/c/p0.html")  # (a website redirect)
    for key in ("a/p1.html", "b/p2.html"):
        s3.delete_object(Bucket=BUCKET, Key=key)
    requests = Requests(s3)
    summary = handle(
        notified(
            ("ObjectRemoved:Delete", "a/p1.html"),
            ("ObjectCreated:Put", "a/p3.html"),
            ("ObjectRemoved:Delete", "b/p2.html"),
            ("ObjectCreated:Put", "c/moved.html"),
        ),
        env=ENV,
        s3=s3,
    )
    assert summary["status"] == "ok" and summary["shards_touched"] == 3, summary
    assert summary["removed"] == [
        {"url": f"{BASE}a/p1.html", "verdict": "gone"},
        {"url": f"{BASE}a/p3.html", "verdict": "redirected", "target": f"{BASE}c/p0.html"},
        {"url": f"{BASE}b/p2.html", "verdict": "renamed", "target": f"{BASE}c/moved.html"},
    ]
    assert summary["removed_count"] == 3
    # Only the changed keys are asked (the new page's GET, the website redirect's one HEAD):
    # no page kept, none gone.
    asked = [key for name, key in requests.calls if name in ("GetObject", "HeadObject")]
    pages = [key for key in asked if key in {*PAGES, "c/moved.html"}]
    assert sorted(pages) == ["a/p3.html", "c/moved.html"], asked
    assert ("HeadObject", "a/p3.html") in requests.calls


def test_a_redirect_to_a_page_of_a_shard_the_deploy_left_alone_is_a_redirect(s3: Any) -> None:
    # a/p3.html becomes a website redirect to c/p0.html, whose shard this deploy does not read.
    put(s3, "a/p3.html", b"", WebsiteRedirectLocation="/c/p0.html")
    summary = handle(notified(("ObjectCreated:Put", "a/p3.html")), env=ENV, s3=s3)
    assert summary["status"] == "ok" and summary["shards_touched"] == 1, summary
    assert summary["removed"] == [
        {"url": f"{BASE}a/p3.html", "verdict": "redirected", "target": f"{BASE}c/p0.html"}
    ]


def test_a_deploy_that_removes_nothing_says_so(s3: Any) -> None:
    put(s3, "b/p1.html", words_page("the page b/p1.html says other words now"))
    put(s3, "c/p9.html", words_page("a new page of the c section"))
    summary = handle(
        notified(("ObjectCreated:Put", "b/p1.html"), ("ObjectCreated:Put", "c/p9.html")),
        env=ENV,
        s3=s3,
    )
    assert summary["status"] == "ok" and summary["shards_touched"] == 2, summary
    assert (summary["removed"], summary["removed_count"]) == ([], 0)


def test_the_count_is_every_removed_url_s_beyond_the_100_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = ENV | {"SITEMILL_MAX_URLS": "50", "SITEMILL_SHARD_FILL": "50"}
    many = [f"d/p{number:03}.html" for number in range(130)]
    for s3 in moto_bucket(monkeypatch):
        s3.create_bucket(Bucket=STATE_BUCKET)
        for key in [*PAGES, *many]:
            put(s3, key, words_page(f"the page {key} says its own words here"))
        assert handle({"action": "rebuild"}, env=env, s3=s3)["status"] == "ok"
        deleted = ["a/p0.html", *many[:110]]
        for key in deleted:
            s3.delete_object(Bucket=BUCKET, Key=key)
        changes = [("ObjectRemoved:Delete", key) for key in deleted]
        summary = handle(notified(*changes), env=env, s3=s3)
        assert summary["status"] == "ok" and "shards_touched" in summary, summary
        assert summary["removed_count"] == 111
        assert summary["removed"] == [
            {"url": f"{BASE}{key}", "verdict": "gone"} for key in deleted[:100]
        ]
