"""Shared pieces of the S3 and Lambda tests: a moto bucket, request counting, logging reset."""

from __future__ import annotations

import logging
import pickle
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from itertools import count
from typing import Any
from urllib.parse import unquote

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from sitemill.config.model import Config, load_config

BUCKET = "site-bucket"
BASE = "https://example.com/"
PAGE = b"<!doctype html><title>x</title>"


def make_config(**values: Any) -> Config:
    return load_config({"base_url": BASE, **values})


class Requests:
    """Every S3 call a client makes, counted by a botocore ``before-call`` hook."""

    def __init__(self, client: Any) -> None:
        self.calls: list[tuple[str, str]] = []
        client.meta.events.register("before-call.s3.*", self._record)

    def _record(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        self.calls.append((model.name, unquote(params["url_path"].lstrip("/"))))

    def count(self, operation: str) -> int:
        return sum(1 for name, _ in self.calls if name == operation)

    def summary(self) -> Counter[str]:
        return Counter(name for name, _ in self.calls)


def moto_bucket(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """An in-process moto S3 client with BUCKET created (dummy credentials, no network)."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


STATE_BUCKET = "sitemill-private-state"  # a state kept apart from the site (--state s3://...)


def words_page(words: str) -> bytes:
    """A small HTML page whose main text is ``words``: pages that differ by their content."""
    return f"<html><head><title>t</title></head><body><main>{words}</main></body></html>".encode()


def three_page_bucket(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """moto_bucket holding a.html, b.html and c.html (text/html, each its own text), with
    STATE_BUCKET beside it and the IndexNow key set: a site to deploy, check and announce."""
    from enginestand import KEY

    monkeypatch.setenv("SITEMILL_INDEXNOW_KEY", KEY)
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for name in ("a.html", "b.html", "c.html"):
            client.put_object(
                Bucket=BUCKET, Key=name, Body=words_page(name), ContentType="text/html"
            )
        yield client


Objects = list[tuple[str, bytes]]


def _keys(bucket: str) -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"].buckets[bucket].keys


def objects_of(*buckets: str) -> Objects:
    """Each object of moto's buckets, whole: its bytes, headers, ETag and LastModified (moto's
    keys pickle), read from the backend (no S3 call a hooked client would count)."""
    return [
        (bucket, pickle.dumps(key))
        for bucket in buckets
        for name in _keys(bucket)
        for key in _keys(bucket).getlist(name)
    ]


def put_back(objects: Objects, *buckets: str) -> None:
    """The buckets hold ``objects`` again, and nothing else: a world's copy for the cost of
    unpickling, where puts through a client cost an S3 call each."""
    for bucket in buckets:
        for name in _keys(bucket):
            for key in _keys(bucket).getlist(name):
                key.dispose()
        _keys(bucket).clear()
    for bucket, data in objects:
        key = pickle.loads(data)
        _keys(bucket)[key.name] = key


@contextmanager
def world_kept(state_bucket: str = STATE_BUCKET) -> Iterator[Callable[[], None]]:
    """The site's and the state's buckets as they are now; the callable puts them back (one
    world per fault), object for object, by no S3 call (a hooked client counts only the
    run's)."""
    buckets = (BUCKET, state_bucket)
    saved = objects_of(*buckets)
    yield lambda: put_back(saved, *buckets)


def restored_logging() -> Iterator[None]:
    """The handler sends the sitemill loggers to JSON lines; put them back for other tests."""
    logger = logging.getLogger("sitemill")
    saved = (list(logger.handlers), logger.propagate, logger.level)
    yield
    logger.handlers[:] = saved[0]
    logger.propagate, logger.level = saved[1], saved[2]


def put_pages(client: Any, *paths: str) -> None:
    """Upload each path as a small HTML page, 11 minutes after the one before: uploaded one
    by one, so that a first run dates each by its LastModified (one sync's minutes would date
    none: docs/lastmod.md, "No date without evidence")."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for path in paths:
        client.put_object(Bucket=BUCKET, Key=path, Body=PAGE)
        later = timedelta(minutes=11 * next(_UPLOADS))
        backend.get_object(BUCKET, path).last_modified = UPLOADED + later


UPLOADED = datetime(2024, 1, 1, 12, 0)  # put_pages' first LastModified (moto's: naive UTC)
_UPLOADS = count()


def upload(client: Any, files: dict[str, bytes]) -> None:
    """Objects of ``files`` (key: bytes) into the site bucket."""
    for key, body in files.items():
        client.put_object(Bucket=BUCKET, Key=key, Body=body)


def sitemap_files(client: Any, bucket: str = BUCKET) -> dict[str, bytes]:
    """Every sitemap file of the bucket (key -> bytes)."""
    listed = client.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {
        item["Key"]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
        for item in listed
        if item["Key"].startswith("sitemap")
    }


def live_files(client: Any, bucket: str = BUCKET, entry: str = "sitemap.xml") -> dict[str, bytes]:
    """The live entry file and every child it names (what a crawler reads), by name: a
    sharded bucket keeps children no index names for a while (their deletion waits)."""
    data = client.get_object(Bucket=bucket, Key=entry)["Body"].read()
    files = {entry: data}
    if b"<sitemapindex" in data[:500]:
        for url in re.findall(rb"<loc>(.*?)</loc>", data):
            name = url.decode().rpartition("/")[2]
            files[name] = client.get_object(Bucket=bucket, Key=name)["Body"].read()
    return files


# A sitemap of the user's (not sitemill's) in the sitemaps.org namespace, and an Astro build that
# names it beside its own child (issue 65: the user's sitemaps named in sitemill's index).
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
USER_SITEMAP = (
    f"<?xml version='1.0'?><urlset {NS}><url><loc>{BASE}blog/</loc></url></urlset>".encode()
)


def astro_site(s3: Any) -> None:
    """An Astro build synced: its index names its own child and two of the user's."""
    names = ("blog-sitemap.xml", "sitemap-0.xml", "docs/sitemap.xml")
    items = "".join(f"<sitemap><loc>{BASE}{name}</loc></sitemap>" for name in names)
    index = f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex {NS}>{items}</sitemapindex>'
    child = f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}><url><loc>{BASE}</loc></url>'
    s3.put_object(Bucket=BUCKET, Key="sitemap-index.xml", Body=index.encode())
    s3.put_object(Bucket=BUCKET, Key="sitemap-0.xml", Body=(child + "</urlset>").encode())
    for name in ("blog-sitemap.xml", "docs/sitemap.xml"):
        s3.put_object(Bucket=BUCKET, Key=name, Body=USER_SITEMAP)
