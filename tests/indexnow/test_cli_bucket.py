"""`sitemill s3 --indexnow=later`, then `sitemill indexnow --bucket` after the deploy (moto,
and the engine-and-site stand on 127.0.0.1): partitioned and single-state layouts."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import Any

import pytest

from enginestand import KEY, Stand
from s3util import BUCKET, STATE_BUCKET, three_page_bucket, words_page
from sitemill.cli.main import main


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from three_page_bucket(monkeypatch)


@pytest.mark.parametrize("shards", ["auto", "off"])
def test_later_then_announced_after_the_deploy(
    s3: Any, stand: Stand, shards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = [
        "--base-url",
        stand.origin + "/",
        "--state",
        f"s3://{STATE_BUCKET}/sitemill-state.json.gz",
        "--shards",
        shards,
        "--indexnow-endpoint",
        stand.origin + "/indexnow",
    ]
    assert main(["s3", "--bucket", BUCKET, "--indexnow=later", *common]) == 0
    s3.put_object(Bucket=BUCKET, Key="b.html", Body=words_page("b, edited"))
    s3.delete_object(Bucket=BUCKET, Key="c.html")
    assert main(["s3", "--bucket", BUCKET, "--indexnow=later", *common]) == 0
    assert "2 pending for `sitemill indexnow`" in capsys.readouterr().out
    assert stand.requests == []
    assert main(["indexnow", "--bucket", BUCKET, "--dry-run", *common]) == 0
    assert f"removed: {stand.origin}/c.html" in capsys.readouterr().out
    assert stand.requests == []
    assert main(["indexnow", "--bucket", BUCKET, *common]) == 0
    (post,) = stand.posts
    assert post["urlList"] == [f"{stand.origin}/b.html", f"{stand.origin}/c.html"]
    assert main(["indexnow", "--bucket", BUCKET, *common]) == 0  # nothing left
    assert len(stand.posts) == 1
    for item in s3.list_objects_v2(Bucket=STATE_BUCKET)["Contents"]:
        data = s3.get_object(Bucket=STATE_BUCKET, Key=item["Key"])["Body"].read()
        text = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        assert KEY.encode() not in text
        # c.html is no longer pending; a state keeps it only as a URL the build removed (its
        # object gone), for sitemill check.
        assert text.count(b"c.html") == text.count(b'/c.html":{"verdict":"gone"}')
