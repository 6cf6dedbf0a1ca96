"""Which URLs a run announces: the state diff, the pending merge, the cap, privacy. Pure."""

from __future__ import annotations

from sitemill.indexnow._announce import announcements, below_base, kept_pending
from sitemill.state.model import PageRecord, State, dump_state
from sitemill.state.parse import parse_state
from sitemill.state.pending import MAX_PENDING, changes, pending_from_json

BASE = "https://example.com/"


def url_of(path: str) -> str:
    return BASE + path


def state(**pages: tuple[str | None, str | None]) -> State:
    """Pages by name (dots as underscores) with (fingerprint, lastmod)."""
    return State(
        pages={
            name.replace("_", "."): PageRecord(None, None, fingerprint, lastmod)
            for name, (fingerprint, lastmod) in pages.items()
        }
    )


def test_added_changed_removed_and_unchanged() -> None:
    old = state(a_html=("f1", "2024-01-01"), b_html=("f2", "2024-01-01"), c_html=("f3", "2024"))
    new = state(a_html=("f1", "2024-01-01"), b_html=("f9", "2024-02-01"), d_html=("f4", "2024"))
    assert changes(old, new, url_of) == {
        BASE + "b.html": "changed",
        BASE + "c.html": "removed",
        BASE + "d.html": "added",
    }


def test_nothing_when_nothing_changed_even_if_the_lastmod_would_differ() -> None:
    old = state(a_html=("f1", "2024-01-01"))
    new = state(a_html=("f1", "2024-03-01"))  # (fingerprints decide where comparable)
    assert changes(old, new, url_of) == {}


def test_another_fingerprint_version_compares_lastmods_instead() -> None:
    old = state(a_html=("old-style", "2024-01-01"), b_html=("x", "2024-01-01"))
    old.fingerprint_version -= 1
    new = state(a_html=("new-style", "2024-01-01"), b_html=("y", "2024-05-01"))
    assert changes(old, new, url_of) == {BASE + "b.html": "changed"}


def test_a_scope_switch_is_no_content_change() -> None:
    old = state(a_html=("body-print", "2024-01-01"))
    old.fingerprint_main = False
    new = state(a_html=("main-print", "2024-01-01"))
    assert changes(old, new, url_of) == {}


def test_a_url_listed_by_another_file_now_is_changed_not_added_and_removed() -> None:
    old = state(a_htm=("f1", "2024"))
    new = state(a_html=("f2", "2024"))
    same = changes(old, new, lambda path: BASE + path.rsplit(".", 1)[0])
    assert same == {BASE + "a": "changed"}


def test_pending_merge_keeps_added_over_changed_and_drops_foreign_urls() -> None:
    result = announcements(
        {BASE + "a": "added", BASE + "b": "changed", "https://evil.example/x": "added"},
        {BASE + "a": "changed", BASE + "c": "removed"},
        BASE,
    )
    assert result.urls == {BASE + "a": "added", BASE + "b": "changed", BASE + "c": "removed"}
    assert (result.carried, result.foreign, result.dropped) == (1, 1, 0)
    assert dict(result.found) == {"changed": 1, "removed": 1}


def test_found_urls_not_below_the_base_url_are_dropped() -> None:
    """A run file (a distributed worker's summary) may have been edited: a URL of another
    host, or one a dot segment leads out of the base path, is never announced (issue 39,
    item 4: the key file would be read from that host)."""
    base = "https://example.com/docs/"
    outside = [
        "https://evil.example/docs/x",
        "https://example.com/other/x",
        "https://example.com.evil.example/docs/x",
        base + "../x",
        base + "a/../../x",
        base + "%2e%2e/x",
        base + "%2E%2e/x",
        base + "./x",
        base + "a\\..\\..\\x",
        base + "x#frag",
    ]
    inside = [base + "x", base + "a/", base, base + "a..b/x", base + "x?q=1"]
    assert [url for url in outside + inside if below_base(url, base)] == inside
    result = announcements({}, dict.fromkeys(outside + inside, "added"), base)
    assert sorted(result.urls) == sorted(inside)
    assert (result.off_site, dict(result.found)) == (len(outside), {"added": len(inside)})


def test_a_public_states_pending_urls_count_only_if_the_run_lists_them() -> None:
    pending = {BASE + "listed": "changed", BASE + "noindex": "added", BASE + "gone": "removed"}
    result = announcements(pending, {}, BASE, listed={BASE + "listed", BASE + "gone"})
    assert result.urls == {BASE + "listed": "changed"}
    assert (result.carried, result.unlisted) == (1, 2)
    assert announcements(pending, {}, BASE).urls == pending  # a private state: trusted


def test_a_removed_page_that_comes_back_is_announced_as_what_it_is_now() -> None:
    result = announcements({BASE + "a": "removed"}, {BASE + "a": "added"}, BASE)
    assert result.urls == {BASE + "a": "added"}


def test_the_cap_keeps_this_runs_urls_first() -> None:
    earlier = {f"{BASE}old/{n:03}": "changed" for n in range(10)}
    found = {f"{BASE}new/{n:03}": "added" for n in range(8)}
    result = announcements(earlier, found, BASE, cap=12)
    assert len(result.urls) == 12 and result.dropped == 6
    assert set(found) <= set(result.urls)
    assert sorted(result.urls)[:4] == [f"{BASE}new/{n:03}" for n in range(4)]


def test_a_public_state_keeps_no_removed_url() -> None:
    urls = {BASE + "a": "added", BASE + "gone": "removed"}
    assert kept_pending(urls, public=True) == ({BASE + "a": "added"}, 1)
    assert kept_pending(urls, public=False) == (urls, 0)


def test_pending_round_trips_through_the_state() -> None:
    remembered = State(pending={BASE + "a": "added", BASE + "b%20c": "removed"})
    assert parse_state(dump_state(remembered)).pending == remembered.pending
    assert parse_state(dump_state(State())).pending == {}


def test_a_hostile_pending_table_is_dropped_or_filtered() -> None:
    too_many = {f"{BASE}{n}": "added" for n in range(MAX_PENDING + 1)}
    assert pending_from_json({"pending": too_many}) == {}
    assert pending_from_json({"pending": ["not", "a", "table"]}) == {}
    assert pending_from_json("junk") == {}
    checked = pending_from_json(
        {
            "pending": {
                BASE + "ok": "changed",
                "javascript:alert(1)": "added",
                BASE + "bad kind": "deleted",
                BASE + "x" * 3000: "added",
                BASE + "sp ace": "added",
            }
        }
    )
    assert checked == {BASE + "ok": "changed"}
