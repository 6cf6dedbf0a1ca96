"""Content dates on a bucket: `aws s3 sync` of identical bytes moves no date and PUTs nothing,
one changed page moves only its own date, and a lost state is a warning and a first run."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from outputlist import rebuild_bucket
from s3util import BUCKET, Requests, make_config, moto_bucket
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.lastmod.fingerprint.digest import (
    FINGERPRINT_VERSION,
    MAX_FINGERPRINT_BYTES,
    fingerprint_html,
)
from sitemill.report import Report
from sitemill.state.parse import parse_state
from xsd import assert_xsd_valid

T1 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
T2 = datetime(2024, 6, 2, 8, 30, tzinfo=UTC)
T3 = datetime(2024, 9, 3, 18, 45, tzinfo=UTC)


def page(title: str, text: str, head: str = "") -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head>"
        f"<body><h1>{title}</h1><p>{text}</p></body></html>"
    ).encode()


SITE = {
    "index.html": page("Home", "Welcome."),
    "a.html": page("A", "Alpha."),
    "b.html": page("B", "Beta."),
    "docs/manual.pdf": b"%PDF-1.4 manual",
}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def upload(client: Any, files: dict[str, bytes], when: datetime, *, spread: bool = False) -> None:
    """Put each file and give it ``when`` as its LastModified (moto sets "now"); ``spread``:
    each SPREAD earlier than the one before (a site uploaded page by page: FIRST, from T1)."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for index, (key, body) in enumerate(files.items()):
        client.put_object(Bucket=BUCKET, Key=key, Body=body)
        backend.get_object(BUCKET, key).last_modified = when - index * SPREAD if spread else when


def rebuild(client: Any, **values: Any) -> Report:
    return rebuild_bucket(make_config(**values), client, BucketSite(BUCKET))


def lastmods(client: Any) -> dict[str, str]:
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", data))


W1 = "2024-03-01T12:00:00+00:00"
W2 = "2024-06-02T08:30:00+00:00"
W3 = "2024-09-03T18:45:00+00:00"
# Objects uploaded weeks apart are no sync's stamp: a first run dates each by its own time.
SPREAD = timedelta(days=45)


