"""Taking over a sitemap sitemill did not write, in a folder and in a bucket (moto): only
sitemaps go (never a feed or a page an index names), text output leaves them all, any
foreign sitemap is taken over, and a .gz twin that inflates to 2 GiB costs a few MB."""

from __future__ import annotations

import gzip
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bombs import gzip_bomb
from outputlist import build_from_tree, rebuild_bucket
from s3util import BASE, BUCKET, make_config, moto_bucket
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

MB = 1024 * 1024
PAGE = b"<!doctype html><html><head><title>x</title></head><body>x</body></html>"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
HUGO = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
HUGO_RSS = f'{HUGO}\n<rss version="2.0"><channel><title>Site</title></channel></rss>'.encode()
MKDOCS = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n    <url>\n'
    f"         <loc>{BASE}gone/</loc>\n    </url>\n</urlset>"
).encode()
HAND_WRITTEN = f"<?xml version='1.0'?>\n<urlset {NS}><url><loc>{BASE}old</loc></url></urlset>"
# A stale twin that inflates to 2 GiB: a sitemap's head, then spaces (2 MB on disk).
BOMB_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'.encode()


def hugo_index(*locs: str) -> bytes:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f"{HUGO}<sitemapindex {NS}>{items}</sitemapindex>".encode()


HUGO_CHILD = f"{HUGO}<urlset {NS}><url><loc>{BASE}</loc></url></urlset>".encode()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def put(client: Any, files: dict[str, bytes]) -> None:
    for key, body in files.items():
        client.put_object(Bucket=BUCKET, Key=key, Body=body)


def keys(client: Any) -> dict[str, bytes]:
    listed = client.list_objects_v2(Bucket=BUCKET).get("Contents", [])
    return {
        item["Key"]: client.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read()
        for item in listed
    }


def rebuild(client: Any, **values: Any) -> Report:
    return rebuild_bucket(make_config(**values), client, BucketSite(BUCKET))


def peak_of(run: Any) -> tuple[Any, int]:
    tracemalloc.start()
    try:
        result = run()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_bomb_twin_in_a_folder_is_read_bounded_and_deleted(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(PAGE)
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(gzip_bomb(BOMB_HEAD))
    assert (site / "sitemap.xml.gz").stat().st_size < 3 * MB
    report, peak = peak_of(lambda: build_from_tree(make_config(), site, LocalDirSink(site)))
    assert peak < 100 * MB
    (warning,) = report.warnings
    assert warning.startswith(
        "replacing MkDocs' sitemap.xml with sitemill's (deleting sitemap.xml.gz with it)"
    )
    assert report.result.deleted == ["sitemap.xml.gz"]
    assert not (site / "sitemap.xml.gz").exists()


def test_a_bomb_twin_in_a_bucket_is_read_bounded_and_deleted(s3: Any) -> None:
    put(s3, {"index.html": PAGE, "sitemap.xml": MKDOCS, "sitemap.xml.gz": gzip_bomb(BOMB_HEAD)})
    report, peak = peak_of(lambda: rebuild(s3))
    assert peak < 100 * MB
    (warning,) = report.warnings
    assert "(deleting sitemap.xml.gz with it)" in warning
    assert "sitemap.xml.gz" not in keys(s3)


def test_a_bucket_index_naming_a_feed_and_a_page_deletes_only_its_sitemaps(s3: Any) -> None:
    index = hugo_index("/index.xml", f"{BASE}about/index.html", "/en/sitemap.xml")
    put(
        s3,
        {
            "index.html": PAGE,
            "about/index.html": PAGE,
            "index.xml": HUGO_RSS,
            "sitemap.xml": index,
            "en/sitemap.xml": HUGO_CHILD,
        },
    )
    report = rebuild(s3)
    assert report.result.deleted == ["en/sitemap.xml"]
    after = keys(s3)
    assert (after["index.xml"], after["about/index.html"]) == (HUGO_RSS, PAGE)
    assert "en/sitemap.xml" not in after
    (warning,) = report.warnings
    assert warning.startswith("replacing Hugo's sitemap.xml with sitemill's (deleting en/sitemap")


def test_text_output_in_a_bucket_leaves_hugos_index_and_children(s3: Any) -> None:
    index = hugo_index("/en/sitemap.xml")
    put(s3, {"index.html": PAGE, "sitemap.xml": index, "en/sitemap.xml": HUGO_CHILD})
    report = rebuild(s3, format="txt")
    assert report.result.deleted == []
    after = keys(s3)
    assert (after["sitemap.xml"], after["en/sitemap.xml"]) == (index, HUGO_CHILD)
    assert after["sitemap.txt"] == f"{BASE}\n".encode()
    (warning,) = report.warnings
    assert warning.startswith("Hugo's sitemap.xml stays beside sitemill's sitemap.txt")
    assert rebuild(s3, format="txt").warnings == []  # said once


def test_a_hand_written_sitemap_in_a_bucket_is_taken_over_with_its_twin(s3: Any) -> None:
    data = HAND_WRITTEN.encode()
    put(s3, {"index.html": PAGE, "sitemap.xml": data, "sitemap.xml.gz": gzip.compress(data)})
    report = rebuild(s3)
    (warning,) = report.warnings
    assert warning == (
        "replacing a sitemap.xml sitemill did not write (no state names it) with sitemill's "
        "(deleting sitemap.xml.gz with it): if a tool writes it on every build, turn that off "
        "or run sitemill after it"
    )
    assert "sitemap.xml.gz" not in keys(s3)
    assert rebuild(s3).warnings == []
