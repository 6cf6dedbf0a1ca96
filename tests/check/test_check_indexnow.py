"""The check gates IndexNow: the engine receives exactly the pending URLs that passed; the
rest stay pending in the state; a key file that is not live sends nothing."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from checkstand import KEY, PAGES, build, check, page, publish, write_site

from enginestand import Stand
from sitemill.check.problems import KEY_FILE, STALE
from sitemill.indexnow import pending as pending_module
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


def connections_to(server: Stand) -> list[object]:
    """Every connection ``server`` accepts from now on, requests or not (its address)."""
    accepted: list[object] = []
    accept = server.httpd.get_request

    def counted() -> tuple[Any, Any]:
        sock, address = accept()
        accepted.append(address)
        return sock, address

    server.httpd.get_request = counted  # type: ignore[method-assign]
    return accepted


class KeyFileThenRedirect(dict[str, tuple[int, bytes, dict[str, str]]]):
    """A live site whose key file answers the key once, then redirects to ``elsewhere``."""

    def __init__(self, files: dict[str, tuple[int, bytes, dict[str, str]]], elsewhere: str):
        super().__init__(files)
        self.elsewhere, self.asked = elsewhere, 0

    def get(self, path: str, default: Any = None) -> Any:  # type: ignore[override]
        if path != f"/{KEY}.txt":
            return super().get(path, default)
        self.asked += 1
        if self.asked == 1:
            return super().get(path, default)
        return (301, b"", {"Location": f"{self.elsewhere}/{KEY}.txt"})


def test_the_key_file_is_read_once_by_the_check_and_no_other_host_is_asked(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]],
    stands: list[Stand],
) -> None:
    root, base, _ = announced_site
    stand, other = stands
    other.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/plain"})
    other_connections = connections_to(other)
    stand.files = KeyFileThenRedirect(stand.files, other.origin)
    checked = check(root, base, every=False, **settings(stand))
    assert checked.report.ok
    assert other_connections == [] and other.requests == []
    assert stand.requests.count(("GET", f"/{KEY}.txt")) == 1  # (the send took the check's)
    assert [post["urlList"] for post in stand.posts] == [sorted(base + p for p in EDITS)]
    assert pending(root) == {}


def test_a_key_file_that_redirects_to_another_host_is_a_problem_and_that_host_is_not_asked(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]],
    stands: list[Stand],
) -> None:
    root, base, _ = announced_site
    stand, other = stands
    other.files[f"/{KEY}.txt"] = (200, KEY.encode(), {"Content-Type": "text/plain"})
    other_connections = connections_to(other)
    location = f"{other.origin}/{KEY}.txt"
    stand.files[f"/{KEY}.txt"] = (301, b"", {"Location": location})
    checked = check(root, base, every=False, **settings(stand))
    (problem,) = checked.report.sorted_problems()
    assert problem.kind == KEY_FILE and "(not followed)" in problem.what
    assert other_connections == [] and other.requests == []
    assert stand.posts == []
    assert pending(root) == {base + p: "changed" for p in EDITS}


def test_a_build_that_writes_the_state_while_the_check_writes_back_loses_nothing(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]],
    stand: Stand,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, base, _ = announced_site
    write_site(root, {"news.html": page("News", "Fresh.")})
    settle = pending_module.merge_pending
    builds: list[int] = []

    def a_build_comes_in_between(
        read: dict[str, str] | None, now: dict[str, str], kept: dict[str, str]
    ) -> dict[str, str]:
        if not builds:  # (the check has read the state again and settles: a deploy's build)
            builds.append(1)
            build(root, base, "--indexnow", "later")
        return settle(read, now, kept)

    monkeypatch.setattr(pending_module, "merge_pending", a_build_comes_in_between)
    checked = check(root, base, every=False, **settings(stand))
    assert builds and checked.report.ok
    assert [post["urlList"] for post in stand.posts] == [sorted(base + p for p in EDITS)]
    state = StatePending(SinkStateStore(LocalDirSink(root)), public=True).state()
    assert state is not None and "news.html" in state.pages
    assert state.pending == {base + "news.html": "added"}
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".sitemill-state")) == []


def state_of_version(root: Path, version: int) -> None:
    """The state as a sitemill of another fingerprint version would have written it."""
    path = root / "sitemill-state.json.gz"
    document = json.loads(gzip.decompress(path.read_bytes()))
    document["fingerprint_version"] = version
    path.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))


@pytest.mark.parametrize("version", [99, 1])
def test_a_state_of_a_fingerprint_version_not_computable_is_compared_by_the_bytes(
    announced_site: tuple[Path, str, dict[str, tuple[int, bytes, dict[str, str]]]],
    stand: Stand,
    version: int,
) -> None:
    root, base, first = announced_site
    state_of_version(root, version)
    stand.files["/about.html"] = first["/about.html"]  # (a cache still serves the old page)
    checked = check(root, base, every=False, **settings(stand))
    assert [(p.url, p.kind) for p in checked.report.sorted_problems()] == [
        (base + "about.html", STALE)
    ]
    assert any("cannot compute" in note for note in checked.report.notes)
    assert [post["urlList"] for post in stand.posts] == [
        [base + "blog/first.html", base + "docs/guide.html"]
    ]
    assert pending(root) == {base + "about.html": "changed"}