def w3c(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S+00:00")


FIRST = {
    "": W1,
    "a.html": w3c(T1 - SPREAD),
    "b.html": w3c(T1 - 2 * SPREAD),
    "docs/manual.pdf": w3c(T1 - 3 * SPREAD),
}


def test_a_first_run_uses_the_object_times_and_says_so(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    report = rebuild(s3)
    assert lastmods(s3) == FIRST
    assert report.dates == {"file time": 4}
    state = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert {path: record.lastmod for path, record in state.pages.items()} == {
        "index.html": W1,
        "a.html": FIRST["a.html"],
        "b.html": FIRST["b.html"],
        "docs/manual.pdf": FIRST["docs/manual.pdf"],
    }
    assert_xsd_valid(s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read())


def test_an_identical_re_upload_moves_no_date_reads_nothing_and_puts_nothing(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3)
    upload(s3, SITE, T2)  # aws s3 sync after a fresh build: new LastModified, same ETag
    requests = Requests(s3)
    report = rebuild(s3)
    assert lastmods(s3) == FIRST
    assert report.dates == {"kept": 4}
    assert report.result.written == [] and not report.state_written
    assert requests.count("PutObject") == 0
    # robots.txt, the state and the live index; no page.
    gets = {key for name, key in requests.calls if name == "GetObject"}
    assert gets == {"robots.txt", STATE_NAME, "sitemap.xml"}
    assert (report.heads_read, report.heads_reused) == (0, 3)


def test_one_changed_page_moves_only_its_own_date(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3)
    upload(s3, SITE, T2)
    upload(s3, {"a.html": page("A", "Alpha, rewritten.")}, T3)
    requests = Requests(s3)
    report = rebuild(s3)
    assert lastmods(s3) == {**FIRST, "a.html": W3}
    assert report.dates == {"kept": 3, "content changed": 1}
    assert report.heads_read == 1
    page_gets = [key for name, key in requests.calls if name == "GetObject" and key == "a.html"]
    assert page_gets == ["a.html"]


def test_new_bytes_with_the_same_content_keep_the_date(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3)
    # A re-render that changes bytes a reader never sees: the ETag moves, the content not.
    rerendered = SITE["b.html"].replace(b"<head>", b"<head>\n  <!-- built by hugo -->")
    upload(s3, {"b.html": rerendered}, T2)
    report = rebuild(s3)
    assert lastmods(s3)["b.html"] == FIRST["b.html"]
    assert report.heads_read == 1 and report.dates["kept"] == 4


def test_a_changed_pdf_moves_its_date_without_a_read(s3: Any) -> None:
    upload(s3, SITE, T1)
    rebuild(s3)
    upload(s3, {"docs/manual.pdf": b"%PDF-1.4 manual, second edition"}, T2)
    report = rebuild(s3)
    assert lastmods(s3)["docs/manual.pdf"] == W2
    assert report.heads_read == 0


def test_a_deleted_state_is_a_warning_and_a_first_run_that_dates_no_sync(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3)
    upload(s3, SITE, T2)  # a full sync: one instant on every object
    s3.delete_object(Bucket=BUCKET, Key=STATE_NAME)
    report = rebuild(s3)
    assert lastmods(s3) == {}  # (before: the sync's time W2 on every page)
    assert report.dates == {"no date (upload times are one sync's)": 4}
    assert any("no state" in warning for warning in report.warnings), report.warnings


def test_content_dates_off_gives_the_object_times(s3: Any) -> None:
    upload(s3, SITE, T1)
    rebuild(s3)
    upload(s3, SITE, T2)
    report = rebuild(s3, content_dates=False)
    assert set(lastmods(s3).values()) == {W2}
    assert report.dates == {}


def test_precision_date_writes_dates_and_remembers_full_times(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3, lastmod_precision="date")
    assert lastmods(s3) == {path: when[:10] for path, when in FIRST.items()}
    state = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert state.pages["a.html"].lastmod == FIRST["a.html"]
    upload(s3, SITE, T2)
    rebuild(s3)  # switching back to full precision moves no date
    assert lastmods(s3) == FIRST


def test_a_page_is_read_whole_but_never_more_than_the_fingerprint_bound(s3: Any) -> None:
    # 32 reads at once: the bound keeps a bucket of huge pages from filling the Lambda.
    ranges: dict[str, str] = {}

    def record(params: dict[str, Any], **_: Any) -> None:
        ranges[params["url_path"].lstrip("/")] = params["headers"].get("Range", "")

    upload(s3, SITE, T1)
    s3.meta.events.register("before-call.s3.GetObject", record)
    rebuild(s3)
    assert ranges["a.html"] == f"bytes=0-{MAX_FINGERPRINT_BYTES - 1}"
    assert "docs/manual.pdf" not in ranges  # its ETag is its fingerprint


def test_an_upgrade_of_the_fingerprint_moves_no_date(s3: Any) -> None:
    # A state of the previous fingerprint version: the objects whose bytes are the same (the
    # same ETag) keep their dates although fingerprints change; they are read once more to be
    # fingerprinted anew. (Of an older version: tests/jobs/test_content_dates_upgrade.py.)
    site = {**SITE, "c.html": page("C", "Run <code>sitemill</code>.")}
    upload(s3, site, T1, spread=True)
    rebuild(s3)
    state = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    document = json.loads(gzip.decompress(state))
    document["fingerprint_version"] = previous = FINGERPRINT_VERSION - 1
    for key, record in document["pages"].items():
        if key.endswith(".html"):
            url = "https://example.com/" + key
            record["fingerprint"] = fingerprint_html(site[key], version=previous, url=url)
    s3.put_object(Bucket=BUCKET, Key=STATE_NAME, Body=gzip.compress(json.dumps(document).encode()))
    upload(s3, {**site, "a.html": page("A", "Alpha, edited.")}, T2)  # a sync: new times
    report = rebuild(s3)
    assert lastmods(s3) == {**FIRST, "a.html": W2, "c.html": w3c(T1 - 4 * SPREAD)}
    assert report.dates == {"kept": 4, "content changed": 1}
    assert report.heads_read == 4  # every HTML page once, to fingerprint it anew
    remembered = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert remembered.fingerprint_version == FINGERPRINT_VERSION
    upload(s3, {**site, "a.html": page("A", "Alpha, edited.")}, T3)
    again = rebuild(s3)
    assert again.dates == {"kept": 5} and again.heads_read == 0


def test_a_base_url_change_is_said_once_keeps_dates_and_announces_nothing(s3: Any) -> None:
    upload(s3, SITE, T1, spread=True)
    rebuild(s3, indexnow="later")
    upload(s3, {"a.html": page("A", "Alpha, edited.")}, T2)  # pending, not sent yet
    before = rebuild(s3, indexnow="later")
    assert before.indexnow is not None and before.indexnow.urls == {
        "https://example.com/a.html": "changed"
    }
    upload(s3, SITE | {"a.html": page("A", "Alpha, edited.")}, T3)  # `aws s3 sync` again
    moved = rebuild(s3, base_url="https://example.com/project/", indexnow="later")
    said = [w for w in moved.warnings if "every URL moved" in w]
    assert said == [
        "every URL moved from https://example.com/ to https://example.com/project/: the base "
        "URL is not the last run's (dates are kept; IndexNow announces no page for the move); "
        "if the move was not meant, check --base-url (base_url)"
    ]
    data = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    dates = dict(re.findall(r"<loc>https://example.com/project/(.*?)</loc><lastmod>(.*?)<", data))
    assert dates == {**FIRST, "a.html": W2}
    assert moved.indexnow is not None  # only what was pending, at its new URL
    assert moved.indexnow.urls == {"https://example.com/project/a.html": "changed"}
    assert dict(moved.indexnow.found) == {}
    state = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert state.base_url == "https://example.com/project/"
    again = rebuild(s3, base_url="https://example.com/project/", indexnow="later")
    assert not [w for w in again.warnings if "every URL moved" in w]
