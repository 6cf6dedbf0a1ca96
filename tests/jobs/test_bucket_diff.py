"""The diff of a bucket (jobs.bucketdiff) and what each rebuild removed (jobs.bucketremoved): a
dry run that writes nothing, each removed URL redirected, renamed or gone, a removed URL's
object asked only where one still answers for it, never a kept page's; the state keeps the
removed URLs whose page is no longer served, across runs that remove nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from outputlist import diff_bucket, rebuild_bucket
from s3util import BASE, BUCKET, Requests, make_config, moto_bucket, restored_logging, words_page
from sitemill.diff.model import Verdict
from sitemill.errors import DiffError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.removedurls import RemovedUrl

KEPT = [f"p{number:02}.html" for number in range(20)]
SITE = BucketSite(BUCKET)


def stub(url: str) -> bytes:
    return f'<html><head><meta http-equiv="refresh" content="0; url={url}"></head></html>'.encode()


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        for key in [
            *KEPT,
            "moved.html",
            "gone.html",
            "redir.html",
            "stub.html",
            "hidden.html",
            "broken.html",
        ]:
            put(client, key, words_page(f"the page {key} says its own words"))
        yield client


def put(client: Any, key: str, body: bytes, **more: Any) -> None:
    client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html", **more)


def restructure(client: Any) -> None:
    """moved.html moves (its bytes as they were), gone.html goes, redir.html becomes a
    website redirect, stub.html a meta refresh, broken.html a meta refresh to no page,
    hidden.html noindex; p03 changes, one added."""
    moved = client.get_object(Bucket=BUCKET, Key="moved.html")["Body"].read()
    put(client, "new/moved.html", moved)
    for key in ("moved.html", "gone.html", "redir.html"):
        client.delete_object(Bucket=BUCKET, Key=key)
    put(client, "redir.html", b"", WebsiteRedirectLocation="/p01.html")
    put(client, "stub.html", stub("p02.html"))
    put(client, "broken.html", stub("missing.html"))
    put(client, "hidden.html", b'<html><head><meta name="robots" content="noindex"></head></html>')
    put(client, "p03.html", words_page("the third page, rewritten from top to bottom"))
    put(client, "added.html", words_page("a page of its own"))


def state(client: Any) -> State:
    return parse_state(client.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())


EXPECTED = {
    f"{BASE}broken.html": (Verdict.GONE, f"{BASE}missing.html"),
    f"{BASE}gone.html": (Verdict.GONE, None),
    f"{BASE}hidden.html": (Verdict.GONE, None),
    f"{BASE}moved.html": (Verdict.RENAMED, f"{BASE}new/moved.html"),
    f"{BASE}redir.html": (Verdict.REDIRECTED, f"{BASE}p01.html"),
    f"{BASE}stub.html": (Verdict.REDIRECTED, f"{BASE}p02.html"),
}


def test_the_diff_of_a_bucket_writes_nothing_and_asks_only_where_a_removed_url_leads(
    s3: Any,
) -> None:
    config = make_config()
    rebuild_bucket(config, s3, SITE)
    restructure(s3)
    before = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["ETag"]
    requests = Requests(s3)
    found = diff_bucket(config, s3, SITE).diff
    assert {item.url: (item.verdict, item.target) for item in found.removed} == EXPECTED
    assert found.added == (f"{BASE}added.html", f"{BASE}new/moved.html")
    assert [item.url for item in found.changed] == [f"{BASE}p03.html"]
    # Nothing written, not the state either.
    assert {name for name, _ in requests.calls} <= {"ListObjectsV2", "GetObject", "HeadObject"}
    assert s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["ETag"] == before
    # No kept page is asked (p03 changed: the dry run reads it, once); a removed URL only
    # where an empty object answers for it: HEAD the website redirect. The stub and the
    # noindex page are read once, by the dry run (their facts say where they lead);
    # gone.html and moved.html cost nothing.
    asked = [key for name, key in requests.calls if name in ("GetObject", "HeadObject")]
    assert not set(asked) & {key for key in KEPT if key != "p03.html"}
    assert asked.count("p03.html") == 1
    assert [key for name, key in requests.calls if name == "HeadObject"].count("redir.html") == 1
    assert asked.count("stub.html") == asked.count("hidden.html") == asked.count("broken.html") == 1
    assert not {"gone.html", "moved.html"} & set(asked)


def test_a_bucket_without_a_state_has_nothing_to_compare_with(s3: Any) -> None:
    with pytest.raises(DiffError, match="no state to compare with at s3://site-bucket/"):
        diff_bucket(make_config(), s3, SITE)


def test_each_rebuild_reports_what_it_removed_and_its_state_keeps_it_until_others_go(
    s3: Any,
) -> None:
    config = make_config()
    assert rebuild_bucket(config, s3, SITE).diff is None  # (a first run: nothing to tell)
    restructure(s3)
    report = rebuild_bucket(config, s3, SITE)
    assert report.diff is not None
    assert {item.url: item.verdict for item in report.diff.removed} == {
        url: verdict for url, (verdict, _) in EXPECTED.items()
    }
    # The state names the URLs no longer served (a redirect that leads nowhere too): not
    # hidden.html, still served (noindex).
    kept = {
        url: RemovedUrl(verdict.value, target)
        for url, (verdict, target) in EXPECTED.items()
        if url != f"{BASE}hidden.html"
    }
    assert state(s3).removed == kept
    # A rebuild that removes nothing keeps them; one that adds a URL back drops it.
    assert rebuild_bucket(config, s3, SITE).diff.removed == ()  # type: ignore[union-attr]
    assert state(s3).removed == kept
    put(s3, "gone.html", words_page("back again"))
    rebuild_bucket(config, s3, SITE)
    assert state(s3).removed == {url: item for url, item in kept.items() if "gone" not in url}
    # Another removal replaces the record.
    s3.delete_object(Bucket=BUCKET, Key="p05.html")
    rebuild_bucket(config, s3, SITE)
    assert state(s3).removed == {f"{BASE}p05.html": RemovedUrl("gone")}
