"""`sitemill check --bucket` as IndexNow's gate, under faults and a second writer, in both
layouts (one state; a partitioned state with `indexnow.json.gz`): no URL to announce is lost
(each is sent, or still pending for the next check) and nothing of the site is written or
deleted.

- A fault at each S3 call the check makes (a dry pass names them; botocore's event hooks,
  tests/faults.py): the check fails in one line (or, its URLs sent and their state not
  written, warns that they may be sent again); the next check ends byte for byte where a
  clean check ends.
- A deploy (c.html edited, and its build adding c.html to the pending URLs) right before each
  S3 call of the check, and while it sends: the check and one more send every URL.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from test_check_bucket import serve_bucket

from enginestand import Stand
from faults import Calls, Signature, fail
from s3util import BUCKET, STATE_BUCKET, three_page_bucket, words_page, world_kept
from sitemill.cli.main import main

# Where every front end's S3 client is made (cli.usage.s3_client imports it when called).
CLIENTS = importlib.import_module("sitemill.aws.clients")
SEND = importlib.import_module("sitemill.indexnow._send")
SENT_UNKEPT = "the URLs are sent, but what is left pending could not be kept"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in three_page_bucket(monkeypatch):
        monkeypatch.setattr(CLIENTS, "make_s3_client", lambda endpoint=None, client=client: client)
        yield client


@dataclass
class Deployed:
    """A bucket built twice (a.html and b.html edited in between: both pending), served by
    the stand; the commands of its next check and its next build."""

    s3: Any
    stand: Stand
    check: list[str]
    build: list[str]

    def url(self, *names: str) -> set[str]:
        return {f"{self.stand.origin}/{name}" for name in names}

    def announced(self) -> set[str]:
        return {url for post in self.stand.posts for url in post["urlList"]}

    def edit(self, name: str) -> None:
        self.s3.put_object(Bucket=BUCKET, Key=name, Body=words_page(f"{name}, edited"),
                           ContentType="text/html")  # fmt: skip

    def deploy(self, name: str) -> None:
        """``name`` edited, built (pending now) and served."""
        self.edit(name)
        assert main(self.build) == 0
        serve_bucket(self.s3, self.stand)

    def calls_of_a_clean_check(self) -> tuple[list[Signature], dict[str, bytes]]:
        """The S3 calls a check makes, and the state bucket it leaves (then put back)."""
        with world_kept() as undo:
            calls = Calls(self.s3)
            assert main(self.check) == 0
            signatures = calls.stop()
            assert self.announced() == self.url("a.html", "b.html")
            clean = objects(self.s3, STATE_BUCKET)
            undo()
        assert len(signatures) >= 2, signatures  # (at least: the state read, the state written)
        return signatures, clean


@pytest.fixture(params=["auto", "off"])
def deployed(request: pytest.FixtureRequest, s3: Any, stand: Stand) -> Deployed:
    common = [
        "--base-url", stand.origin + "/",
        "--state", f"s3://{STATE_BUCKET}/sitemill-state.json.gz",
        "--shards", request.param,
        "--indexnow-endpoint", stand.origin + "/indexnow",
    ]  # fmt: skip
    site = Deployed(s3, stand, ["check", "--bucket", BUCKET, "--indexnow=later", *common],
                    ["s3", "--bucket", BUCKET, "--indexnow=later", *common])  # fmt: skip
    assert main(site.build) == 0
    site.edit("a.html")
    site.deploy("b.html")
    return site


def objects(s3: Any, bucket: str) -> dict[str, bytes]:
    listed = s3.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {item["Key"]: s3.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
            for item in listed}  # fmt: skip


def armed_check(site: Deployed, call: Signature, action: Callable[[], None]) -> int:
    """The check with ``action`` right before ``call``; its exit code."""
    site.stand.posts.clear()
    armed = Calls(site.s3)
    armed.arm(call, action)
    code = main(site.check)
    armed.stop()
    armed.assert_fired()
    return code


def test_a_fault_at_any_call_of_the_check_loses_no_url_and_writes_nothing_of_the_site(
    deployed: Deployed, capsys: pytest.CaptureFixture[str]
) -> None:
    signatures, clean = deployed.calls_of_a_clean_check()
    site_objects = objects(deployed.s3, BUCKET)
    for call in signatures:
        with world_kept() as undo:
            capsys.readouterr()
            code = armed_check(deployed, call, fail)
            errors = capsys.readouterr().err.splitlines()
            # One line: an error that fails the check, or (the pending URLs sent, their state
            # not written) a warning that the next check may send them again.
            assert len(errors) == 1 and "Traceback" not in errors[0], (call, errors)
            assert code != 0 or SENT_UNKEPT in errors[0], (call, code, errors)
            assert main(deployed.check) == 0, call  # the next check (a retry, or the next deploy's)
            assert deployed.announced() == deployed.url("a.html", "b.html"), call  # none lost
            assert objects(deployed.s3, BUCKET) == site_objects, call  # the site untouched
            assert objects(deployed.s3, STATE_BUCKET) == clean, call
            undo()


def test_a_deploy_at_any_call_of_the_check_loses_no_url_to_announce(deployed: Deployed) -> None:
    signatures, _ = deployed.calls_of_a_clean_check()
    for call in signatures:
        with world_kept() as undo:
            armed_check(deployed, call, lambda: deployed.deploy("c.html"))  # (may fail: a race)
            assert main(deployed.check) == 0, call
            assert deployed.announced() == deployed.url("a.html", "b.html", "c.html"), call
            undo()


def test_a_deploy_while_the_check_sends_loses_no_url(
    deployed: Deployed, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The longest window: between the check's read of the pending URLs and its write-back
    of what is left, a deploy's build adds c.html to them."""
    send, deploys = SEND.send_announcements, [True]

    def deploy_then_send(*args: Any, **kwargs: Any) -> Any:
        if deploys and deploys.pop():
            deployed.deploy("c.html")
        return send(*args, **kwargs)

    monkeypatch.setattr(SEND, "send_announcements", deploy_then_send)
    assert main(deployed.check) == 0
    assert not deploys
    assert main(deployed.check) == 0
    assert deployed.announced() == deployed.url("a.html", "b.html", "c.html")
