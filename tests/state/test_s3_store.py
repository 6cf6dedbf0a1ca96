"""The state in an S3 object of its own: bounded reads, writes only when changed, conditional
writes, and a missing key told apart from a denied one (moto, in process)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from botocore.exceptions import ClientError

from s3util import Requests, moto_bucket
from sitemill.errors import ConfigError, ConflictError, SinkError
from sitemill.state.s3 import S3StateStore, parse_s3_location

STATE_BUCKET = "site-bucket"  # moto_bucket's
KEY = "example-site/site/sitemill-state.json.gz"
DATA = b"\x1f\x8b state one"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def stored(s3: Any, key: str = KEY) -> bytes:
    data: bytes = s3.get_object(Bucket=STATE_BUCKET, Key=key)["Body"].read()
    return data


def error(code: str, status: int, operation: str) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}},
        operation,
    )


def test_no_object_is_no_state_and_the_first_write_creates_it_only_if_still_absent(
    s3: Any,
) -> None:
    sent: list[dict[str, Any]] = []
    s3.meta.events.register("before-call.s3.PutObject", lambda params, **_: sent.append(params))
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    assert store.where == f"s3://{STATE_BUCKET}/{KEY}"
    assert store.read() is None
    assert store.write(DATA) is True
    assert stored(s3) == DATA
    headers = sent[-1]["headers"]
    assert headers["If-None-Match"] == "*"
    assert "If-Match" not in headers
    assert headers["Content-Type"] == "application/gzip"


def test_unchanged_bytes_are_not_put_again(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    requests = Requests(s3)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    assert store.read() == DATA
    assert store.write(DATA) is False
    assert requests.summary() == {"GetObject": 1}


def test_changed_bytes_are_put_against_the_etag_read(s3: Any) -> None:
    etag = s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)["ETag"]
    sent: list[dict[str, Any]] = []
    s3.meta.events.register("before-call.s3.PutObject", lambda params, **_: sent.append(params))
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    store.read()
    assert store.write(b"\x1f\x8b state two") is True
    assert sent[-1]["headers"]["If-Match"] == etag
    assert stored(s3) == b"\x1f\x8b state two"
    # The store now knows the new version: the same bytes again are no write.
    assert store.write(b"\x1f\x8b state two") is False
    assert len(sent) == 1


def test_a_write_without_a_read_first_reads_once(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    requests = Requests(s3)
    assert S3StateStore(s3, STATE_BUCKET, KEY).write(DATA) is False
    assert requests.summary() == {"GetObject": 1}


def test_another_writers_state_is_a_conflict_never_overwritten(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    store.read()
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=b"theirs")
    with pytest.raises(ConflictError, match="changed by another writer"):
        store.write(b"ours")
    assert stored(s3) == b"theirs"
    # Redone as a rebuild redoes it: read again, then the write goes through.
    assert store.read() == b"theirs"
    assert store.write(b"ours") is True


def test_a_state_created_meanwhile_is_a_conflict(s3: Any) -> None:
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    assert store.read() is None
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=b"theirs")
    with pytest.raises(ConflictError):
        store.write(b"ours")
    assert stored(s3) == b"theirs"


def test_a_state_deleted_meanwhile_is_a_conflict(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    store.read()
    s3.delete_object(Bucket=STATE_BUCKET, Key=KEY)
    with pytest.raises(ConflictError):
        store.write(b"ours")


def test_without_conditional_writes_the_state_is_still_written(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sitemill.state.s3.supports_conditional_put", lambda client: False)
    sent: list[dict[str, Any]] = []
    s3.meta.events.register("before-call.s3.PutObject", lambda params, **_: sent.append(params))
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    sent.clear()
    assert S3StateStore(s3, STATE_BUCKET, KEY).write(b"new") is True
    assert "If-Match" not in sent[-1]["headers"]
    assert "If-None-Match" not in sent[-1]["headers"]


def test_the_body_is_read_no_further_than_one_byte_past_the_bound(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=b"x" * 101)
    with pytest.raises(SinkError, match="larger than 100 bytes"):
        S3StateStore(s3, STATE_BUCKET, KEY, limit=100).read()
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=b"x" * 100)
    assert S3StateStore(s3, STATE_BUCKET, KEY, limit=100).read() == b"x" * 100


def test_a_missing_key_behind_a_403_is_no_state(s3: Any) -> None:
    # The stack's role may list only this key (an s3:prefix condition a GET does not carry):
    # S3 answers 403 for the missing key, and one LIST of exactly it says it is not there.
    def deny(params: dict[str, Any], **_: Any) -> None:
        raise error("AccessDenied", 403, "GetObject")

    s3.meta.events.register("before-call.s3.GetObject", deny)
    requests = Requests(s3)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    assert store.read() is None
    lists = [path for name, path in requests.calls if name == "ListObjectsV2"]
    assert len(lists) == 1
    s3.meta.events.unregister("before-call.s3.GetObject", deny)
    assert store.write(DATA) is True  # created only if still absent
    assert stored(s3) == DATA


def test_a_state_that_exists_and_may_not_be_read_is_a_sink_error(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)

    def deny(params: dict[str, Any], **_: Any) -> None:
        raise error("AccessDenied", 403, "GetObject")

    s3.meta.events.register("before-call.s3.GetObject", deny)
    with pytest.raises(SinkError, match=r"may not read it") as caught:
        S3StateStore(s3, STATE_BUCKET, KEY).read()
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("operation", "code", "status", "message"),
    [
        ("GetObject", "InternalError", 500, "cannot read the state"),
        ("GetObject", "NoSuchBucket", 404, "cannot read the state"),
        ("PutObject", "AccessDenied", 403, "cannot write the state"),
        ("PutObject", "SlowDown", 503, "cannot write the state"),
    ],
)
def test_other_failures_are_one_line_sink_errors(
    s3: Any, operation: str, code: str, status: int, message: str
) -> None:
    def fail(params: dict[str, Any], **_: Any) -> None:
        if unquote(params["url_path"]).endswith(KEY):
            raise error(code, status, operation)

    s3.meta.events.register(f"before-call.s3.{operation}", fail)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    with pytest.raises(SinkError, match=message) as caught:
        store.read() if operation == "GetObject" else store.write(DATA)
    assert not isinstance(caught.value, ConflictError)
    assert f"{code} (HTTP {status})" in str(caught.value)


def test_sse_kms_etags_never_match_so_the_state_is_written_again(s3: Any) -> None:
    s3.put_object(Bucket=STATE_BUCKET, Key=KEY, Body=DATA)
    store = S3StateStore(s3, STATE_BUCKET, KEY)
    store.read()
    assert store._etag is not None
    assert store._etag.strip('"') == hashlib.md5(DATA).hexdigest()
    store._etag = '"opaque-kms-etag"'
    # Not equal to the MD5, so written: If-Match fails against the real ETag (a conflict),
    # which is what a rebuild redoes; nothing is lost.
    with pytest.raises(ConflictError):
        store.write(DATA)


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("s3://state-bucket/state.json.gz", ("state-bucket", "state.json.gz")),
        ("s3://a.b-c/x/y/z.gz", ("a.b-c", "x/y/z.gz")),
        ("  s3://abc/k  ", ("abc", "k")),
    ],
)
def test_s3_locations(location: str, expected: tuple[str, str]) -> None:
    assert parse_s3_location(location) == expected


@pytest.mark.parametrize(
    "location",
    [
        "s3://",
        "s3:///key",
        "s3://ab/key",
        "s3://UPPER/key",
        "s3://under_score/key",
        "s3://a..b/key",
        "s3://bucket",
        "s3://bucket/",
        "s3://bucket/dir/",
        "s3://bucket/a\nb",
        "https://bucket/key",
    ],
)
def test_bad_s3_locations_are_config_errors(location: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_s3_location(location)
    assert caught.value.key == "state"
