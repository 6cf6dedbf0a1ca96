"""sitemap.html in a bucket (moto): its type and headers, no PUT when nothing changed, titles
remembered per ETag in the state (bounded when read back, none for hidden pages), and the
Lambda never rebuilding for its own write."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from outputlist import rebuild_bucket
from s3util import BASE, BUCKET, Requests, make_config, moto_bucket, upload
from sitemill.aws._selection import affects_sitemaps, select_changes
from sitemill.aws.events import ObjectChange
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import HTML_SITEMAP, STATE_NAME
from sitemill.html.title import MAX_TITLE_CHARS
from sitemill.jobs.bucket import BucketSite
from sitemill.state.parse import parse_state


def page(title: str, head: str = "") -> bytes:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>x</body>".encode()


SITE = {
    "index.html": page("Home &amp; more"),
    "docs/guide.html": page("The <guide>"),
    "docs/copy.html": page(
        "Secret copy title", f'<link rel="canonical" href="{BASE}docs/guide.html">'
    ),
    "draft.html": page("Draft", '<meta name="robots" content="noindex">'),
    "manual.pdf": b"%PDF-1.4",
}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def rebuild(client: Any, **values: Any) -> Any:
    config = make_config(**{"html_sitemap": True, **values})
    return rebuild_bucket(config, client, BucketSite(BUCKET))


def body(client: Any, key: str) -> bytes:
    data: bytes = client.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    return data


def state(client: Any) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(body(client, STATE_NAME)))
    return loaded


def test_written_as_html_with_titles_and_never_listed(s3: Any) -> None:
    upload(s3, SITE)
    report = rebuild(s3)
    head = s3.head_object(Bucket=BUCKET, Key=HTML_SITEMAP)
    assert head["ContentType"] == "text/html; charset=utf-8"
    assert head["CacheControl"] == "public, max-age=300"
    html = body(s3, HTML_SITEMAP).decode()
    assert f'<a href="{BASE}" dir="auto">Home &amp; more</a>' in html
    assert f'<a href="{BASE}docs/guide.html" dir="auto">The &lt;guide&gt;</a>' in html
    assert f'<a href="{BASE}manual.pdf" dir="auto">/manual.pdf</a>' in html
    assert "copy" not in html and "Draft" not in html  # only listed pages
    assert HTML_SITEMAP not in body(s3, "sitemap.xml").decode()
    assert report.result.written == ["sitemap.xml", HTML_SITEMAP]
    assert report.state_written


def test_a_second_run_reads_no_head_and_puts_nothing(s3: Any) -> None:
    upload(s3, SITE)
    rebuild(s3)
    requests = Requests(s3)
    report = rebuild(s3)
    assert requests.count("PutObject") == 0
    read = sorted(key for name, key in requests.calls if name == "GetObject")
    assert read == sorted([HTML_SITEMAP, "robots.txt", "sitemap.xml", STATE_NAME])  # no page
    assert report.heads_read == 0
    assert HTML_SITEMAP in report.result.unchanged
    # A changed title: one head read, sitemap.html and the state written, not sitemap.xml's
    # bytes (its lastmod moves: the content changed).
    upload(s3, {"docs/guide.html": page("The new guide")})
    report = rebuild(s3)
    assert report.heads_read == 1
    assert ">The new guide</a>" in body(s3, HTML_SITEMAP).decode()


def test_the_state_remembers_titles_of_listed_pages_only(s3: Any) -> None:
    upload(s3, SITE)
    rebuild(s3)
    saved = state(s3)
    titles = {path: record.get("facts", {}).get("title") for path, record in saved["pages"].items()}
    assert titles["index.html"] == "Home & more"
    assert titles["docs/guide.html"] == "The <guide>"
    assert "docs/copy.html" not in titles
    text = json.dumps(saved)
    assert "Secret copy title" not in text and "Draft" not in text


def test_titles_are_read_once_more_when_turned_on_and_dropped_when_off(s3: Any) -> None:
    upload(s3, SITE)
    rebuild(s3, html_sitemap=False)
    assert all("title" not in r.get("facts", {}) for r in state(s3)["pages"].values())
    assert HTML_SITEMAP not in [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    report = rebuild(s3)  # on: the listed pages' heads once more, for their titles
    assert report.heads_read == 2  # index.html and docs/guide.html
    assert rebuild(s3).heads_read == 0
    report = rebuild(s3, html_sitemap=False)  # off again: sitemill's copy goes
    assert report.result.deleted == [HTML_SITEMAP]
    assert report.heads_read == 0
    assert all("title" not in r.get("facts", {}) for r in state(s3)["pages"].values())


def test_a_hand_written_object_is_kept(s3: Any) -> None:
    mine = b"<!doctype html><title>Our own site map</title>"
    upload(s3, {**SITE, HTML_SITEMAP: mine})
    requests = Requests(s3)
    with pytest.raises(ConfigError, match=r"^html_sitemap: sitemap\.html is there already"):
        rebuild(s3)
    assert requests.count("PutObject") == 0
    rebuild(s3, html_sitemap=False)
    assert body(s3, HTML_SITEMAP) == mine
    assert f"<loc>{BASE}sitemap.html</loc>" in body(s3, "sitemap.xml").decode()  # (issue 82)


def test_a_hand_written_object_is_a_page_while_off(s3: Any) -> None:
    """Issue 82: with html_sitemap off, the user's own sitemap.html is listed like any page
    (its noindex applies), for one more ranged GET of its head per run."""
    upload(s3, {"index.html": page("Home"), HTML_SITEMAP: page("Our site map")})
    requests = Requests(s3)
    report = rebuild(s3, html_sitemap=False)
    assert f"<loc>{BASE}sitemap.html</loc>" in body(s3, "sitemap.xml").decode()
    assert report.result.deleted == []
    assert body(s3, HTML_SITEMAP) == page("Our site map")
    requests = Requests(s3)
    rebuild(s3, html_sitemap=False)
    read = [key for name, key in requests.calls if name == "GetObject"]
    # Its head (is it sitemill's? a ranged GET), and the deletion's own check, as before;
    # its facts are remembered: no head read for them.
    assert read.count(HTML_SITEMAP) == 2
    upload(s3, {HTML_SITEMAP: page("Our site map", '<meta name="robots" content="noindex">')})
    report = rebuild(s3, html_sitemap=False)
    assert "sitemap.html" not in body(s3, "sitemap.xml").decode()
    assert [skip.path for skip in report.skips] == [HTML_SITEMAP]


def test_sitemills_leftover_is_never_listed_and_is_deleted(s3: Any) -> None:
    upload(s3, {"index.html": page("Home")})
    rebuild(s3)
    report = rebuild(s3, html_sitemap=False)
    assert "sitemap.html" not in body(s3, "sitemap.xml").decode()
    assert report.result.deleted == [HTML_SITEMAP]
    assert report.skips == []
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    assert HTML_SITEMAP not in keys


def test_a_hostile_title_in_a_state_is_bounded(s3: Any) -> None:
    upload(s3, SITE)
    rebuild(s3)
    saved = state(s3)
    saved["pages"]["index.html"]["facts"]["title"] = "x" * (MAX_TITLE_CHARS + 1)
    saved["pages"]["docs/guide.html"]["facts"]["title"] = "<b>\x01 odd\n\n title\x7f</b>"
    data = gzip.compress(json.dumps(saved).encode())
    parsed = parse_state(data)
    assert parsed.pages["index.html"].facts.title is None  # read again
    assert parsed.pages["docs/guide.html"].facts.title == "<b> odd title</b>"
    s3.put_object(Bucket=BUCKET, Key=STATE_NAME, Body=data)
    report = rebuild(s3)
    assert report.heads_read == 1  # index.html, whose remembered title was refused
    html = body(s3, HTML_SITEMAP).decode()
    assert ">Home &amp; more</a>" in html
    assert ">&lt;b&gt; odd title&lt;/b&gt;</a>" in html
    assert not re.search(f"x{{{MAX_TITLE_CHARS + 1}}}", html)


def test_the_lambda_ignores_its_own_write_and_rebuilds_after_a_deletion() -> None:
    config = make_config(html_sitemap=True)  # (sitemill writes sitemap.html only while on)
    written = select_changes(
        [ObjectChange(BUCKET, HTML_SITEMAP)],
        bucket=BUCKET,
        root="",
        affects_sitemaps=lambda path: affects_sitemaps(config, path),
    )
    assert written.relevant == 0
    assert written.ignored == {"own_output": 1}
    deleted = select_changes(
        [ObjectChange(BUCKET, HTML_SITEMAP, deleted=True)],
        bucket=BUCKET,
        root="",
        affects_sitemaps=lambda path: affects_sitemaps(config, path),
    )
    assert deleted.relevant == 1


def test_while_off_a_write_of_sitemap_html_is_a_page_change() -> None:
    """Issue 82: with html_sitemap off sitemill writes no sitemap.html: a write is the
    user's page (the rebuild reads its head: one sitemill made is never listed)."""
    config = make_config(html_sitemap=False)
    written = select_changes(
        [ObjectChange(BUCKET, HTML_SITEMAP)],
        bucket=BUCKET,
        root="",
        affects_sitemaps=lambda path: affects_sitemaps(config, path),
    )
    assert written.paths == [HTML_SITEMAP]
    assert written.own_written == [] and written.ignored == {}
