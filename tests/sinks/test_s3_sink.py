"""The S3 sink and a whole rebuild: unchanged files, conditional index writes, failures, races."""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

import boto3
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError

from consistency import assert_one_build
from outputlist import rebuild_bucket
from s3util import BASE, BUCKET, PAGE, Requests, make_config, moto_bucket, put_pages
from sitemill.cli.main import main
from sitemill.errors import ConflictError, SinkError
from sitemill.jobs.bucket import BucketSite
from sitemill.sinks.s3 import S3Sink, holds, supports_conditional_put
from sitemill.sources.s3 import Inventory, StoredObject
from xsd import assert_xsd_valid


def fail_on(client: Any, key: str, code: str, status: int, times: int = 1) -> list[int]:
    """Make the next ``times`` PUTs of ``key`` fail with an S3 error (returns a call counter)."""
    fired = [0]

    def hook(model: Any, params: dict[str, Any], **_: Any) -> None:
        if model.name == "PutObject" and unquote(params["url_path"]) == f"/{key}":
            fired[0] += 1
            if fired[0] <= times:
                error = {"Error": {"Code": code, "Message": "stubbed"}}
                raise ClientError(
                    {**error, "ResponseMetadata": {"HTTPStatusCode": status}}, "PutObject"
                )

    client.meta.events.register("before-call.s3.PutObject", hook)
    return fired


def before_index_put(client: Any, action: Callable[[], None], times: int = 1) -> None:
    """Run ``action`` just before the client's next ``times`` PUTs of sitemap.xml."""
    left = [times]

    def hook(model: Any, params: dict[str, Any], **_: Any) -> None:
        if unquote(params["url_path"]) == "/sitemap.xml" and left[0] > 0:
            left[0] -= 1
            action()

    client.meta.events.register("before-call.s3.PutObject", hook)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def keys(client: Any) -> list[str]:
    return [obj["Key"] for obj in client.list_objects_v2(Bucket=BUCKET).get("Contents", [])]


def body(client: Any, key: str) -> bytes:
    data: bytes = client.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    return data


def listed_children(index: bytes) -> list[str]:
    return [loc[len(BASE) :] for loc in re.findall(r"<loc>(.*?)</loc>", index.decode())]


def assert_consistent(client: Any) -> None:
    """The index is valid and every child it names exists; no stale child is left."""
    index = body(client, "sitemap.xml")
    assert_xsd_valid(index)
    children = listed_children(index)
    for child in children:
        assert_xsd_valid(body(client, child))
    own = {key for key in keys(client) if key.startswith("sitemap")}
    assert own == {"sitemap.xml", *children}


def sink_for(client: Any, inventory: Inventory | None = None, **options: Any) -> S3Sink:
    if inventory is None:
        inventory = Inventory(complete=True)
    return S3Sink(client, BUCKET, inventory=inventory, **options)


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        (StoredObject(f'"{hashlib.md5(PAGE).hexdigest()}"', len(PAGE)), True),
        (StoredObject(hashlib.md5(PAGE).hexdigest(), len(PAGE)), True),  # unquoted (some stores)
        (StoredObject(f'"{hashlib.md5(PAGE).hexdigest()}"', len(PAGE) + 1), False),
        (StoredObject('"0123456789abcdef0123456789abcdef-2"', len(PAGE)), False),  # multipart
        (StoredObject('"ffffffffffffffffffffffffffffffff"', len(PAGE)), False),  # SSE-KMS
    ],
)
def test_holds_compares_size_and_single_part_etag(stored: StoredObject, expected: bool) -> None:
    assert holds(stored, PAGE) is expected


def test_put_writes_with_headers_and_skips_equal_bytes(s3: Any) -> None:
    sink = sink_for(s3, cache_control="public, max-age=60")
    requests = Requests(s3)
    assert sink.put("sitemap.xml", b"<a/>", content_type="application/xml") is True
    head = s3.head_object(Bucket=BUCKET, Key="sitemap.xml")
    assert head["ContentType"] == "application/xml"
    assert head["CacheControl"] == "public, max-age=60"
    assert sink.put("sitemap.xml", b"<a/>", content_type="application/xml") is False
    assert sink.put("sitemap.xml", b"<b/>", content_type="application/xml") is True
    assert body(s3, "sitemap.xml") == b"<b/>"
    assert requests.summary() == {"PutObject": 2, "HeadObject": 1, "GetObject": 1}


