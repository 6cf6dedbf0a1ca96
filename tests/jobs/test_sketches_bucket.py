"""A bucket keeps each HTML page's resemblance sketch in its state, as a tree build does
(tests/jobs/test_sketches_tree.py): a bucket's old pages are gone after a deploy, so the
sketch is all sitemill diff has of them. Made from the reduction the page's fingerprint hashes
when it is read; kept without a read while its ETag holds; in a partitioned state, in the
shard's state."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_bucket, rebuild_partitioned
from s3util import BUCKET, Requests, make_config, moto_bucket
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.lastmod.fingerprint.digest import file_url, reduce_html
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.report import Report
from sitemill.state.model import dump_document
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.shardstate import parse_shard_state

BASE = "https://example.com/"
STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
T1, T2 = datetime(2024, 3, 1, 12, 0), datetime(2024, 6, 2, 8, 30)
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi"


def page(n: int, more: str = "") -> bytes:
    words = " ".join(f"{word}{n}" for word in WORDS.split())
    return (
        f"<!DOCTYPE html><html><head><title>Page {n}</title></head><body><nav>Home</nav>"
        f"<main><h1>Page {n}</h1><p>{words} and {WORDS} again{more}.</p></main></body></html>"
    ).encode()


SITE = {
    **{f"s/p{n}.html": page(n) for n in range(4)},
    "stub.html": b"<!DOCTYPE html><html><head><title>Stub</title></head><body>Soon.</body></html>",
    "doc.pdf": b"%PDF-1.4 not a page",
}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def upload(client: Any, files: dict[str, bytes], when: datetime) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for index, (key, body) in enumerate(files.items()):
        client.put_object(Bucket=BUCKET, Key=key, Body=body)
        backend.get_object(BUCKET, key).last_modified = when + index * timedelta(days=9)


def rebuild(client: Any) -> Report:
    return rebuild_bucket(make_config(), client, BucketSite(BUCKET))


def state_document(client: Any) -> dict[str, Any]:
    data = client.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    document: dict[str, Any] = json.loads(gzip.decompress(data))
    return document


def sketches(client: Any) -> dict[str, str | None]:
    return {path: v.get("sketch") for path, v in state_document(client)["pages"].items()}


def sketch_of(key: str, body: bytes) -> str | None:
    return sketch_text(reduce_html(body, url=file_url(BASE, key)))


def test_a_first_run_and_a_one_page_deploy_keep_each_pages_sketch(s3: Any) -> None:
    upload(s3, SITE, T1)
    rebuild(s3)
    first = sketches(s3)
    assert first == {
        **{key: sketch_of(key, body) for key, body in SITE.items() if key.startswith("s/")},
        "stub.html": None,  # (too little text to tell a near copy)
        "doc.pdf": None,
    }
    assert all(first[f"s/p{n}.html"] for n in range(4))
    edited = page(2, more=", and one more word")
    upload(s3, {"s/p2.html": edited}, T2)
    requests = Requests(s3)
    report = rebuild(s3)
    assert report.heads_read == 1
    assert [key for name, key in requests.calls if name == "GetObject" and "/p" in key] == [
        "s/p2.html"
    ]
    assert sketches(s3) == {**first, "s/p2.html": sketch_of("s/p2.html", edited)}
    assert first["s/p2.html"] != sketch_of("s/p2.html", edited)


def test_a_state_without_sketches_is_not_rewritten_by_a_run_with_nothing_new(s3: Any) -> None:
    upload(s3, SITE, T1)
    rebuild(s3)
    document = state_document(s3)
    for values in document["pages"].values():
        values.pop("sketch", None)
    older = dump_document(document)
    s3.put_object(Bucket=BUCKET, Key=STATE_NAME, Body=older)
    upload(s3, SITE, T2)  # aws s3 sync of the same bytes: new LastModified, same ETags
    report = rebuild(s3)
    assert (report.heads_read, report.result.written, report.state_written) == (0, [], False)
    assert s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read() == older
    edited = page(1, more=", edited")  # a page read again gets its sketch; the rest wait
    upload(s3, {"s/p1.html": edited}, T2 + timedelta(days=60))
    rebuild(s3)
    assert {key: sketch for key, sketch in sketches(s3).items() if sketch} == {
        "s/p1.html": sketch_of("s/p1.html", edited)
    }


def shard_sketches(client: Any) -> dict[str, str | None]:
    """The sketch of each page every shard state of the partitioned state holds."""
    found: dict[str, str | None] = {}
    listed = client.list_objects_v2(Bucket=STATE_BUCKET, Prefix="site/sitemill-state/shards/")
    for item in listed["Contents"]:
        data = client.get_object(Bucket=STATE_BUCKET, Key=item["Key"])["Body"].read()
        pages = parse_shard_state(data, NOW).state.pages
        found.update({path: record.sketch for path, record in pages.items()})
    return found


def test_a_partitioned_states_shards_keep_their_pages_sketches(s3: Any) -> None:
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", shards="on", max_urls=5
    )
    where = partitioned_prefix(config)
    assert where is not None
    keys = {
        f"{section}/p{n}.html": page(n + 10 * ord(section)) for section in "abc" for n in (1, 2)
    }
    upload(s3, keys, T1)
    report = rebuild_partitioned(
        config, s3, BucketSite(BUCKET), PartitionedStore(s3, *where), now=NOW
    )
    assert len(report.result.files) > 2  # (an index and its shards' children)
    first = shard_sketches(s3)
    assert first == {key: sketch_of(key, body) for key, body in keys.items()}
    assert all(first.values())
    edited = page(5, more=", moved here")
    upload(s3, {"b/p2.html": edited}, T2)
    rebuild_partitioned(
        config, s3, BucketSite(BUCKET), PartitionedStore(s3, *where), changed=["b/p2.html"], now=NOW
    )
    assert shard_sketches(s3) == {**first, "b/p2.html": sketch_of("b/p2.html", edited)}
