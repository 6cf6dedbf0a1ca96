"""The function takes over a sitemap sitemill did not write as the CLI does (the same job):
a 2 GiB-inflating .gz twin is read bounded and goes (no MemoryError on every redelivery),
and with text output the generator's index and its children all stay."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bombs import gzip_bomb
from s3util import BASE, BUCKET, PAGE, moto_bucket, restored_logging
from sitemill.aws.handler import handle
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.writing.sitemapfile import HEAD_BYTES

ENV = {"SITEMILL_BASE_URL": BASE, "SITEMILL_BUCKET": BUCKET}
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
HUGO = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
MKDOCS = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n    <url>\n'
    f"         <loc>{BASE}only-mkdocs/</loc>\n    </url>\n</urlset>"
).encode()
REBUILD = {"action": "rebuild"}


class Context:
    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e812345678"


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.put_object(Bucket=BUCKET, Key="index.html", Body=PAGE)
        yield client


def warnings_of(capsys: pytest.CaptureFixture[str]) -> list[str]:
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [line["message"] for line in lines if line["level"] == "WARNING"]


def test_a_bomb_twin_is_read_bounded_and_deleted(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'.encode()
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=MKDOCS)
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml.gz", Body=gzip_bomb(head))
    capsys.readouterr()
    tracemalloc.start()
    try:
        result = handle(REBUILD, Context(), env=ENV, s3=s3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024 * 1024
    assert (result["status"], result["deleted"]) == ("ok", 1)
    (warning,) = warnings_of(capsys)
    assert warning.startswith("replacing MkDocs' sitemap.xml with sitemill's (deleting sitemap")
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert "sitemap.xml.gz" not in keys


def test_text_output_leaves_hugos_index_and_children(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    index = (
        f"{HUGO}<sitemapindex {NS}><sitemap><loc>/en/sitemap.xml</loc></sitemap></sitemapindex>"
    ).encode()
    child = f"{HUGO}<urlset {NS}><url><loc>{BASE}</loc></url></urlset>".encode()
    s3.put_object(Bucket=BUCKET, Key="sitemap.xml", Body=index)
    s3.put_object(Bucket=BUCKET, Key="en/sitemap.xml", Body=child)
    capsys.readouterr()
    result = handle(REBUILD, Context(), env=ENV | {"SITEMILL_FORMAT": "txt"}, s3=s3)
    assert result["status"] == "ok"
    assert result.get("deleted", 0) == 0
    read = s3.get_object
    assert read(Bucket=BUCKET, Key="sitemap.xml")["Body"].read() == index
    assert read(Bucket=BUCKET, Key="en/sitemap.xml")["Body"].read() == child
    (warning,) = warnings_of(capsys)
    assert warning.startswith("Hugo's sitemap.xml stays beside sitemill's sitemap.txt")
    assert "replacing" not in warning


def test_astros_takeover_keeps_the_objects_the_user_wrote(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """@astrojs/sitemap's customSitemaps: its index names the user's sitemaps beside its own
    children; only Astro's own go (the index, sitemap-0.xml), the user's stay byte for byte."""
    user = f"<?xml version='1.0'?><urlset {NS}><url><loc>{BASE}blog/</loc></url></urlset>".encode()
    locs = ("blog-sitemap.xml", "docs/sitemap.xml", "sitemap-blog.xml", "sitemap-0.xml")
    items = "".join(f"<sitemap><loc>{BASE}{name}</loc></sitemap>" for name in locs)
    index = f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex {NS}>{items}</sitemapindex>'
    child = f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}><url><loc>{BASE}</loc></url>'
    s3.put_object(Bucket=BUCKET, Key="sitemap-index.xml", Body=index.encode())
    s3.put_object(Bucket=BUCKET, Key="sitemap-0.xml", Body=(child + "</urlset>").encode())
    for name in locs[:3]:
        s3.put_object(Bucket=BUCKET, Key=name, Body=user)
    capsys.readouterr()
    result = handle(REBUILD, Context(), env=ENV, s3=s3)
    assert (result["status"], result["deleted"]) == ("ok", 2), result
    read = s3.get_object
    for name in locs[:3]:
        assert read(Bucket=BUCKET, Key=name)["Body"].read() == user, name
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert not {"sitemap-index.xml", "sitemap-0.xml"} & keys
    (warning,) = warnings_of(capsys)
    assert warning.startswith(
        "sitemill's sitemap.xml takes over from Astro's sitemap-index.xml (deleting it and "
        "sitemap-0.xml; keeping and naming blog-sitemap.xml, docs/sitemap.xml, sitemap-blog.xml, "
        "not Astro's own): "
    )


class BytesRead:
    """The bytes S3 sent for each GET of one key (its responses' ContentLength), counted by a
    botocore ``after-call`` hook: what a run read of it, whatever it did with them."""

    def __init__(self, client: Any, key: str) -> None:
        self.key, self.sent = key, 0
        client.meta.events.register("before-call.s3.GetObject", self._asked)
        client.meta.events.register("after-call.s3.GetObject", self._answered)
        self._this: list[bool] = []

    def _asked(self, params: dict[str, Any], **_: Any) -> None:
        self._this.append(params["url_path"].rstrip("/").endswith("/" + self.key))

    def _answered(self, parsed: dict[str, Any], **_: Any) -> None:
        if self._this.pop():
            self.sent += int(parsed.get("ContentLength", 0))


def write_large_urlset(path: Path, size: int) -> int:
    """A generator's urlset of at least ``size`` bytes, written a line at a time."""
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'.encode()
    written = 0
    with path.open("wb") as out:
        written += out.write(head)
        n = 0
        while written < size:
            n += 1
            written += out.write(f"<url><loc>{BASE}page-{n:09d}/</loc></url>\n".encode())
        written += out.write(b"</urlset>\n")
    return written


def test_a_generators_52_mib_sitemap_is_replaced_reading_its_head(
    s3: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 78: an `aws s3 sync` of a build folder whose sitemap.xml (a urlset) is 52 MiB,
    over the protocol's bound: whose it is and what it is are told from its head; it is
    replaced as a smaller one is, and no event fails ("refusing to read or replace")."""
    big = tmp_path / "sitemap.xml"
    size = write_large_urlset(big, 52 * 1024 * 1024)
    assert size > MAX_BYTES_LIMIT
    s3.upload_file(str(big), BUCKET, "sitemap.xml")
    big.unlink()
    counted = BytesRead(s3, "sitemap.xml")
    capsys.readouterr()
    result = handle(REBUILD, Context(), env=ENV, s3=s3)
    assert result["status"] == "ok", result
    assert counted.sent <= HEAD_BYTES  # its head, not its 54 MB
    body = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert b"page-000000001" not in body and f"<loc>{BASE}</loc>".encode() in body
    (warning,) = warnings_of(capsys)
    assert warning.startswith("replacing a sitemap.xml sitemill did not write"), warning
