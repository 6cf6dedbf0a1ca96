"""The S3 source: the paginated listing as pages, robots.txt, and a 20,000-object bucket."""

from __future__ import annotations

import gzip
import re
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from botocore.exceptions import ClientError
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_bucket
from s3util import BASE, BUCKET, PAGE, Requests, make_config, moto_bucket
from sitemill.aws.clients import make_s3_client, parse_timestamp
from sitemill.entries import Page, SkipReason
from sitemill.errors import SourceError
from sitemill.filenames.outputs import normalize_prefix
from sitemill.jobs.bucket import BucketSite
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES
from sitemill.sources.s3 import (
    Inventory,
    StoredObject,
    bucket_pages,
    list_objects,
    read_bucket_robots,
)
from xsd import assert_xsd_valid


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def seed(keys: dict[str, bytes]) -> None:
    """Put objects straight into moto's backend: thousands per second, no HTTP round trip."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for key, body in keys.items():
        backend.put_object(BUCKET, key, body)


def listed(key: str, size: int = 10, etag: str = '"e"') -> dict[str, Any]:
    return {
        "Key": key,
        "Size": size,
        "ETag": etag,
        "LastModified": datetime(2024, 3, 1, 12, 30, 5, tzinfo=UTC),
    }


@pytest.mark.parametrize(
    "text",
    [
        "2024-03-01T12:30:05.000Z",
        "2024-03-01T12:30:05Z",
        "2024-03-01T14:30:05+02:00",
        "Fri, 01 Mar 2024 12:30:05 GMT",  # HTTP headers (Last-Modified): botocore's parser
        "1709296205",
    ],
)
def test_fast_timestamp_parser_agrees_with_botocore(text: str) -> None:
    from botocore.utils import parse_timestamp as botocore_parse

    assert parse_timestamp(text) == botocore_parse(text)
    assert parse_timestamp(text) == datetime(2024, 3, 1, 12, 30, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("given", "expected"),
    [("", ""), ("/", ""), ("site", "site/"), ("/site/", "site/"), ("a/b", "a/b/")],
)
def test_normalize_prefix(given: str, expected: str) -> None:
    assert normalize_prefix(given) == expected


def test_pages_are_keys_minus_prefix_without_markers_empty_objects_or_own_outputs() -> None:
    objects = [
        listed("site/"),
        listed("site/about.html"),
        listed("site/blog/", size=0),
        listed("site/blog_$folder$", size=0),
        listed("site/blog/post.html"),
        listed("site/redirect.html", size=0),  # a website redirect: an empty body
        listed("site/robots.txt", size=30, etag='"r"'),
        listed("site/sitemap.xml", size=99, etag='"i"'),
        listed("site/sitemap-2.xml.gz", size=50, etag='"c"'),
        listed("site/blog/sitemap.xml"),  # not ours: only the root holds sitemill's files
    ]
    inventory = Inventory()
    pages = list(bucket_pages(make_config(), objects, "site/", inventory))
    # The ETag is the page's version: the state remembers head facts per version.
    assert pages == [
        Page("about.html", "2024-03-01T12:30:05+00:00", version='"e"'),
        Page("blog/post.html", "2024-03-01T12:30:05+00:00", version='"e"'),
        Page("robots.txt", "2024-03-01T12:30:05+00:00", version='"r"'),
        Page("blog/sitemap.xml", "2024-03-01T12:30:05+00:00", version='"e"'),
    ]
    assert inventory.complete
    assert inventory.objects == {
        "robots.txt": StoredObject('"r"', 30),
        "sitemap.xml": StoredObject('"i"', 99),
        "sitemap-2.xml.gz": StoredObject('"c"', 50),
    }


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, "2024-03-01T12:30:05+00:00"),
        # Remembered at full precision; written as configured (state/knowledge.py).
        ({"lastmod_precision": "date"}, "2024-03-01T12:30:05+00:00"),
        ({"lastmod": "none"}, None),
        ({"lastmod": "git"}, "2024-03-01T12:30:05+00:00"),  # S3 has no git: object time
    ],
)
def test_lastmod_is_the_object_time(values: dict[str, str], expected: str | None) -> None:
    (page,) = bucket_pages(make_config(**values), [listed("a.html")], "", Inventory())
    assert page.lastmod == expected


def test_inventory_is_complete_only_after_the_whole_listing() -> None:
    inventory = Inventory()
    pages = bucket_pages(make_config(), [listed("a.html"), listed("b.html")], "", inventory)
    next(pages)
    assert not inventory.complete
    list(pages)
    assert inventory.complete


def test_listing_streams_one_call_per_thousand_keys(s3: Any) -> None:
    seed({f"p/{number:05d}.html": PAGE for number in range(2_500)})
    requests = Requests(s3)
    objects = list_objects(s3, BUCKET, "p/")
    first = next(objects)
    assert first["Key"] == "p/00000.html"
    assert requests.count("ListObjectsV2") == 1  # a generator: nothing more is read yet
    assert sum(1 for _ in objects) == 2_499
    assert requests.count("ListObjectsV2") == 3


def test_empty_bucket_lists_nothing(s3: Any) -> None:
    assert list(list_objects(s3, BUCKET, "")) == []


def test_missing_bucket_is_a_source_error(s3: Any) -> None:
    with pytest.raises(SourceError) as caught:
        list(list_objects(s3, "no-such-bucket", ""))
    message = str(caught.value)
    assert message.startswith("cannot list s3://no-such-bucket/: NoSuchBucket (HTTP 404)")
    assert "\n" not in message
    assert "testing" not in message
    assert isinstance(caught.value.__cause__, ClientError)


@pytest.mark.parametrize("exists", [False, True])
def test_access_denied_on_robots_txt_means_none(
    s3: Any, caplog: pytest.LogCaptureFixture, exists: bool
) -> None:
    # With s3:ListBucket limited to a prefix, S3 answers a GET of a missing key with 403:
    # one LIST of the key tells a missing robots.txt (no warning) from one denied to us.
    if exists:
        seed({"site/robots.txt": b"User-agent: *\nDisallow: /\n"})

    def deny(**_: Any) -> None:
        raise ClientError(
            {
                "Error": {"Code": "AccessDenied", "Message": "Access Denied"},
                "ResponseMetadata": {"HTTPStatusCode": 403},
            },
            "GetObject",
        )

    s3.meta.events.register("before-call.s3.GetObject", deny)
    sent: list[tuple[str, str]] = []
    s3.meta.events.register(
        "provide-client-params.s3.*",
        lambda model, params, **_: sent.append((model.name, params.get("Key") or params["Prefix"])),
    )
    assert read_bucket_robots(s3, BUCKET, "site/") is None
    assert sent == [("GetObject", "site/robots.txt"), ("ListObjectsV2", "site/robots.txt")]
    assert ("access denied" in caplog.text) is exists


def test_other_errors_on_robots_txt_are_source_errors(s3: Any) -> None:
    def fail(**_: Any) -> None:
        raise ClientError(
            {
                "Error": {"Code": "InternalError", "Message": "boom"},
                "ResponseMetadata": {"HTTPStatusCode": 500},
            },
            "GetObject",
        )

    s3.meta.events.register("before-call.s3.GetObject", fail)
    with pytest.raises(SourceError, match="cannot read s3://"):
        read_bucket_robots(s3, BUCKET, "")


def test_robots_txt_is_read_once_and_honoured(s3: Any) -> None:
    requests = Requests(s3)
    assert read_bucket_robots(s3, BUCKET, "") is None
    seed({"robots.txt": b"User-agent: *\nDisallow: /private/\n"})
    rules = read_bucket_robots(s3, BUCKET, "")
    assert rules is not None
    assert not rules.allows("/private/a.html")
    assert rules.allows("/a.html")
    assert requests.summary() == {"GetObject": 2}


def test_rebuild_honours_robots_txt_and_noindex(s3: Any) -> None:
    noindex = b'<html><head><meta name="robots" content="noindex"></head></html>'
    seed(
        {
            "robots.txt": b"User-agent: *\nDisallow: /private/\n",
            "index.html": PAGE,
            "private/secret.html": PAGE,
            "hidden.html": noindex,  # read with a ranged GET of its head, like every page
        }
    )
    requests = Requests(s3)
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    calls = list(requests.calls)
    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    assert re.findall(r"<loc>(.*?)</loc>", index) == [BASE]
    assert report.skipped == Counter({SkipReason.NOINDEX: 1, SkipReason.ROBOTS_TXT: 1})
    assert [(skip.path, skip.reason) for skip in report.skips] == [
        ("hidden.html", SkipReason.NOINDEX),
        ("private/secret.html", SkipReason.ROBOTS_TXT),
    ]
    # robots.txt and the state, then the heads of the pages robots.txt leaves in (a page it
    # disallows is never read), then the sitemap and the state.
    assert [call for call in calls if call[0] != "ListObjectsV2"] == [
        ("GetObject", "robots.txt"),
        ("GetObject", "sitemill-state.json.gz"),
        ("GetObject", "hidden.html"),
        ("GetObject", "index.html"),
        ("PutObject", "sitemap.xml"),
        ("PutObject", "sitemill-state.json.gz"),
    ]
    assert (report.heads_read, report.heads_reused, report.state_written) == (2, 0, True)


def test_thousands_of_objects_split_and_a_second_run_puts_nothing(s3: Any) -> None:
    # 1,200 HTML pages (a head read each: more than attach_facts' window of 1,024 pages in
    # flight or waiting) among 600 PDFs (never read). (moto spends ~1 s per LIST page of
    # 1,000 keys: 10,000 objects took 25 s.)
    count, html = 1_800, 1_200
    keys = [
        f"docs/{number:05d}/index.html" if number % 3 != 0 else f"docs/{number:05d}.pdf"
        for number in range(count)
    ]
    assert sum(key.endswith(".html") for key in keys) == html
    seed(dict.fromkeys(keys, PAGE))
    config = make_config(max_urls=500, gzip=True)
    s3 = make_s3_client()  # as the CLI and the Lambda build it (fast timestamp parsing)
    requests = Requests(s3)

    started = time.perf_counter()
    report = rebuild_bucket(config, s3, BucketSite(BUCKET))
    first_seconds = time.perf_counter() - started
    assert report.result.url_count == count
    index, *children = report.result.files
    assert index == "sitemap.xml"  # and four shards of at most 500 URLs
    assert len(children) == 4 and all(
        re.fullmatch(r"sitemap-r[a-z2-7]{8}\.xml\.gz", c) for c in children
    )
    # ⌈N/1000⌉ LIST + GET robots.txt + GET the state + one ranged GET per HTML page + one
    # PUT per changed file + the state's PUT.
    assert requests.summary() == {"ListObjectsV2": 2, "GetObject": 2 + html, "PutObject": 6}
    page_reads = [key for name, key in requests.calls if name == "GetObject"][2:]
    assert sorted(page_reads) == [key for key in keys if key.endswith(".html")]
    assert (report.heads_read, report.heads_reused, report.state_written) == (html, 0, True)

    index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")
    assert index["ContentType"] == "application/xml"
    assert_xsd_valid(index["Body"].read())
    total = 0
    locs: list[str] = []
    for name in children:
        child = s3.get_object(Bucket=BUCKET, Key=name)
        assert child["ContentType"] == "application/gzip"
        assert child["CacheControl"] == "public, max-age=300"
        data = gzip.decompress(child["Body"].read())
        if name == children[-1]:  # the XSD is slow on 500 URLs: one child is enough
            assert_xsd_valid(data)
        total += data.count(b"<url>")
        locs += re.findall(r"<loc>(.*?)</loc>", data.decode())
    assert total == count
    # The pages come out in the listing's order, though their heads were read many at once.
    expected = [BASE + (key[:-10] if key.endswith("index.html") else key) for key in keys]
    assert locs == expected

    requests.calls.clear()
    started = time.perf_counter()
    again = rebuild_bucket(config, s3, BucketSite(BUCKET))
    second_seconds = time.perf_counter() - started
    # The bucket now also holds the 5 sitemap files and the state: ⌈1,806/1000⌉ = 2 LIST
    # calls; three GETs: robots.txt, the state and the live index (which children sitemill's
    # last run wrote); no page is read again, and nothing is PUT.
    assert requests.summary() == {"ListObjectsV2": 2, "GetObject": 3}
    assert (again.heads_read, again.heads_reused, again.state_written) == (0, html, False)
    assert again.result.written == []
    assert sorted(again.result.unchanged) == sorted(report.result.files)
    print(f"\n1,800 objects: first rebuild {first_seconds:.2f}s, unchanged {second_seconds:.2f}s")


@pytest.mark.parametrize("padding", [0, 1_000, MAX_ROBOTS_TXT_BYTES, 3_000_000])
def test_robots_txt_is_read_with_one_ranged_get_of_at_most_500_kib(s3: Any, padding: int) -> None:
    # A rule past Google's 500 KiB is ignored; /dev/zero-sized objects cost no more.
    data = b"User-agent: *\nDisallow: /private/\n#" + b"x" * padding + b"\nDisallow: /\n"
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=data)
    sent: list[dict[str, Any]] = []
    s3.meta.events.register("before-call.s3.GetObject", lambda params, **_: sent.append(params))
    robots = read_bucket_robots(s3, BUCKET, "")
    assert robots is not None
    assert [params["headers"]["Range"] for params in sent] == [
        f"bytes=0-{MAX_ROBOTS_TXT_BYTES - 1}"
    ]
    assert not robots.allows("/private/x.html")
    assert robots.allows("/page.html") is (len(data) > MAX_ROBOTS_TXT_BYTES)


def test_an_empty_robots_txt_allows_everything(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"")
    robots = read_bucket_robots(s3, BUCKET, "")
    assert robots is not None and robots.allows("/anything")
