"""The check gates IndexNow: the engine receives exactly the pending URLs that passed; the
rest stay pending in the state; a key file that is not live sends nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from checkstand import KEY, PAGES, build, check, page, publish, write_site

from enginestand import Stand
from sitemill.check.problems import KEY_FILE, STALE
from sitemill.indexnow.pending import StatePending
from sitemill.sinks import LocalDirSink
from sitemill.state.store import SinkStateStore

EDITS = {
    "about.html": page("About", "Who we are, and since when."),
    "docs/guide.html": page("Guide", "How to use it, in three steps."),
    "blog/first.html": page("First post", "Hello, world, again."),
}


@pytest.fixture
def announced_site(
    tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]]:
    """Built twice (three pages edited in between, IndexNow later): the second build
    published; the first build's files returned too."""
    monkeypatch.setenv("SITEMILL_INDEXNOW_KEY", KEY)
    root, base = tmp_path / "site", stand.origin + "/"
    write_site(root, PAGES)
    build(root, base, "--indexnow", "later")
    stand.files.clear()
    publish(stand, root)
    first = dict(stand.files)
    write_site(root, EDITS)
    build(root, base, "--indexnow", "later")
    publish(stand, root)
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/plain"})
    return root, base, first


def pending(root: Path) -> dict[str, str]:
    return StatePending(SinkStateStore(LocalDirSink(root)), public=True).read()


def settings(stand: Stand) -> dict[str, object]:
    return {
        "indexnow": "later",
        "indexnow_key": KEY,
        "indexnow_endpoint": stand.origin + "/indexnow",
    }


def test_only_the_urls_that_passed_are_announced_and_the_rest_stay_pending(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]], stand: Stand
) -> None:
    root, base, first = announced_site
    assert pending(root) == {base + p: "changed" for p in EDITS}
    stand.files["/about.html"] = first["/about.html"]  # (a cache still serves the old page)
    checked = check(root, base, every=False, **settings(stand))
    assert [(p.url, p.kind) for p in checked.report.sorted_problems()] == [
        (base + "about.html", STALE)
    ]
    assert [post["urlList"] for post in stand.posts] == [
        [base + "blog/first.html", base + "docs/guide.html"]
    ]
    assert pending(root) == {base + "about.html": "changed"}
    assert checked.indexnow is not None and sum(checked.indexnow.sent.values()) == 2
    # The cache catches up: the next check sends the one left.
    publish(stand, root)
    again = check(root, base, every=False, **settings(stand))
    assert again.report.ok
    assert stand.posts[-1]["urlList"] == [base + "about.html"]
    assert pending(root) == {}


def test_a_key_file_served_as_html_is_a_problem_and_nothing_is_sent(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]], stand: Stand
) -> None:
    root, base, _ = announced_site
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/html"})
    checked = check(root, base, every=False, **settings(stand))
    problems = checked.report.sorted_problems()
    assert [p.kind for p in problems] == [KEY_FILE]
    assert "text/html, not text/plain" in problems[0].what
    assert KEY not in problems[0].line() and "***.txt" in problems[0].line()
    assert stand.posts == []
    assert pending(root) == {base + p: "changed" for p in EDITS}


def test_the_run_s_changes_are_kept_and_a_second_run_with_no_change_writes_nothing(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]],
) -> None:
    root, base, _ = announced_site
    state = root / "sitemill-state.json.gz"
    before = state.read_bytes(), state.stat().st_mtime_ns
    build(root, base, "--indexnow", "later")
    assert (state.read_bytes(), state.stat().st_mtime_ns) == before
    store = StatePending(SinkStateStore(LocalDirSink(root)), public=True).state()
    assert store is not None and store.changes == {p: "changed" for p in EDITS}