def test_names_and_read_come_from_the_listing_without_extra_requests(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"User-agent: *\n")
    s3.put_object(Bucket=BUCKET, Key="sitemap-2.xml", Body=b"<old/>")
    s3.put_object(Bucket=BUCKET, Key="page.html", Body=PAGE)
    s3.put_object(Bucket=BUCKET, Key="blog/sitemap-1.xml", Body=b"<not-ours/>")
    requests = Requests(s3)
    sink = S3Sink(s3, BUCKET)  # no inventory: lists the prefix root itself, once
    assert list(sink.names()) == ["robots.txt", "sitemap-2.xml"]
    assert sink.read("sitemap.xml") is None
    assert sink.read("robots.txt") == b"User-agent: *\n"
    assert list(sink.names()) == ["robots.txt", "sitemap-2.xml"]
    assert requests.summary() == {"ListObjectsV2": 1, "GetObject": 1}
    sink.delete("sitemap-2.xml")
    sink.delete("sitemap-9.xml")  # already gone: not an error
    assert keys(s3) == ["blog/sitemap-1.xml", "page.html", "robots.txt"]
    assert sink.deleted == ["sitemap-2.xml", "sitemap-9.xml"]


def test_a_sink_refuses_to_write_before_the_listing_is_complete(s3: Any) -> None:
    sink = sink_for(s3, Inventory())
    with pytest.raises(SinkError, match="before it was listed"):
        sink.put("sitemap.xml", b"<a/>", content_type="application/xml")


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap-2.xml", "sitemap-2.xml.gz", "robots.txt"])
def test_every_write_is_conditional_on_the_etag_seen_in_the_listing(s3: Any, name: str) -> None:
    s3.put_object(Bucket=BUCKET, Key=name, Body=b"<v1/>")
    sink = S3Sink(s3, BUCKET)
    list(sink.names())
    s3.put_object(Bucket=BUCKET, Key=name, Body=b"<v2 by another writer/>")
    with pytest.raises(ConflictError, match=rf"s3://site-bucket/{re.escape(name)} was changed"):
        sink.put(name, b"<v3/>", content_type="application/xml")
    assert body(s3, name) == b"<v2 by another writer/>"


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap-7.xml"])
def test_a_new_file_is_written_only_if_still_absent(s3: Any, name: str) -> None:
    sink = S3Sink(s3, BUCKET)
    list(sink.names())
    s3.put_object(Bucket=BUCKET, Key=name, Body=b"<theirs/>")
    with pytest.raises(ConflictError):
        sink.put(name, b"<ours/>", content_type="application/xml")
    assert body(s3, name) == b"<theirs/>"


def test_a_file_deleted_by_another_writer_is_a_conflict(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="sitemap-1.xml", Body=b"<v1/>")
    sink = S3Sink(s3, BUCKET)
    list(sink.names())
    s3.delete_object(Bucket=BUCKET, Key="sitemap-1.xml")
    with pytest.raises(ConflictError):
        sink.put("sitemap-1.xml", b"<v2/>", content_type="application/xml")


def test_conditional_write_support_is_read_from_the_service_model(s3: Any) -> None:
    assert supports_conditional_put(s3)
    # A botocore from before late 2024 has no IfMatch on PutObject (Lambda may bundle one).
    shape = SimpleNamespace(members={"Bucket": None, "Key": None, "Body": None})
    model = SimpleNamespace(operation_model=lambda name: SimpleNamespace(input_shape=shape))
    old_client = SimpleNamespace(meta=SimpleNamespace(service_model=model))
    assert not supports_conditional_put(old_client)  # type: ignore[arg-type]


def test_without_conditional_writes_the_index_is_still_written(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sitemill.sinks.s3.supports_conditional_put", lambda client: False)
    sent: list[dict[str, Any]] = []
    s3.meta.events.register("before-call.s3.PutObject", lambda params, **_: sent.append(params))
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=b"<v1/>")
    sink = S3Sink(s3, BUCKET)
    list(sink.names())
    assert sink.put("sitemap.xml", b"<v2/>", content_type="application/xml")
    headers = sent[-1]["headers"]
    assert "If-Match" not in headers and "If-None-Match" not in headers
    assert body(s3, "sitemap.xml") == b"<v2/>"


