"""A canonical through a redirect stub in a bucket: the first run, incremental runs that reuse
what the state remembers of an unchanged stub, a stub whose target changes, and a public state
that names no page the sitemaps leave out."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from hidden import json_strings
from outputlist import DistributedRun, rebuild_bucket, rebuild_partitioned
from s3util import (
    BASE,
    BUCKET,
    live_files,
    make_config,
    moto_bucket,
    restored_logging,
    sitemap_files,
    upload,
)
from sitemill.entries import SkipReason
from sitemill.filenames.outputs import STATE_NAME
from sitemill.html.facts import PageFacts
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned, partitioned_prefix
from sitemill.report import Report
from sitemill.scaleout.distplan import RunRequest
from sitemill.scaleout.executor import LocalExecutor
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.partitioned import PartitionedStore


def page(title: str, canonical: str | None = None, extra: str = "") -> bytes:
    link = "" if canonical is None else f'<link rel="canonical" href="{canonical}">'
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title>{link}{extra}</head>"
        f"<body><p>{title}</p></body></html>"
    ).encode()


def stub(url: str) -> bytes:
    return (
        f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url={url}">'
        f'</head><body><a href="{url}">moved</a></body></html>'
    ).encode()


# A multi-version Sphinx site: every version names /x.html, a stub to the current version.
SITE = {
    "x.html": stub("stable/x.html"),
    "y.html": stub("stable/y.html"),
    "old/x.html": page("x 1.0", f"{BASE}x.html"),
    "old/y.html": page("y 1.0", f"{BASE}y.html"),
    "stable/x.html": page("x", f"{BASE}x.html"),
    "stable/y.html": page("y", f"{BASE}y.html"),
}
CURRENT = [f"{BASE}stable/x.html", f"{BASE}stable/y.html"]
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def rebuild(client: Any) -> Report:
    return rebuild_bucket(make_config(content_dates=False), client, BucketSite(BUCKET))


def listed(client: Any) -> list[str]:
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    return re.findall(r"<loc>(.*?)</loc>", data.decode())


def state_strings(client: Any) -> set[str]:
    data = client.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    return set(json_strings(json.loads(gzip.decompress(data))))


def remembered(client: Any) -> State:
    return parse_state(client.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())


def etag(client: Any, key: str) -> str:
    found: str = client.head_object(Bucket=BUCKET, Key=key)["ETag"]
    return found


def test_old_copies_are_left_out_on_every_run(s3: Any) -> None:
    upload(s3, SITE)
    first = rebuild(s3)
    assert listed(s3) == CURRENT
    assert first.skipped[SkipReason.CANONICAL] == 2 and first.skipped[SkipReason.REDIRECT] == 2
    # An unchanged stub is not read again: its refresh is remembered by its ETag, and a
    # canonical naming it still leads to its target.
    state = remembered(s3)
    assert state.unlisted[etag(s3, "x.html")] == PageFacts(refresh="stable/x.html")
    second = rebuild(s3)
    assert (second.heads_read, second.heads_reused) == (0, len(SITE))
    assert second.skipped[SkipReason.CANONICAL] == 2 and not second.state_written
    assert listed(s3) == CURRENT


def test_a_stub_whose_target_changes(s3: Any) -> None:
    upload(s3, {**SITE, "gone.html": page("gone", extra='<meta name="robots" content="noindex">')})
    rebuild(s3)
    # x.html now sends readers to a hidden page: the old copy names no listed page.
    upload(s3, {"x.html": stub("gone.html")})
    moved = rebuild(s3)
    assert moved.heads_read == 1
    assert listed(s3) == [f"{BASE}old/x.html", *CURRENT]
    # The public state tells nothing of a stub to a hidden page: it is read again next time.
    assert not state_strings(s3) & {"gone.html", f"{BASE}gone.html", "x.html"}
    again = rebuild(s3)
    assert again.heads_read == 1 and listed(s3) == [f"{BASE}old/x.html", *CURRENT]
    # Back to the current page: the copy is left out again.
    upload(s3, {"x.html": stub("stable/x.html")})
    back = rebuild(s3)
    assert back.heads_read == 1 and listed(s3) == CURRENT
    assert rebuild(s3).heads_read == 0 and listed(s3) == CURRENT


def test_a_target_that_stops_being_listed_under_an_unchanged_stub(s3: Any) -> None:
    upload(s3, SITE)
    rebuild(s3)
    # The stub stays as it is; its target becomes noindex.
    hidden = page("x", f"{BASE}x.html", '<meta name="robots" content="noindex">')
    upload(s3, {"stable/x.html": hidden})
    report = rebuild(s3)
    assert report.heads_read == 1  # the target; the stub's refresh came from the state
    assert listed(s3) == [f"{BASE}old/x.html", f"{BASE}stable/y.html"]
    # The stub's remembered refresh named a page the sitemaps no longer list: forgotten.
    assert etag(s3, "x.html") not in remembered(s3).unlisted
    assert not state_strings(s3) & {"stable/x.html", f"{BASE}stable/x.html"}


def test_chains_loops_and_stubs_off_the_site_in_a_bucket(s3: Any) -> None:
    upload(
        s3,
        {
            "a.html": stub("moved/a.html"),
            "moved/a.html": stub("../stable/a.html"),
            "b.html": stub("c.html"),
            "c.html": stub("b.html"),
            "d.html": stub("https://other.example/d.html"),
            "old/a.html": page("a 1.0", "/a.html"),
            "old/b.html": page("b 1.0", "/b.html"),
            "old/d.html": page("d 1.0", "/d.html"),
            "stable/a.html": page("a", "/a.html"),
        },
    )
    kept = [f"{BASE}old/b.html", f"{BASE}old/d.html", f"{BASE}stable/a.html"]
    rebuild(s3)
    assert listed(s3) == kept
    state = remembered(s3)
    # Off the site: the verdict alone; a loop leads to no listed page: nothing remembered.
    assert state.unlisted[etag(s3, "d.html")] is SkipReason.REDIRECT
    assert etag(s3, "b.html") not in state.unlisted and etag(s3, "c.html") not in state.unlisted
    assert not state_strings(s3) & {"b.html", "c.html", "https://other.example/d.html"}
    second = rebuild(s3)
    assert second.heads_read == 2 and listed(s3) == kept  # the loop's two stubs


# --- S3 website redirects (x-amz-website-redirect-location) ---------------------------------


def redirect_object(client: Any, key: str, location: str, body: bytes = b"") -> None:
    client.put_object(Bucket=BUCKET, Key=key, Body=body, WebsiteRedirectLocation=location)


def test_a_canonical_naming_an_empty_website_redirect_object(s3: Any) -> None:
    # The stubs are empty objects that S3 website hosting answers with a 301.
    upload(s3, {key: body for key, body in SITE.items() if key not in ("x.html", "y.html")})
    redirect_object(s3, "x.html", "/stable/x.html")
    redirect_object(s3, "y.html", "/moved/y.html")  # a chain: one more empty object
    redirect_object(s3, "moved/y.html", "https://example.com/stable/y.html")
    redirect_object(s3, "z.html", "https://other.example/z.html")  # named by nothing
    calls: list[str] = []
    s3.meta.events.register(
        "provide-client-params.s3.HeadObject", lambda params, **_: calls.append(params["Key"])
    )
    first = rebuild(s3)
    assert listed(s3) == CURRENT
    assert first.skipped[SkipReason.CANONICAL] == 2
    # Asked only for the objects that canonicals name (z.html is not).
    assert sorted(calls) == ["moved/y.html", "x.html", "y.html"]
    second = rebuild(s3)  # (asked again: empty objects all share one ETag)
    assert second.skipped[SkipReason.CANONICAL] == 2 and listed(s3) == CURRENT


def test_an_empty_website_redirect_off_the_site_or_looping_keeps_the_copy(s3: Any) -> None:
    upload(s3, {key: body for key, body in SITE.items() if key not in ("x.html", "y.html")})
    redirect_object(s3, "x.html", "https://other.example/x.html")
    redirect_object(s3, "y.html", "/y2.html")
    redirect_object(s3, "y2.html", "/y.html")
    rebuild(s3)
    assert listed(s3) == [f"{BASE}old/x.html", f"{BASE}old/y.html", *CURRENT]


def test_a_page_object_with_a_website_redirect_is_a_stub(s3: Any) -> None:
    # S3 website hosting answers a 301 whatever the body: the page is never seen.
    upload(s3, {key: body for key, body in SITE.items() if key != "x.html"})
    redirect_object(s3, "x.html", "/stable/x.html", body=page("x, the old text"))
    report = rebuild(s3)
    assert listed(s3) == CURRENT
    assert report.skipped[SkipReason.REDIRECT] == 2
    assert report.skipped[SkipReason.CANONICAL] == 2
    details = {skip.path: skip.detail for skip in report.skips}
    assert details["x.html"] == "S3 website redirect to /stable/x.html"
    assert details["y.html"] == "meta refresh to stable/y.html"


def test_a_website_redirect_is_never_remembered_by_its_etag(s3: Any) -> None:
    # The redirect is metadata: an object of the same bytes without one is a page, and the
    # redirect may go while the bytes (the ETag) stay.
    upload(s3, {key: body for key, body in SITE.items() if key != "x.html"})
    redirect_object(s3, "x.html", "/stable/x.html", body=page("x, the old text"))
    rebuild(s3)
    assert listed(s3) == CURRENT
    upload(s3, {"copy/x.html": page("x, the old text")})  # the same bytes, no redirect
    second = rebuild(s3)
    assert second.heads_read == 2  # the copy, and the redirect read again
    assert listed(s3) == [f"{BASE}copy/x.html", *CURRENT]
    upload(s3, {"x.html": page("x, the old text")})  # the redirect removed, same ETag
    third = rebuild(s3)
    assert third.heads_read == 1
    # x.html is a page now: the canonical of every version names it.
    assert listed(s3) == [f"{BASE}copy/x.html", f"{BASE}stable/y.html", f"{BASE}x.html"]


# --- sharded, with a partitioned state: a stub and the copies naming it in other shards -----

STATE_BUCKET = "state-bucket"


def sharded_run(s3: Any, changed: list[str] | None = None) -> Report:
    config = make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on",
        max_urls=5,
        shard_fill=4,
        content_dates=False,
    )
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    return rebuild_partitioned(config, s3, BucketSite(BUCKET), store, changed=changed, now=NOW)


def all_listed(s3: Any) -> list[str]:
    """The URLs of the live sitemaps (the index and the children it names)."""
    found = re.findall(r"<loc>(.*?)</loc>", b"".join(live_files(s3).values()).decode())
    return sorted(url for url in found if not url.split("/")[-1].startswith("sitemap"))


@pytest.mark.parametrize(
    ("change", "copy_listed", "full"),
    [
        pytest.param(stub("../gone.html"), True, True, id="to a page that is not there"),
        pytest.param(stub("/c/p2.html"), False, True, id="to another listed page"),
        pytest.param(None, True, True, id="deleted"),
        # The URL the copy names is a listed page now: the copy stays out.
        pytest.param(page("b/x, a page now"), False, True, id="a page now"),
        # An unchanged stub among the changed paths: no full rebuild.
        pytest.param(stub("../c/p1.html"), False, False, id="the same bytes again"),
    ],
)
def test_a_changed_stub_decides_the_copies_of_other_shards(
    s3: Any, change: bytes | None, copy_listed: bool, full: bool
) -> None:
    s3.create_bucket(Bucket=STATE_BUCKET)
    upload(
        s3, {f"{section}/p{n}.html": page(f"{section}{n}") for section in "abc" for n in range(4)}
    )
    upload(s3, {"a/p3.html": page("a copy", f"{BASE}b/x.html"), "b/x.html": stub("../c/p1.html")})
    sharded_run(s3)
    copy = f"{BASE}a/p3.html"
    assert copy not in all_listed(s3)
    if change is None:
        s3.delete_object(Bucket=BUCKET, Key="b/x.html")
    else:
        upload(s3, {"b/x.html": change})
    report = sharded_run(s3, changed=["b/x.html"])
    # A stub changed or gone: other shards may name it, the run is a full rebuild.
    assert (report.shards_touched is None) is full
    incremental = sitemap_files(s3)
    assert (copy in all_listed(s3)) is copy_listed
    full = sharded_run(s3)
    assert full.result.written == [] and sitemap_files(s3) == incremental


def test_a_stub_in_another_shard_of_a_distributed_run_is_followed_by_the_last_build(
    s3: Any,
) -> None:
    s3.create_bucket(Bucket=STATE_BUCKET)
    upload(s3, {f"p{n:03d}.html": page(f"p{n}") for n in range(60)})
    # The copy (first shard) names p045.html (last shard), a stub to p030.html (the middle one).
    upload(s3, {"p000.html": page("a copy", "/p045.html"), "p045.html": stub("p030.html")})
    config = make_config(
        shards="on", shard_fill=20, state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
    )
    site = BucketSite(BUCKET)
    store = open_partitioned(config, s3, site)
    assert store is not None
    run = DistributedRun(config, s3, site, store, STATE_BUCKET, NOW)
    LocalExecutor(run, None).execute(RunRequest("full-1", BUCKET, ""))
    assert len(store.read_manifest().plan.afters) >= 3  # type: ignore[union-attr]
    # No build before this one: where the stub leads was not known.
    assert f"{BASE}p000.html" in all_listed(s3)
    LocalExecutor(run, None).execute(RunRequest("full-2", BUCKET, ""))
    listed_now = all_listed(s3)
    assert f"{BASE}p000.html" not in listed_now and f"{BASE}p030.html" in listed_now
    assert f"{BASE}p045.html" not in listed_now


def test_a_noindex_stub_is_remembered_as_one(s3: Any) -> None:
    # Hugo's alias: noindex and a refresh. Left out as noindex, followed as a stub, each run.
    alias = (
        f'<!DOCTYPE html><html><head><meta name="robots" content="noindex">'
        f'<meta http-equiv="refresh" content="0; url={BASE}stable/x.html"></head></html>'
    ).encode()
    upload(s3, {**SITE, "x.html": alias})
    for run in range(2):
        report = rebuild(s3)
        assert listed(s3) == CURRENT, run
        assert report.skipped[SkipReason.NOINDEX] == 1 and report.skipped[SkipReason.CANONICAL] == 2
    assert report.heads_read == 0
    assert remembered(s3).unlisted[etag(s3, "x.html")] == PageFacts(
        noindex=True, refresh=f"{BASE}stable/x.html"
    )
