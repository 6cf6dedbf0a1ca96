"""The router and deletions of sitemill's own files in a sharded bucket (issue 39): a child
a commit retired, deleted by sitemill itself, changes nothing (no full rebuild per deleted
child); the entry file or a child the manifest names, deleted by someone else (`aws s3 sync
--delete`), is put back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from consistency import live_urls
from s3util import BASE, BUCKET, PAGE, Requests, live_files, moto_bucket, restored_logging
from sitemill.aws.handler import handle

EVENTS = Path(__file__).resolve().parents[1] / "events"
STATE_BUCKET = "sitemill-state-bucket"
ENV = {
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{BUCKET}/sitemill-state.json.gz",
    "SITEMILL_SHARDS": "on",
    "SITEMILL_MAX_URLS": "2",
    "SITEMILL_SHARD_FILL": "2",
}
PAGES = ["a.html", "b.html", "c.html", "d.html", "e.html"]


class Context:
    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e812345678"


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for key in PAGES:
            client.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
        result = handle(
            {"action": "rebuild"}, Context(), env=ENV | {"SITEMILL_BUCKET": BUCKET}, s3=client
        )
        assert result["status"] == "ok", result
        yield client


def deleted(key: str) -> Any:
    body = json.loads((EVENTS / "s3_sitemap_removed.json").read_text(encoding="utf-8"))
    body["Records"][0]["s3"]["object"]["key"] = key
    return body


def test_a_retired_childs_deletion_rebuilds_nothing(s3: Any) -> None:
    requests = Requests(s3)
    result = handle(deleted("sitemap-raaaaaaaa-bbbbbbbb.xml"), Context(), env=ENV, s3=s3)
    assert result["status"] == "ok", result
    assert result["written"] == 0
    # No listing of the bucket: nothing to render (the manifest does not name that file).
    assert all(name != "ListObjectsV2" or path for name, path in requests.calls), requests.calls


@pytest.mark.parametrize("which", ["entry", "child"])
def test_a_named_file_deleted_by_someone_else_is_put_back(s3: Any, which: str) -> None:
    before = sorted(live_urls(live_files(s3).get))
    names = list(live_files(s3))
    key = names[0] if which == "entry" else names[1]
    s3.delete_object(Bucket=BUCKET, Key=key)
    result = handle(deleted(key), Context(), env=ENV, s3=s3)
    assert result["status"] == "ok", result
    assert sorted(live_urls(live_files(s3).get)) == before == [BASE + page for page in PAGES]


def test_an_entry_file_overwritten_by_a_sync_is_put_back(s3: Any) -> None:
    """`aws s3 sync` of a build folder holding the generator's sitemap.xml (Hugo's here)."""
    before = live_files(s3)
    hugo = (
        b'<?xml version="1.0" encoding="utf-8" standalone="yes"?><urlset '
        b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>'
        + BASE.encode()
        + b"only-hugo/</loc></url></urlset>"
    )
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=hugo)
    body = deleted("sitemap.xml")
    body["Records"][0]["eventName"] = "ObjectCreated:Put"
    result = handle(body, Context(), env=ENV, s3=s3)
    assert result["status"] == "ok", result
    assert result["relevant"] == 1
    assert live_files(s3) == before
    assert sorted(live_urls(live_files(s3).get)) == [BASE + page for page in PAGES]
