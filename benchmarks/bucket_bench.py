"""`make bench` section bucket-20k: what a bucket rebuild costs in S3 requests, and how long.

A bucket of 20,000 HTML pages (moto, in process) is rebuilt four times: first (every head is
read: one ranged GET per page), again with nothing changed, after every object was uploaded
again with identical bytes (what `aws s3 sync` does after a fresh build: new LastModified,
same ETag), and after one page changed. Requests are counted with a botocore hook; the
targets are zero page GETs and zero PUTs on the unchanged and re-uploaded rebuilds (LIST
calls, plus the fixed GETs of robots.txt, the state and the live index: with content dates an
unchanged ETag moves no date either), one page GET after one change. Times are moto's
in-process times: they show the shape, not AWS latency.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

MB = 1_000_000
BUCKET = "bench-site"
PAGE = (
    "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Page {n}</title>"
    '<link rel=stylesheet href="/css/site.{n:x}.css"><link rel=canonical href="/p/{n:05d}/">'
    '<meta name=description content="Page {n} of the benchmark site">'
    "</head><body><main><h1>Page {n}</h1><p>{text}</p></main></body></html>"
)


class Calls:
    """S3 operations a client makes, by name, with the ranged page GETs told apart."""

    def __init__(self, client: Any) -> None:
        self.counts: Counter[str] = Counter()
        client.meta.events.register("before-call.s3.*", self._record)

    def _record(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        name = model.name
        key = params.get("url_path", "")
        if name == "GetObject" and key.endswith(".html"):
            name = "GetObject (page head)"
        self.counts[name] += 1

    def take(self) -> Counter[str]:
        counts, self.counts = self.counts, Counter()
        return counts


def bench_bucket(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the request counts and times of four rebuilds."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(name, "testing")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    from moto import mock_aws

    from sitemill.aws.clients import make_s3_client
    from sitemill.config.model import load_config
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucket import BucketSite, build_bucket
    from sitemill.jobs.features import OUTPUTS

    count = 2_000 if quick else 20_000
    config = load_config({"base_url": "https://example.com/", "max_urls": 10_000})
    with mock_aws():
        client = make_s3_client()
        client.create_bucket(Bucket=BUCKET)
        upload = _uploader(client, count)
        upload(None)
        calls = Calls(client)
        site = BucketSite(BUCKET)
        # The pages, then sitemap.xml, its children and the state: 1,000 keys per LIST call.
        outputs = math.ceil(count / config.max_urls) + 2
        lists = math.ceil((count + outputs) / 1_000)

        def rebuild(label: str) -> tuple[Counter[str], float]:
            started = time.perf_counter()
            report = build_bucket(config, client, site, RunAsked(OUTPUTS))
            seconds = time.perf_counter() - started
            assert report.result.url_count == count, report.result.url_count
            counts = calls.take()
            shown = ", ".join(f"{name} {number:,}" for name, number in sorted(counts.items()))
            section.check(f"{label}: requests", "(see below)", f"{shown}; {seconds:.1f} s", True)
            return counts, seconds

        first, _ = rebuild("first rebuild")
        heads = first["GetObject (page head)"]
        section.check("first rebuild: page GETs", f"= {count:,}", f"{heads:,}", heads == count)
        for label in ("unchanged rebuild", "after identical re-upload"):
            if label.startswith("after"):
                upload(None)
                calls.take()
            counts, _ = rebuild(label)
            pages, puts = counts["GetObject (page head)"], counts["PutObject"]
            listed = counts["ListObjectsV2"]
            section.check(f"{label}: page GETs", "0", f"{pages}", not pages)
            section.check(f"{label}: LIST calls", f"= {lists}", f"{listed}", listed == lists)
            # Content dates: an unchanged ETag is an unchanged page, so no date moves either.
            section.check(f"{label}: PUTs", "0", f"{puts}", not puts)
        upload(7)
        calls.take()
        counts, _ = rebuild("after one page changed")
        pages = counts["GetObject (page head)"]
        section.check("after one page changed: page GETs", "= 1", f"{pages}", pages == 1)


def _uploader(client: Any, count: int) -> Callable[[int | None], None]:
    """Upload every page (None) or change one page's text (its number)."""

    def upload(changed: int | None) -> None:
        numbers = range(count) if changed is None else [changed]
        for number in numbers:
            text = "Changed." if number == changed else f"Text of page {number}."
            body = PAGE.format(n=number, text=text).encode()
            key = f"p/{number:05d}/index.html"
            client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html")

    return upload
