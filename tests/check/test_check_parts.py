"""The check's pure parts: X-Robots-Tag, one URL in two spellings, the sample, the changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.check.published import PublishedPage, smallest_hashes
from sitemill.check.served import robots_header_noindex, same_url
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.state.model import PageRecord, State
from sitemill.state.pending import remember_changes


@pytest.mark.parametrize(
    ("value", "noindex"),
    [
        ("noindex", True),
        ("NoIndex, nofollow", True),
        ("googlebot: noindex", True),
        ("none", True),
        ("nofollow", False),
        ("unavailable_after: 25 Jun 2030 15:00:00 PST", False),
        ("", False),
        ("index, follow", False),
    ],
)
def test_x_robots_tag(value: str, noindex: bool) -> None:
    assert robots_header_noindex(value) is noindex


def test_one_url_in_two_spellings() -> None:
    assert same_url("HTTPS://Example.org:443/a%20b/", "https://example.org/a b/")
    assert same_url("https://example.org", "https://example.org/#top")
    assert not same_url("https://example.org/a", "https://example.org/a/")
    assert not same_url("http://example.org/", "https://example.org/")
    assert not same_url("https://example.org/?x=1", "https://example.org/")


def test_the_sample_depends_on_the_urls_alone() -> None:
    urls = [f"https://e.org/{n}" for n in range(1000)]
    sample = smallest_hashes(urls, 20)
    assert sample == smallest_hashes(reversed(urls), 20) and len(set(sample)) == 20
    assert len(set(sample) & set(smallest_hashes([*urls, "https://e.org/new"], 20))) >= 19


def record(fingerprint: str) -> PageRecord:
    return PageRecord(None, fingerprint=fingerprint, lastmod="2024-01-01")


def test_changes_are_the_runs_or_the_last_that_changed_any() -> None:
    known = State(pages={"a.html": record("1"), "b.html": record("1")})
    now = State(pages={"a.html": record("2"), "b.html": record("1"), "c.html": record("1")})
    remember_changes(known, now, first_run=False)
    assert now.changes == {"a.html": "changed", "c.html": "added"}
    later = State(pages={"a.html": record("2"), "c.html": record("1")})
    remember_changes(now, later, first_run=False)
    assert later.changes == {"a.html": "changed", "c.html": "added"}  # (b left: no change)
    first = State(pages={"a.html": record("2")})
    remember_changes(State(), first, first_run=True)
    assert first.changes == {}


def test_the_published_bytes_decide_before_a_remembered_fingerprint(tmp_path: Path) -> None:
    from sitemill.check._livepages import same_version
    from sitemill.check.published import Fingerprinting, SiteFolder

    how = Fingerprinting(FINGERPRINT_VERSION, True, (), "https://e.org/")
    body = b"<title>A</title><main><p>Words of the page.</p></main>"
    (tmp_path / "a.html").write_bytes(body)
    odd = PublishedPage("https://e.org/a.html", "a.html", "0" * 32)  # (not what a page gives)
    assert same_version(odd, body, body, how, SiteFolder(tmp_path))  # the bytes published: the same
    other = body.replace(b"Words", b"Other words")
    assert not same_version(odd, other, other, how, SiteFolder(tmp_path))
    respaced = body.replace(b"<p>", b"\n<p>  ")  # (another rendering of the same content)
    assert same_version(odd, respaced, respaced, how, SiteFolder(tmp_path))
    assert not same_version(odd, body, body, how, None)  # (no bytes at hand: the fingerprint)
    outside = PublishedPage("https://e.org/x", "../a.html", "0" * 32)
    sub = SiteFolder(tmp_path / "sub")
    assert not same_version(outside, body, body, how, sub)  # (never read outside)
    etag = PublishedPage("https://e.org/a.html", "a.html", "0" * 32, '"' + md5(body) + '"')
    assert same_version(etag, body, body, how, None)


def md5(data: bytes) -> str:
    import hashlib

    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def test_with_a_fingerprint_this_sitemill_cannot_make_a_page_is_compared_by_bytes_or_not_at_all(
    tmp_path: Path,
) -> None:
    from sitemill.check._livepages import judge_page
    from sitemill.check.published import Fingerprinting, SiteFolder
    from sitemill.web.livesite import LiveAnswer

    how = Fingerprinting(
        FINGERPRINT_VERSION, True, (), "https://e.org/", remembered=False
    )  # (a version 99 state)
    body = b"<title>A</title><main><p>Words of the page.</p></main>"
    answer = LiveAnswer("https://e.org/a.html", 200, (("Content-Type", "text/html"),), body)
    # A bucket's page: the state keeps its ETag; the version-99 fingerprint is dropped.
    same = PublishedPage("https://e.org/a.html", "a.html", None, '"' + md5(body) + '"')
    assert judge_page(answer, same, how).passed
    other = PublishedPage("https://e.org/a.html", "a.html", None, '"' + "0" * 32 + '"')
    verdict = judge_page(answer, other, how)
    assert verdict.problems == () and not verdict.compared and not verdict.passed
    # A tree's page: the published bytes, both fingerprinted by this sitemill.
    (tmp_path / "a.html").write_bytes(body.replace(b"Words", b"Older words"))
    stale = judge_page(answer, other, how, SiteFolder(tmp_path))
    assert [p.kind for p in stale.problems] == ["stale"] and not stale.passed
    (tmp_path / "a.html").write_bytes(body.replace(b"<p>", b"\n<p> "))
    assert judge_page(answer, other, how, SiteFolder(tmp_path)).passed