def test_errors_are_one_line_sink_errors_without_secrets(s3: Any) -> None:
    fail_on(s3, "sitemap.xml", "AccessDenied", 403)
    sink = sink_for(s3)
    with pytest.raises(SinkError) as caught:
        sink.put("sitemap.xml", b"<a/>", content_type="application/xml")
    assert not isinstance(caught.value, ConflictError)
    assert str(caught.value) == (
        "cannot write s3://site-bucket/sitemap.xml: AccessDenied (HTTP 403): stubbed"
    )
    assert isinstance(caught.value.__cause__, ClientError)


def test_connection_errors_are_sink_errors(s3: Any) -> None:
    def refuse(**_: Any) -> None:
        raise EndpointConnectionError(endpoint_url="http://127.0.0.1:9")

    s3.meta.events.register("before-call.s3.DeleteObject", refuse)
    with pytest.raises(SinkError, match=r"cannot delete .*Could not connect"):
        sink_for(s3).delete("sitemap-1.xml")


def test_dry_run_reports_changes_and_writes_nothing(s3: Any) -> None:
    put_pages(s3, "a.html", "b.html", "c.html")
    config = make_config(max_urls=2, shards="off")  # (children split by count)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    s3.delete_object(Bucket=BUCKET, Key="c.html")
    requests = Requests(s3)
    report = rebuild_bucket(config, s3, BucketSite(BUCKET), dry_run=True)
    assert report.result.written == ["sitemap.xml"]
    assert report.result.deleted == ["sitemap-1.xml", "sitemap-2.xml"]
    assert set(requests.summary()) == {"ListObjectsV2", "GetObject"}


def test_deleting_pages_removes_stale_children_after_the_index(s3: Any) -> None:
    put_pages(s3, *(f"p{number}.html" for number in range(5)))
    config = make_config(max_urls=2, shards="off")  # (children split by count)
    first = rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert first.result.files == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    for number in (3, 4):
        s3.delete_object(Bucket=BUCKET, Key=f"p{number}.html")
    requests = Requests(s3)
    second = rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert second.result.deleted == ["sitemap-3.xml"]
    writes = [call for call in requests.calls if call[0] in ("PutObject", "DeleteObject")]
    # The state forgets the two pages: written last, after the stale child is gone.
    assert writes == [
        ("PutObject", "sitemap-2.xml"),
        ("PutObject", "sitemap.xml"),
        ("DeleteObject", "sitemap-3.xml"),
        ("PutObject", "sitemill-state.json.gz"),
    ]
    assert (second.heads_read, second.heads_reused, second.state_written) == (0, 3, True)
    assert_consistent(s3)


def urls_of(*paths: str) -> list[str]:
    return [BASE + path for path in paths]


def s3_reader(client: Any) -> Callable[[str], bytes | None]:
    def read(name: str) -> bytes | None:
        try:
            return body(client, name)
        except ClientError:
            return None

    return read


def test_a_put_failing_part_way_leaves_a_consistent_live_sitemap(s3: Any) -> None:
    old_pages = [f"p{number}.html" for number in range(6)]
    put_pages(s3, *old_pages)
    config = make_config(max_urls=2, shards="off")  # (children split by count)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    put_pages(s3, "a0.html", "a1.html")  # shifts every child, adds a fourth
    new_pages = ["a0.html", "a1.html", *old_pages]
    fired = fail_on(s3, "sitemap-3.xml", "InternalError", 500)
    with pytest.raises(SinkError, match=r"sitemap-3\.xml: InternalError \(HTTP 500\)"):
        rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert fired == [1]
    assert_one_build(s3_reader(s3), urls_of(*old_pages), urls_of(*new_pages))
    rebuild_bucket(config, s3, BucketSite(BUCKET))  # the next run repairs everything
    assert len(listed_children(body(s3, "sitemap.xml"))) == 4
    assert_consistent(s3)
    assert_one_build(s3_reader(s3), urls_of(*new_pages))


