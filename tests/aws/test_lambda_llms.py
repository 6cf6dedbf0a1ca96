"""The Lambda with llms.txt on (SITEMILL_LLMS_*, as the stack sets them; issue 67): an upload's
event leaves llms.txt, fr/llms.txt, llms-full.txt and the twins in the bucket; the events of
its own writes, fed back, rebuild nothing; a second event PUTs nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_lambda import Context, S3Changes, event, restore_logging, sqs_batch

from llmssite import BASE, LLMS_FILES, SITE, TWINS, links
from s3util import BUCKET, Requests, moto_bucket
from sitemill.aws.handler import handle

ENV = {
    "SITEMILL_BASE_URL": BASE,
    "SITEMILL_LLMS_TXT": "true",
    "SITEMILL_LLMS_FULL": "true",
    "SITEMILL_LLMS_PAGES": "true",
}
__all__ = ["restore_logging"]  # (autouse: the handler's logging put back)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        for name, text in SITE.items():
            kind = "application/pdf" if name.endswith(".pdf") else "text/html"
            client.put_object(Bucket=BUCKET, Key=name, Body=text.encode(), ContentType=kind)
        yield client


def keys(client: Any) -> set[str]:
    return {item["Key"] for item in client.list_objects_v2(Bucket=BUCKET)["Contents"]}


def text(client: Any, key: str) -> str:
    data: bytes = client.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    return data.decode()


def test_an_upload_leaves_llms_txt_and_its_kin_in_the_bucket(s3: Any) -> None:
    result = handle(event("s3_put.json"), Context(), env=ENV, s3=s3)
    assert result["status"] == "ok" and result["urls"] == 4
    assert keys(s3) >= LLMS_FILES | TWINS
    assert links(text(s3, "fr/llms.txt")) == [BASE + "fr/"]
    assert BASE + "docs/guide.html" in links(text(s3, "llms.txt"))
    assert "How to use Acme, step by step." in text(s3, "llms-full.txt")
    requests = Requests(s3)
    again = handle(event("s3_put.json"), Context(), env=ENV, s3=s3)
    assert again["status"] == "ok" and requests.count("PutObject") == 0, requests.calls


def test_off_by_default_the_lambda_writes_none(s3: Any) -> None:
    handle(event("s3_put.json"), Context(), env={"SITEMILL_BASE_URL": BASE}, s3=s3)
    assert not (LLMS_FILES | TWINS) & keys(s3)


def test_its_own_writes_fed_back_rebuild_nothing(s3: Any) -> None:
    own = S3Changes(s3)
    handle(event("s3_put.json"), Context(), env=ENV, s3=s3)
    echo = own.take()
    assert {key for _, key in echo} >= LLMS_FILES | TWINS
    result = handle(sqs_batch(echo), Context(), env=ENV, s3=s3)
    assert (result["status"], result["relevant"]) == ("skipped", 0)  # no rebuild
    assert own.take() == []
