"""`sitemill why PAGE --bucket NAME`: a bucket page's date and its evidence, from a dry run
that writes nothing to the bucket."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from s3util import BASE, BUCKET, moto_bucket
from sitemill.cli.main import main

SYNCED = datetime(2026, 5, 1, 9, 30)  # `aws s3 sync` of a fresh build: one minute (naive UTC)
PUBLISHED = '<meta property="article:published_time" content="{0}">'
MODIFIED = '<meta property="article:modified_time" content="{0}">'
NOINDEX = '<meta name="robots" content="noindex">'


def html(name: str, head: str = "") -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>{name}</title>{head}</head>"
        f"<body><main><h1>{name}</h1><p>What {name} says.</p></main></body></html>"
    ).encode()


SITE = {
    "index.html": html("Home"),
    "p0.html": html("P0"),
    # Modified two months after its publication: accepted.
    "p1.html": html(
        "P1",
        PUBLISHED.format("2024-01-10T08:00:00+00:00")
        + MODIFIED.format("2024-03-05T08:30:00+00:00"),
    ),
    # "Updated" repeats the publication date (a template's fallback): refused.
    "p2.html": html(
        "P2",
        PUBLISHED.format("2024-02-01T10:00:00+00:00")
        + MODIFIED.format("2024-02-01T10:00:00+00:00"),
    ),
    "p3.html": html("P3", MODIFIED.format("2024-06-20T12:00:00+00:00")),
    "hidden.html": html("Hidden", NOINDEX),
}


@pytest.fixture(autouse=True)
def _no_sitemill_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("SITEMILL_")]:
        monkeypatch.delenv(name)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def sync(client: Any, files: dict[str, bytes], start: datetime, step: timedelta) -> None:
    """Upload each file, each given its LastModified (moto would set "now"): ``start``, then
    ``step`` later than the one before."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for number, (key, body) in enumerate(files.items()):
        client.put_object(Bucket=BUCKET, Key=key, Body=body, ContentType="text/html")
        backend.get_object(BUCKET, key).last_modified = start + number * step


def objects(client: Any) -> dict[str, str]:
    """Every object of every bucket: its ETag, by bucket and key."""
    found = {}
    for bucket in client.list_buckets()["Buckets"]:
        name = bucket["Name"]
        for item in client.list_objects_v2(Bucket=name).get("Contents", []):
            found[f"{name}/{item['Key']}"] = item["ETag"]
    return found


def why(capsys: pytest.CaptureFixture[str], page: str, *more: str) -> tuple[int, list[str]]:
    code = main(["why", page, "--bucket", BUCKET, "--base-url", BASE, *more])
    return code, capsys.readouterr().out.splitlines()