@pytest.mark.parametrize("shards", ["off", "auto"])
@pytest.mark.parametrize("failing", range(1, 12))
def test_a_fault_at_any_write_leaves_one_build_live_and_a_rerun_repairs(
    s3: Any, failing: int, shards: str
) -> None:
    """Split by count, a new first page shifts every child; as shards it splits the first
    shard in two (the live child changes beside a new name: staged all the same)."""
    old_pages = [f"p{number}.html" for number in range(7)]
    put_pages(s3, *old_pages)
    config = make_config(max_urls=2, shards=shards)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    put_pages(s3, "a0.html")  # every child shifts by one URL
    new_pages = ["a0.html", *old_pages]
    calls = [0]

    def fault(model: Any, params: dict[str, Any], **_: Any) -> None:
        if model.name in ("PutObject", "DeleteObject"):
            calls[0] += 1
            if calls[0] == failing:
                raise EndpointConnectionError(endpoint_url="http://127.0.0.1:9")

    s3.meta.events.register("before-call.s3", fault)
    with contextlib.suppress(SinkError):
        rebuild_bucket(config, s3, BucketSite(BUCKET))
    s3.meta.events.unregister("before-call.s3", fault)
    assert_one_build(s3_reader(s3), urls_of(*old_pages), urls_of(*new_pages))
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert_one_build(s3_reader(s3), urls_of(*new_pages))
    assert_consistent(s3)


def test_two_racing_rebuilds_end_consistent(s3: Any) -> None:
    put_pages(s3, "a.html", "b.html", "c.html")
    config = make_config(max_urls=2, shards="off")  # (children split by count)
    other = boto3.client("s3", region_name="us-east-1")

    def other_rebuild_with_a_newer_page() -> None:
        put_pages(other, "d.html", "e.html")
        rebuild_bucket(config, other, BucketSite(BUCKET))

    before_index_put(s3, other_rebuild_with_a_newer_page)
    requests = Requests(s3)
    report = rebuild_bucket(config, s3, BucketSite(BUCKET))
    index_puts = [call for call in requests.calls if call == ("PutObject", "sitemap.xml")]
    assert len(index_puts) == 1  # refused (412), then re-listed: the other's index was right
    assert requests.summary()["ListObjectsV2"] == 2
    assert report.result.url_count == 5
    assert "sitemap-1.xml" in report.result.written  # from the first attempt: a CDN must know
    assert_consistent(s3)
    assert len(listed_children(body(s3, "sitemap.xml"))) == 3


def test_a_conflict_409_is_retried(s3: Any) -> None:
    put_pages(s3, "a.html")
    fired = fail_on(s3, "sitemap.xml", "ConditionalRequestConflict", 409)
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    assert fired == [2]
    assert report.result.written == ["sitemap.xml"]


def test_repeated_conflicts_give_up_with_a_sink_error(s3: Any) -> None:
    put_pages(s3, "a.html")
    other = boto3.client("s3", region_name="us-east-1")
    counter = [0]

    def meddle() -> None:
        counter[0] += 1
        other.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=f"<v{counter[0]}/>".encode())

    before_index_put(s3, meddle, times=3)
    with pytest.raises(SinkError, match="3 times: another rebuild is running") as caught:
        rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    assert not isinstance(caught.value, ConflictError)
    assert body(s3, "sitemap.xml") == b"<v3/>"


