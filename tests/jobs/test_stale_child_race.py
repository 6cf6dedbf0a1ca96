"""Two bucket rebuilds with the state beside the sitemaps (issue 46, item 7): one deletes the
children its build no longer names while the other's index, naming one of them, goes live.
A second writer runs before every S3 call of the first one's delete phase (botocore event
hooks); after every call either makes, the live index names no missing child, and the end
result is byte for byte what a clean rebuild of the same pages writes."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from faults import Calls, Signature, one_request_at_a_time
from outputlist import rebuild_bucket
from s3util import BUCKET, make_config, put_pages, sitemap_files
from sitemill.jobs.bucket import BucketSite

# Three children of two URLs; the first run's build has two (e and f deleted), so it deletes
# sitemap-3.xml; the second writer's has three again: the same third child (e and f come
# back, and with lastmod "none" its bytes are the old ones: nothing to write), or another.
CONFIG = make_config(max_urls=2, lastmod="none", shards="off")
PAGES = ["a.html", "b.html", "c.html", "d.html", "e.html", "f.html"]
GONE = ["e.html", "f.html"]


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    one_request_at_a_time(monkeypatch)
    yield


def client() -> Any:
    return boto3.client("s3", region_name="us-east-1")


def missing_children(s3: Any, bucket: str = BUCKET) -> list[str]:
    """The children the live index names that do not exist (a crawler's 404s)."""
    try:
        index = s3.get_object(Bucket=bucket, Key="sitemap.xml")["Body"].read()
    except ClientError:
        return []
    missing = []
    for name in re.findall(rb"<loc>[^<]*/([^/<]+)</loc>", index):
        try:
            s3.head_object(Bucket=bucket, Key=name.decode())
        except ClientError:
            missing.append(name.decode())
    return missing


def world(s3: Any) -> None:
    s3.create_bucket(Bucket=BUCKET)
    put_pages(s3, *PAGES)
    rebuild_bucket(CONFIG, s3, BucketSite(BUCKET))  # three children
    for key in GONE:
        s3.delete_object(Bucket=BUCKET, Key=key)


def delete_phase(s3: Any) -> list[Signature]:
    """The calls of the first run from its index's write on (its deletions, its state)."""
    with mock_aws():
        world(s3)
        calls = Calls(s3)
        rebuild_bucket(CONFIG, s3, BucketSite(BUCKET))
        seen = calls.stop()
    index = seen.index(("PutObject", BUCKET, "sitemap.xml"))
    return seen[index + 1 :]


def watch(s3: Any, observer: Any, seen: list[list[str]]) -> None:
    def check(**_: Any) -> None:
        seen.append(missing_children(observer))

    s3.meta.events.register("after-call.s3.*", check)


def clean_rebuild(pages: list[str]) -> dict[str, bytes]:
    """The sitemaps a first rebuild of ``pages`` writes in a bucket of its own."""
    other = client()
    other.create_bucket(Bucket="clean")
    for key in pages:
        other.put_object(Bucket="clean", Key=key, Body=b"<title>p</title>")
    rebuild_bucket(CONFIG, other, BucketSite("clean"))
    return sitemap_files(other, "clean")


def second_writer(other: Any, added: list[str]) -> None:
    """Another rebuild, with a client of its own, after its own deploy of ``added``."""
    put_pages(other, *added)
    rebuild_bucket(CONFIG, other, BucketSite(BUCKET))


@pytest.mark.parametrize(
    "added", [GONE, ["g.html", "h.html"]], ids=["the same third child", "another third child"]
)
def test_a_second_writer_at_any_call_of_the_delete_phase_loses_no_child(added: list[str]) -> None:
    with mock_aws():
        calls_to_arm = delete_phase(client())
    assert any(call[0] == "DeleteObject" for call in calls_to_arm), calls_to_arm
    for call in calls_to_arm:
        with mock_aws():
            s3 = client()
            world(s3)
            observer, other = client(), client()
            seen: list[list[str]] = []
            watch(s3, observer, seen)
            watch(other, observer, seen)

            calls = Calls(s3)
            calls.arm(call, functools.partial(second_writer, other, added))
            rebuild_bucket(CONFIG, s3, BucketSite(BUCKET))
            calls.assert_fired()
            assert [missing for missing in seen if missing] == [], call
            assert missing_children(observer) == [], call
            pages = sorted({*PAGES[:4], *added})
            files = sitemap_files(observer)
            assert files == clean_rebuild(pages), call
            again = rebuild_bucket(CONFIG, observer, BucketSite(BUCKET))
            assert again.result.written == [] and sitemap_files(observer) == files, call