def test_a_first_rebuild_after_a_one_minute_sync_gives_no_date_and_the_stamp_verdict(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sync(s3, SITE, SYNCED, timedelta(seconds=5))
    code, lines = why(capsys, "p0.html")
    assert code == 0
    assert lines[0] == "p0.html: no <lastmod>"
    assert lines[1] == (
        "  why: no evidence: no remembered date, no declared date; the upload times are one sync's"
    )
    assert lines[2] == (
        "  upload times: 6 of 6 objects' LastModified fall within 10 minutes"
        " (one sync's: no evidence)"
    )


def test_declared_dates_accepted_and_refused_name_the_declaration(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sync(s3, SITE, SYNCED, timedelta(seconds=5))
    code, lines = why(capsys, f"{BASE}p1.html")  # a URL under the base URL
    assert code == 0
    assert lines[0] == "p1.html: <lastmod>2024-03-05T08:30:00+00:00</lastmod>"
    assert "its own declared modification date" in lines[1]
    assert lines[2] == "  declared: 2024-03-05T08:30:00Z (meta article:modified_time), accepted"
    code, lines = why(capsys, "p2")
    assert code == 0
    assert lines[0] == "p2.html: no <lastmod>"
    assert lines[2] == (
        "  declared: 2024-02-01T10:00:00Z (meta article:modified_time), refused:"
        " not after the page's publication date"
    )
    assert "6 of 6 objects' LastModified" in lines[3]


def test_a_page_the_state_remembers_keeps_its_date(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = {f"p{n}.html": html(f"P{n}") for n in range(4)}
    sync(s3, pages, datetime(2025, 1, 1, 8, 0), timedelta(days=30))  # uploaded page by page
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    sync(s3, pages, SYNCED, timedelta(seconds=1))  # the same bytes, synced again
    code, lines = why(capsys, "p2.html")
    assert code == 0
    assert lines[0] == "p2.html: <lastmod>2025-03-02T08:00:00+00:00</lastmod>"
    assert lines[1] == (
        f"  why: kept: the state at s3://{BUCKET}/sitemill-state.json.gz remembers"
        " 2025-03-02T08:00:00+00:00 and the same content fingerprint (unchanged)"
    )


def test_pages_not_listed_say_why_and_an_unknown_key_gets_a_near_name(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sync(s3, SITE, SYNCED, timedelta(seconds=5))
    s3.put_object(Bucket=BUCKET, Key="old/index.html", Body=b"", WebsiteRedirectLocation="/p0.html")
    code, lines = why(capsys, "hidden.html")
    assert code == 1
    assert lines[0].startswith("hidden.html: not listed: noindex")
    code, lines = why(capsys, "old/")
    assert code == 1
    assert lines[0].startswith("old/index.html: not listed: excluded (an empty object")
    code, lines = why(capsys, "hiden.html")
    assert code == 1
    assert lines == ["hiden.html: no page of the site has this name; did you mean hidden.html?"]
    code, lines = why(capsys, "https://elsewhere.example/p0.html")
    assert code == 1
    assert "not under the base URL" in lines[0]


def test_a_key_under_a_prefix_is_named_either_way(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sync(s3, {f"site/{key}": body for key, body in SITE.items()}, SYNCED, timedelta(seconds=5))
    for page in ("p1.html", "site/p1.html", f"{BASE}p1.html"):
        code, lines = why(capsys, page, "--prefix", "site/")
        assert code == 0
        assert lines[0] == "p1.html: <lastmod>2024-03-05T08:30:00+00:00</lastmod>"


def test_why_writes_nothing_to_the_bucket(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sync(s3, SITE, SYNCED, timedelta(seconds=5))
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    sync(s3, {"p0.html": html("P0, changed"), "new.html": html("New")}, SYNCED, timedelta(0))
    s3.delete_object(Bucket=BUCKET, Key="sitemap.xml")  # a rebuild would write it again
    s3.create_bucket(Bucket="state-bucket")
    before = objects(s3)
    for page in ("p0.html", "new.html", "p1.html", "hidden.html", "nothing.html"):
        main(["why", page, "--bucket", BUCKET, "--base-url", BASE])
    state = "s3://state-bucket/site/sitemill-state.json.gz"
    assert main(["why", "new.html", "--bucket", BUCKET, "--base-url", BASE, "--state", state]) == 0
    capsys.readouterr()
    assert objects(s3) == before


def test_a_hostile_key_is_shown_escaped(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    key = "evil\x1b[2J\x07.html"
    sync(s3, {key: html("Evil"), "p0.html": html("P0")}, SYNCED, timedelta(seconds=5))
    code, lines = why(capsys, key)
    assert code == 1  # (issue 78: a name with a control character can name no page)
    assert "\x1b" not in "".join(lines) and "\x07" not in "".join(lines)
    assert lines[0].startswith("evil\\x1b[2J\\x07.html: not listed: excluded")


def test_a_site_dir_and_a_bucket_are_not_both_given(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["why", "p0.html", "public", "--bucket", BUCKET, "--base-url", BASE])
    assert code == 2
    assert "not both" in capsys.readouterr().err


def test_a_prefix_without_a_bucket_is_a_mistake(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["why", "p0.html", "--prefix", "site/", "--base-url", BASE])
    assert code == 2
    assert "give --bucket" in capsys.readouterr().err


def test_a_state_kept_in_parts_in_another_bucket_is_read(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    s3.create_bucket(Bucket="state-bucket")
    state = ["--state", "s3://state-bucket/site-bucket/sitemill-state.json.gz"]
    pages = {f"p{n}.html": html(f"P{n}") for n in range(4)}
    sync(s3, pages, datetime(2025, 1, 1, 8, 0), timedelta(days=30))  # uploaded page by page
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q", *state]) == 0
    sync(s3, pages, SYNCED, timedelta(seconds=1))  # the same bytes, synced again
    before = objects(s3)
    code, lines = why(capsys, "p2.html", *state)
    assert code == 0
    assert lines[0] == "p2.html: <lastmod>2025-03-02T08:00:00+00:00</lastmod>"
    assert lines[1].startswith("  why: kept: the state at s3://state-bucket/site-bucket/sitemill-")
    assert objects(s3) == before


def test_a_kept_date_names_its_root_evidence(s3: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # The state kept each date; `why` names the rung that first gave it (lastmod.proof): the
    # declared date and its declaration, or the spread LastModified of a first rebuild.
    sync(s3, SITE, SYNCED, timedelta(seconds=5))
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    code, lines = why(capsys, "p1.html")
    assert code == 0 and lines[1].startswith("  why: kept: the state at ")
    assert lines[2] == (
        "  evidence: rung 3, its own declared modification date 2024-03-05T08:30:00+00:00"
        " (meta article:modified_time)"
    )
    spread = {f"q{n}.html": html(f"Q{n}") for n in range(4)}
    sync(s3, spread, datetime(2025, 1, 1, 8, 0), timedelta(days=30))  # uploaded page by page
    s3.delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": key} for key in SITE]})
    for name in ("sitemap.xml", "sitemill-state.json.gz"):
        s3.delete_object(Bucket=BUCKET, Key=name)
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    code, lines = why(capsys, "q2.html")
    assert lines[0] == "q2.html: <lastmod>2025-03-02T08:00:00+00:00</lastmod>"
    assert (
        lines[2] == "  evidence: its LastModified on a first run (the times were spread: no stamp)"
    )


def test_a_date_kept_across_a_deploys_template_edit_says_so(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    def page(n: int, version: str) -> bytes:
        return html(f"P{n}").replace(
            b"</main>", f"<p>Built with Quill {version}</p></main>".encode()
        )

    sync(
        s3,
        {f"p{n}.html": page(n, "2.0") for n in range(5)},
        datetime(2025, 1, 1, 8, 0),
        timedelta(days=30),
    )
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    sync(s3, {f"p{n}.html": page(n, "2.1") for n in range(5)}, SYNCED, timedelta(seconds=1))
    code, lines = why(capsys, "p2.html")
    assert code == 0
    assert lines[0] == "p2.html: <lastmod>2025-03-02T08:00:00+00:00</lastmod>"
    assert lines[1] == (
        f"  why: kept: the state at s3://{BUCKET}/sitemill-state.json.gz remembers"
        " 2025-03-02T08:00:00+00:00; the content fingerprint changed only by an edit this deploy"
        " made alike on most of the pages it changed, or by its own date (no content)"
    )


def test_sitemills_own_objects_and_a_users_sitemap_html_say_what_they_are(
    s3: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand-written sitemap.html is a page while html_sitemap is off; one whose head says
    sitemill made it is sitemill's leftover, which the run deletes; sitemap.xml is sitemill's
    own output: each `why` gives that reason, not the include/exclude rules."""
    mine = html("Site map", '<meta name="generator" content="sitemill 0.1.0">')
    sync(s3, {**SITE, "sitemap.html": html("Site map")}, SYNCED, timedelta(seconds=5))
    code, lines = why(capsys, "sitemap.html")
    assert code == 0
    assert lines[0] == "sitemap.html: no <lastmod>"
    assert main(["s3", "--bucket", BUCKET, "--base-url", BASE, "-q"]) == 0
    code, lines = why(capsys, "sitemap.xml")
    assert code == 1
    assert lines[0] == "sitemap.xml: not listed: excluded (one of sitemill's own files)"
    s3.put_object(Bucket=BUCKET, Key="sitemap.html", Body=mine, ContentType="text/html")
    code, lines = why(capsys, "sitemap.html")
    assert code == 1
    assert lines[0] == (
        "sitemap.html: not listed: excluded (sitemill's own sitemap.html of an earlier run"
        " (its head's generator meta says so), which this run deletes)"
    )


def test_why_bucket_lists_pages_as_the_run_does() -> None:
    """`why --bucket` reads the listing through the one step every bucket run shares
    (jobs.bucketpass.pass_listing, issue 80), not a wiring of its own."""
    import ast
    from pathlib import Path

    import sitemill.jobs.bucket as module  # (the run `why --bucket` runs dry)

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert "pass_listing" in called
    assert not called & {"bucket_pages", "head_reader", "bucket_pass"}


def test_why_bucket_is_the_bucket_run_dry() -> None:
    """`why --bucket` runs the bucket run itself (jobs.bucket.build_bucket, dry: issue 80), as
    `diff` does, and no pass of its own."""
    from sitemill.commands.whybucket import explain_bucket_page

    names = set(explain_bucket_page.__code__.co_names)  # (the globals it calls)
    assert "build_bucket" in names
    assert not names & {"pass_listing", "start_state", "read_bucket_robots", "list_objects"}
