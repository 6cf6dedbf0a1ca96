"""The Lambda publishes no date after the run's time and raises on none: a page declaring
the calendar's last minutes, an object whose LastModified is in 2099 (docs/lastmod.md, "No date
from the future")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from s3util import BASE, BUCKET, moto_bucket, restored_logging
from sitemill.aws.handler import handle

EVENTS = Path(__file__).resolve().parents[1] / "events"
ENV = {"SITEMILL_BASE_URL": BASE}
URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
EVENT_KEY = "docs/a b+c%d café.html"  # the key tests/events/s3_put.json names
START = datetime(2024, 1, 10, 8, 0)  # naive UTC, as moto keeps it
MONTH = timedelta(days=30)
REBUILD = {"action": "rebuild", "bucket": BUCKET}


class Context:
    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e812345678"


def html(name: str, head: str = "") -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>{name}</title>{head}</head>"
        f"<body><main><h1>{name}</h1><p>What {name} says.</p></main></body></html>"
    ).encode()


END_OF_TIME = '<meta property="article:modified_time" content="9999-12-31T23:59:59Z">'
PAGES = {f"p{n}.html": html(f"P{n}") for n in range(4)} | {EVENT_KEY: html("A", END_OF_TIME)}


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The pages uploaded a month apart (an incremental deploy: their times are evidence)."""
    for client in moto_bucket(monkeypatch):
        for number, (key, body) in enumerate(PAGES.items()):
            upload(client, key, body, START + number * MONTH)
        yield client


def upload(client: Any, key: str, body: bytes, when: datetime) -> None:
    client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html")
    s3_backends[DEFAULT_ACCOUNT_ID]["aws"].get_object(BUCKET, key).last_modified = when


def listed(client: Any) -> dict[str, str | None]:
    text = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return {loc.removeprefix(BASE): lastmod or None for loc, lastmod in URL.findall(text)}


@pytest.mark.parametrize("name", ["s3_put.json", "rebuild"])
def test_a_page_declaring_the_calendar_s_last_minute_is_a_normal_run(s3: Any, name: str) -> None:
    event = REBUILD if name == "rebuild" else json.loads((EVENTS / name).read_text())
    result = handle(event, Context(), env=ENV, s3=s3)  # (before: OverflowError)
    assert result["status"] == "ok"
    assert result["dates"] == {"file time": 5}
    dates = listed(s3)
    assert dates["docs/a%20b%2Bc%25d%20caf%C3%A9.html"] == "2024-05-09T08:00:00+00:00"
    assert not any(date and date.startswith("9999") for date in dates.values())


def test_an_upload_time_after_the_run_dates_no_changed_page(s3: Any) -> None:
    upload(s3, EVENT_KEY, html("A"), START)  # (no declared date here)
    assert handle(REBUILD, Context(), env=ENV, s3=s3)["status"] == "ok"
    upload(s3, "p1.html", html("P1, rewritten"), datetime(2099, 1, 1))  # a store's clock
    upload(s3, "p2.html", html("P2, rewritten"), datetime.now(UTC).replace(tzinfo=None))
    result = handle(REBUILD, Context(), env=ENV, s3=s3)
    assert result["status"] == "ok"
    assert result["dates"] == {"kept": 3, "content changed": 1, "no date (a time after the run)": 1}
    dates = listed(s3)
    assert dates["p1.html"] is None
    assert dates["p2.html"] is not None and dates["p2.html"] < "2099"
