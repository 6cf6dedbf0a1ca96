"""Racing writers on one bucket: the live index never names a missing or stale child."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote

import boto3
import pytest
from botocore.exceptions import ClientError

from consistency import assert_one_build, live_urls
from motoserver import moto_server
from outputlist import rebuild_bucket
from s3util import BASE, BUCKET, Requests, make_config, moto_bucket, put_pages
from sitemill.errors import SinkError
from sitemill.jobs.bucket import BucketSite


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def reader(client: Any) -> Callable[[str], bytes | None]:
    def read(name: str) -> bytes | None:
        try:
            data: bytes = client.get_object(Bucket=BUCKET, Key=name)["Body"].read()
        except ClientError:
            return None
        return data

    return read


def urls(*paths: str) -> list[str]:
    return [BASE + path for path in paths]


def once_around(client: Any, when: str, key: str, action: Callable[[], None]) -> None:
    """Run ``action`` once, ``when`` ("before"/"after") the client's first PUT of ``key``."""
    done = [False]

    def hook(params: dict[str, Any] | None = None, **kwargs: Any) -> None:
        request = params if params is not None else kwargs.get("params")
        path = unquote(request["url_path"]) if request else None
        if not done[0] and (path == f"/{key}" or when == "after"):
            done[0] = True
            action()

    if when == "before":
        client.meta.events.register("before-call.s3.PutObject", hook)
    else:

        def after(http_response: Any, parsed: Any, model: Any, **kwargs: Any) -> None:
            context = kwargs.get("context", {})
            if not done[0] and context.get("sitemill_key") == key:
                done[0] = True
                action()

        def remember(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
            context["sitemill_key"] = unquote(params["url_path"]).lstrip("/")

        client.meta.events.register("before-call.s3.PutObject", remember)
        client.meta.events.register("after-call.s3.PutObject", after)


def test_another_index_going_live_before_deletion_stops_the_deletion(s3: Any) -> None:
    """Hook between this run's index write and its deletions: the other writer's index
    names the child this run found stale; it must survive, and this run redoes its work."""
    config = make_config(max_urls=2, shards="off")
    put_pages(s3, "a.html", "b.html", "c.html", "d.html", "e.html")
    rebuild_bucket(config, s3, BucketSite(BUCKET))  # three children
    s3.delete_object(Bucket=BUCKET, Key="d.html")
    s3.delete_object(Bucket=BUCKET, Key="e.html")  # this run: two children, sitemap-3 stale
    other = boto3.client("s3", region_name="us-east-1")

    def other_writer_goes_live() -> None:
        put_pages(other, "f.html", "g.html", "h.html")  # six pages: three children again
        rebuild_bucket(config, other, BucketSite(BUCKET))

    once_around(s3, "after", "sitemap.xml", other_writer_goes_live)
    report = rebuild_bucket(config, s3, BucketSite(BUCKET))
    final = ["a.html", "b.html", "c.html", "f.html", "g.html", "h.html"]
    assert_one_build(reader(s3), urls(*final))
    assert report.result.url_count == 6


def test_a_stale_run_never_overwrites_a_newer_child(s3: Any) -> None:
    """The lost update: the index bytes do not change (no lastmod), so only a conditional
    child write can notice that another writer replaced the child meanwhile."""
    config = make_config(max_urls=2, lastmod="none", shards="off")
    put_pages(s3, "a.html", "b.html", "c.html", "x.html")
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    s3.delete_object(Bucket=BUCKET, Key="x.html")  # this run: sitemap-2 = [c]
    other = boto3.client("s3", region_name="us-east-1")

    def newer_writer() -> None:
        put_pages(other, "e.html")  # the other run: sitemap-2 = [c, e], same index bytes
        rebuild_bucket(config, other, BucketSite(BUCKET))

    once_around(s3, "before", "sitemap-2.xml", newer_writer)
    requests = Requests(s3)
    report = rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert requests.summary()["ListObjectsV2"] == 2  # refused (412), listed again
    assert sorted(live_urls(reader(s3))) == urls("a.html", "b.html", "c.html", "e.html")
    assert report.result.url_count == 4


def test_an_identical_index_does_not_hide_a_conflict_on_deletion(s3: Any) -> None:
    config = make_config(max_urls=2, lastmod="none", shards="off")
    put_pages(s3, "a.html", "b.html", "c.html")
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    s3.delete_object(Bucket=BUCKET, Key="c.html")  # this run: one file, both children stale
    other = boto3.client("s3", region_name="us-east-1")

    def newer_writer() -> None:
        put_pages(other, "c.html", "d.html")
        rebuild_bucket(config, other, BucketSite(BUCKET))

    once_around(s3, "after", "sitemap.xml", newer_writer)
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert_one_build(reader(s3), urls("a.html", "b.html", "c.html", "d.html"))


@pytest.mark.parametrize("round_", range(6))
def test_two_threads_rebuilding_at_once_end_with_one_consistent_build(s3: Any, round_: int) -> None:
    config = make_config(max_urls=2, shards="off")
    put_pages(s3, *(f"base{number}.html" for number in range(5)))
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def writer(name: str, pages: list[str]) -> None:
        client = boto3.client("s3", region_name="us-east-1")
        put_pages(client, *pages)
        barrier.wait()
        try:
            rebuild_bucket(config, client, BucketSite(BUCKET))
            outcomes.append("ok")
        except SinkError as exc:  # gave up after repeated conflicts: allowed, never half-done
            outcomes.append(str(exc))

    first = [f"one{number}.html" for number in range(round_ + 1)]
    second = [f"two{number}.html" for number in range(3)]
    threads = [
        threading.Thread(target=writer, args=("one", first)),
        threading.Thread(target=writer, args=("two", second)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    everything = [f"base{number}.html" for number in range(5)] + first + second
    live = live_urls(reader(s3))
    assert len(live) == len(set(live))
    if outcomes == ["ok", "ok"]:
        assert sorted(live) == sorted(urls(*everything))
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert_one_build(reader(s3), urls(*everything))


# --- two writers and a crawler on a moto server ----------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with moto_server() as url:
        yield url


def server_client(endpoint: str) -> Any:
    return boto3.client(
        "s3",
        region_name="us-east-1",
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def live_children_exist(client: Any, bucket: str) -> list[str]:
    """The children the live index names that are missing (a crawler would get a 404)."""
    try:
        index = client.get_object(Bucket=bucket, Key="sitemap.xml")["Body"].read()
    except ClientError:
        return []
    missing = []
    for child in re.findall(rb"<loc>[^<]*/([^/<]+)</loc>", index):
        try:
            client.head_object(Bucket=bucket, Key=child.decode())
        except ClientError:
            missing.append(child.decode())
    return missing


def test_another_writers_fresh_staging_copies_survive_on_a_moto_server(server: str) -> None:
    """Writer B has put its staging copies; before its interim index goes live, writer A runs
    to its end with the same pages. A's final index has the bytes of the index B listed, so
    B's conditional write (If-Match: an MD5 ETag) still succeeds: had A deleted B's copies, as
    when all runs shared the names sitemap-N-next.xml, the live index would name missing files."""
    bucket = "races-staging"
    client = server_client(server)
    client.create_bucket(Bucket=bucket)
    config = make_config(
        max_urls=2, lastmod="none", shards="off"
    )  # same number of children: same index
    site = BucketSite(bucket)
    for number in range(10, 16):
        client.put_object(Bucket=bucket, Key=f"p{number}.html", Body=b"<title>p</title>")
    rebuild_bucket(config, client, site)
    client.delete_object(Bucket=bucket, Key="p10.html")
    client.put_object(Bucket=bucket, Key="p16.html", Body=b"<title>p</title>")  # all shift
    writer_b = server_client(server)
    checked: list[list[str]] = []
    fired: list[str] = []

    def run_a_first(params: dict[str, Any], **_: Any) -> None:
        body = params.get("body")
        data = body.getvalue() if isinstance(body, io.BytesIO) else body
        if params["url_path"].endswith("/sitemap.xml") and b"-next" in data and not fired:
            fired.append("A")
            rebuild_bucket(config, server_client(server), site)

    def check_live(http_response: Any, model: Any, **_: Any) -> None:
        checked.append(live_children_exist(client, bucket))

    writer_b.meta.events.register("before-call.s3.PutObject", run_a_first)
    writer_b.meta.events.register("after-call.s3.PutObject", check_live)
    writer_b.meta.events.register("after-call.s3.DeleteObject", check_live)
    rebuild_bucket(config, writer_b, site)
    assert fired == ["A"]
    assert len(checked) > 5
    assert [missing for missing in checked if missing] == []
    pages = [f"p{number}.html" for number in range(11, 17)]
    assert_one_build(reader(client_for(client, bucket)), urls(*pages))
    keys = [obj["Key"] for obj in client.list_objects_v2(Bucket=bucket)["Contents"]]
    assert not [key for key in keys if "-next" in key]


def client_for(client: Any, bucket: str) -> Any:
    """``client`` reading ``bucket`` wherever the helpers read BUCKET."""

    class Reader:
        def get_object(self, Bucket: str, Key: str) -> Any:
            return client.get_object(Bucket=bucket, Key=Key)

    return Reader()
