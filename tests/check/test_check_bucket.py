"""`sitemill check --bucket` after `sitemill s3` (moto, and the stand as the live site): the
record is the bucket's, single-state or partitioned; what passed is announced."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from enginestand import KEY, Stand
from s3util import BUCKET, STATE_BUCKET, three_page_bucket, words_page
from sitemill.cli.main import main


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from three_page_bucket(monkeypatch)


def serve_bucket(client: Any, stand: Stand) -> None:
    """The stand serves the bucket as it is now (each object with its Content-Type)."""
    stand.files.clear()
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        got = client.get_object(Bucket=BUCKET, Key=item["Key"])
        headers = {"Content-Type": got["ContentType"]}
        stand.files["/" + item["Key"]] = (200, got["Body"].read(), headers)
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/plain"})


@pytest.mark.parametrize("shards", ["auto", "off"])
def test_a_bucket_site_is_checked_against_its_record_and_what_passed_is_announced(
    s3: Any, stand: Stand, shards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = [
        "--base-url", stand.origin + "/",
        "--state", f"s3://{STATE_BUCKET}/sitemill-state.json.gz",
        "--shards", shards,
        "--indexnow-endpoint", stand.origin + "/indexnow",
    ]  # fmt: skip
    assert main(["s3", "--bucket", BUCKET, "--indexnow=later", *common]) == 0
    kept = [item["Key"] for item in s3.list_objects_v2(Bucket=STATE_BUCKET)["Contents"]]
    assert any(key.endswith("index-state.json") for key in kept) is (shards == "auto"), kept
    serve_bucket(s3, stand)
    assert main(["check", "--bucket", BUCKET, "--all", *common]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("; no problem")
    old_b = stand.files["/b.html"]
    s3.put_object(
        Bucket=BUCKET, Key="b.html", Body=words_page("b, edited"), ContentType="text/html"
    )
    s3.put_object(
        Bucket=BUCKET, Key="a.html", Body=words_page("a, edited"), ContentType="text/html"
    )
    s3.delete_object(Bucket=BUCKET, Key="c.html")
    assert main(["s3", "--bucket", BUCKET, "--indexnow=later", *common]) == 0
    serve_bucket(s3, stand)
    stand.files["/b.html"] = old_b  # (a cache still serves the old b.html)
    capsys.readouterr()
    assert main(["check", "--bucket", BUCKET, "--indexnow=later", *common]) == 1
    out = capsys.readouterr().out
    assert f"problem: {stand.origin}/b.html: serves another version" in out
    # c.html, removed with no redirect, answers 404: a reader who follows a link gets nothing
    # (a partitioned state keeps it in its manifest, a single one in the state).
    assert f"problem: {stand.origin}/c.html: answers 404" in out
    assert out.count("problem: ") == 2
    (post,) = stand.posts
    assert post["urlList"] == [f"{stand.origin}/a.html", f"{stand.origin}/c.html"]
    serve_bucket(s3, stand)
    assert main(["check", "--bucket", BUCKET, "--indexnow=later", *common]) == 1
    out = capsys.readouterr().out
    assert out.count("problem: ") == 1
    assert stand.posts[-1]["urlList"] == [f"{stand.origin}/b.html"]


def test_no_state_beside_a_bucket_says_where_the_stack_keeps_it(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --state, the one line names the flag that reads the S3 stack's state (issue 82):
    the stack keeps it in a bucket of its own, never beside the sitemaps."""
    code = main(
        ["check", "--bucket", BUCKET, "--prefix", "docs/", "--base-url", "http://127.0.0.1:9/"]
    )
    assert code == 1
    assert capsys.readouterr().err == (
        f"sitemill: error: no sitemill state for s3://{BUCKET}/docs/: `sitemill check` compares "
        "the live site with what the last run published (run `sitemill s3` or the Lambda first, "
        "with the same `state`); the S3 stack keeps its state in its own bucket (its "
        f"StateBucketName output): pass --state s3://<StateBucketName>/{BUCKET}/docs/"
        "sitemill-state.json.gz\n"
    )