def test_cli_s3_dry_run_then_write_then_nothing(
    s3: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    put_pages(s3, "site/index.html", "site/about.html", "other/x.html")
    monkeypatch.setenv("SITEMILL_CACHE_CONTROL", "max-age=30")
    argv = ["s3", "--bucket", BUCKET, "--prefix", "site", "--base-url", BASE]
    assert main([*argv, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "dry run: nothing was written to s3://site-bucket/site/" in out
    assert "2 URLs in 1 sitemap file\n" in out  # (issue 41: was "1 sitemap files")
    assert "would write: sitemap.xml" in out
    assert "site/sitemap.xml" not in keys(s3)
    assert main(argv) == 0
    assert "written: sitemap.xml" in capsys.readouterr().out
    assert s3.head_object(Bucket=BUCKET, Key="site/sitemap.xml")["CacheControl"] == "max-age=30"
    assert listed_children(body(s3, "site/sitemap.xml")) == ["about.html", ""]
    assert main(argv) == 0
    assert "nothing changed" in capsys.readouterr().out


def test_cli_s3_reports_a_missing_bucket_in_one_line(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["s3", "--bucket", "missing-bucket", "--base-url", BASE]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "NoSuchBucket" in err


def test_an_oversized_robots_txt_is_refused_before_anything_is_written(s3: Any) -> None:
    put_pages(s3, "a.html")
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"#" * (500 * 1024 + 1))
    requests = Requests(s3)
    with pytest.raises(SinkError, match=r"refusing to read or replace .*robots\.txt: 512,001"):
        rebuild_bucket(make_config(robots_txt=True), s3, BucketSite(BUCKET))
    assert "PutObject" not in requests.summary()


def test_a_deletion_failing_part_way_leaves_nothing_for_good(s3: Any) -> None:
    """A stale child whose deletion fails is named by no index: the state remembers it, and
    the next run deletes it; the run that failed to delete it publishes and warns."""
    put_pages(s3, *(f"p{number}.html" for number in range(10)))
    config = make_config(max_urls=2, shards="off")  # (children split by count)
    rebuild_bucket(config, s3, BucketSite(BUCKET))  # five children
    for number in range(4, 10):
        s3.delete_object(Bucket=BUCKET, Key=f"p{number}.html")  # two children are enough

    def refuse(model: Any, params: dict[str, Any], **_: Any) -> None:
        if unquote(params["url_path"]) == "/sitemap-4.xml":
            raise EndpointConnectionError(endpoint_url="http://127.0.0.1:9")

    s3.meta.events.register("before-call.s3.DeleteObject", refuse)
    report = rebuild_bucket(config, s3, BucketSite(BUCKET))
    s3.meta.events.unregister("before-call.s3.DeleteObject", refuse)
    assert report.result.deleted == ["sitemap-3.xml", "sitemap-5.xml"]
    assert [w for w in report.warnings if "could not delete 1 stale file(s)" in w]
    assert "sitemap-4.xml" in keys(s3)
    assert_one_build(s3_reader(s3), urls_of(*(f"p{number}.html" for number in range(4))))
    s3.put_object(Bucket=BUCKET, Key="sitemap-9.xml", Body=b"<urlset/>")  # not sitemill's
    again = rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert again.result.deleted == ["sitemap-4.xml"]
    assert sorted(keys(s3)) == [
        *(f"p{number}.html" for number in range(4)),
        "sitemap-1.xml",
        "sitemap-2.xml",
        "sitemap-9.xml",
        "sitemap.xml",
        "sitemill-state.json.gz",
    ]
    assert rebuild_bucket(config, s3, BucketSite(BUCKET)).result.changed is False


def test_a_deletion_is_conditional_on_the_version_listed(s3: Any) -> None:
    """Another writer's version of a child, put after this run listed it, is never deleted
    (its index may name it): a ConflictError, and the object stays (issue 46, item 7)."""
    s3.put_object(Bucket=BUCKET, Key="sitemap-3.xml", Body=b"old")
    s3.put_object(Bucket=BUCKET, Key="sitemap-4.xml", Body=b"old")
    sink = S3Sink(s3, BUCKET)
    assert list(sink.names()) == ["sitemap-3.xml", "sitemap-4.xml"]  # (listed)
    s3.put_object(Bucket=BUCKET, Key="sitemap-3.xml", Body=b"the other writer's")
    with pytest.raises(ConflictError):
        sink.delete("sitemap-3.xml")
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-3.xml")["Body"].read() == b"the other writer's"
    sink.delete("sitemap-4.xml")  # (unchanged since listed: deleted)
    s3.delete_object(Bucket=BUCKET, Key="sitemap-3.xml")
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET)


def test_renewing_keeps_the_bytes_and_changes_the_etag(s3: Any) -> None:
    """A child whose bytes are there already, written again under a new ETag: a deletion
    conditional on the ETag listed before (another run's) then fails."""
    s3.put_object(Bucket=BUCKET, Key="sitemap-3.xml", Body=b"<urlset/>")
    other = S3Sink(s3, BUCKET)  # (a run that listed it, about to delete it)
    assert list(other.names()) == ["sitemap-3.xml"]
    sink = S3Sink(s3, BUCKET)
    before = s3.head_object(Bucket=BUCKET, Key="sitemap-3.xml")["ETag"]
    sink.renew("sitemap-3.xml", b"<urlset/>", content_type="application/xml")
    head = s3.head_object(Bucket=BUCKET, Key="sitemap-3.xml")
    assert head["ETag"] != before and head["ContentType"] == "application/xml"
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-3.xml")["Body"].read() == b"<urlset/>"
    with pytest.raises(ConflictError):
        other.delete("sitemap-3.xml")
    assert not s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads")
