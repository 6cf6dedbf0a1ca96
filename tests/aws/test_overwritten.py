"""sitemill's sitemap files in a bucket are told by what the committed record (the state's
digests, or the sharded manifest) says sitemill published, never by their shape: a copy of
sitemill's own sitemap from another run is put right, sitemill's own writes coming back cost a
HEAD each and trigger nothing, also when no record could be read before the rebuild."""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_lambda import S3Changes, sqs_batch

from s3util import BASE, BUCKET, PAGE, Requests, moto_bucket, restored_logging
from sitemill.aws.handler import handle
from sitemill.state.parse import parse_state

STATE_BUCKET = "sitemill-state-bucket"
PAGES = ["index.html", "a.html", "b.html", "docs/c.html", "docs/d.html"]
PARTITIONED = {
    "SITEMILL_STATE": f"s3://{STATE_BUCKET}/{BUCKET}/sitemill-state.json.gz",
    "SITEMILL_SHARDS": "on",
    "SITEMILL_SHARD_FILL": "2",
}
LAYOUTS = {
    "one file": {},
    "children": {"SITEMILL_MAX_URLS": "2", "SITEMILL_GZIP": "true"},
    "sharded": {**PARTITIONED, "SITEMILL_MAX_URLS": "2", "SITEMILL_GZIP": "true"},
}
# Where each layout's record of what sitemill published lives.
RECORDS = {
    "one file": (BUCKET, "sitemill-state.json.gz"),
    "children": (BUCKET, "sitemill-state.json.gz"),
    "sharded": (STATE_BUCKET, f"{BUCKET}/sitemill-state/index-state.json"),
}


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture(params=list(LAYOUTS), ids=list(LAYOUTS))
def site(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for key in PAGES:
            client.put_object(Bucket=BUCKET, Key=key, Body=PAGE)
        env = {"SITEMILL_BASE_URL": BASE, "SITEMILL_BUCKET": BUCKET, **LAYOUTS[request.param]}
        result = handle({"action": "rebuild"}, env=env, s3=client)
        assert result["status"] == "ok", result
        yield Site(client, env, request.param)


class Site:
    def __init__(self, s3: Any, env: dict[str, str], layout: str) -> None:
        self.s3, self.env, self.layout = s3, env, layout

    def get(self, key: str) -> bytes:
        data: bytes = self.s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
        return data

    def sitemaps(self) -> dict[str, bytes]:
        listing = self.s3.list_objects_v2(Bucket=BUCKET, Prefix="sitemap")
        return {item["Key"]: self.get(item["Key"]) for item in listing.get("Contents", [])}

    def written(self, *keys: str) -> dict[str, Any]:
        """The function on the notifications of these keys' creation."""
        result = handle(
            sqs_batch([("ObjectCreated:Put", key) for key in keys]), env=self.env, s3=self.s3
        )
        assert result["batchItemFailures"] == [], result
        return result


def staging_copy(data: bytes) -> bytes:
    """sitemill's file as a staging run of it wrote it: the same shape, its URLs on localhost."""
    if data[:2] == b"\x1f\x8b":
        return gzip.compress(staging_copy(gzip.decompress(data)), mtime=0)
    assert BASE.encode() in data
    return data.replace(BASE.encode(), b"http://localhost:8000/")


# (A sharded bucket's manifest names each file with its digest: sitemill.shards.manifest.)
@pytest.mark.parametrize("site", ["one file", "children"], indirect=True)
def test_the_state_records_the_digest_of_each_file_published(site: Site) -> None:
    state = parse_state(site.get("sitemill-state.json.gz"))
    assert set(state.digests) == set(site.sitemaps()) == set(state.outputs)
    for name, data in site.sitemaps().items():
        assert hashlib.md5(data, usedforsecurity=False).hexdigest() == state.digests[name]


def test_sitemills_shape_from_another_run_is_put_right(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = site.sitemaps()
    for key in ours:  # the index, and each (.gz) child on its own
        site.s3.put_object(Bucket=BUCKET, Key=key, Body=staging_copy(ours[key]))
        result = site.written(key)
        assert (result["status"], result["sitemaps_replaced"]) == ("ok", 1), (key, result)
        assert site.sitemaps() == ours, key
    assert "is not the file sitemill published" in capsys.readouterr().out


def test_sitemills_own_writes_coming_back_cost_a_head_each(site: Site) -> None:
    keys = sorted(site.sitemaps())
    requests = Requests(site.s3)
    result = site.written(*keys)
    assert (result["status"], result["ignored"]) == ("skipped", {"own_output": len(keys)})
    record = RECORDS[site.layout][1]  # one read of the record, one HEAD per file
    assert sorted(requests.calls) == sorted(
        [("GetObject", record)] + [("HeadObject", key) for key in keys]
    )


def test_a_file_no_record_names_triggers_nothing(site: Site) -> None:
    # Another run's file on its way (no index of sitemill's names it yet), or a stray.
    site.s3.put_object(Bucket=BUCKET, Key="sitemap-9.xml", Body=b"<urlset/>")
    requests = Requests(site.s3)
    result = site.written("sitemap-9.xml")
    assert result["status"] == "skipped", result
    assert all(name == "GetObject" for name, _ in requests.calls), requests.calls


def undated(data: bytes) -> bytes:
    return re.sub(rb"<lastmod>[^<]*</lastmod>", b"", data)


def test_with_no_record_one_rebuild_then_its_own_writes_trigger_nothing(site: Site) -> None:
    ours = site.sitemaps()
    bucket, record = RECORDS[site.layout]
    site.s3.delete_object(Bucket=bucket, Key=record)
    site.s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=staging_copy(ours["sitemap.xml"]))
    changes = S3Changes(site.s3)
    result = site.written("sitemap.xml")
    assert (result["status"], result["sitemaps_replaced"]) == ("ok", 1), result
    rebuilt = site.sitemaps()
    # The same files; an index dates its children by this rebuild: the record that remembered
    # when their bytes changed is gone (docs/output.md, "An index child's lastmod").
    assert rebuilt.keys() == ours.keys()
    assert all(rebuilt[name] == data for name, data in ours.items() if name != "sitemap.xml")
    assert undated(rebuilt["sitemap.xml"]) == undated(ours["sitemap.xml"])
    assert site.layout != "one file" or rebuilt == ours
    echo = [(name, key) for name, key in changes.take() if key.startswith("sitemap")]
    assert echo, "the rebuild wrote sitemill's sitemap.xml back"
    again = handle(sqs_batch(echo), env=site.env, s3=site.s3)
    assert again["status"] == "skipped", again
    assert changes.take() == []


@pytest.mark.parametrize("same", [True, False], ids=["same bytes", "other bytes"])
def test_an_etag_that_is_no_md5_is_checked_by_the_bytes(site: Site, same: bool) -> None:
    """A multipart upload's ETag ("…-1") says nothing of the bytes: they are read."""
    ours = site.get("sitemap.xml")
    body = ours if same else staging_copy(ours)
    upload = site.s3.create_multipart_upload(Bucket=BUCKET, Key="sitemap.xml")["UploadId"]
    part = site.s3.upload_part(
        Bucket=BUCKET, Key="sitemap.xml", UploadId=upload, PartNumber=1, Body=body
    )
    site.s3.complete_multipart_upload(
        Bucket=BUCKET,
        Key="sitemap.xml",
        UploadId=upload,
        MultipartUpload={"Parts": [{"ETag": part["ETag"], "PartNumber": 1}]},
    )
    assert "-" in site.s3.head_object(Bucket=BUCKET, Key="sitemap.xml")["ETag"]
    result = site.written("sitemap.xml")
    assert result["status"] == ("skipped" if same else "ok"), result
    assert site.get("sitemap.xml") == ours
