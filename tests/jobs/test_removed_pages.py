"""jobs.removedpages: a summary names the first MAX_REMOVED_SHOWN removed URLs in URL order and
counts them all; the state keeps at most MAX_REMOVED, and those of an earlier run while a run
removes none; a build that removes nothing makes the URLs of the pages it added or changed
only."""

from __future__ import annotations

import pytest

import sitemill.jobs.removedpages
from sitemill.config.model import load_config
from sitemill.diff.model import Removed, SiteDiff, Verdict
from sitemill.jobs.removedpages import (
    MAX_REMOVED_SHOWN,
    diff_states,
    remember_removed,
    removed_summary,
)
from sitemill.state.model import PageRecord, State
from sitemill.state.removedurls import RemovedUrl
from sitemill.urls import UrlStyle

BASE = "https://example.org/"


def removed(count: int) -> list[Removed]:
    return [Removed(f"{BASE}p{number:04}.html", Verdict.GONE) for number in reversed(range(count))]


def test_a_summary_names_the_first_removed_urls_and_counts_them_all() -> None:
    found = removed_summary([*removed(150), Removed(f"{BASE}a", Verdict.RENAMED, f"{BASE}b", 1.0)])
    assert found["removed_count"] == 151 and len(found["removed"]) == MAX_REMOVED_SHOWN == 100
    assert found["removed"][0] == {"url": f"{BASE}a", "verdict": "renamed", "target": f"{BASE}b"}
    assert found["removed"][1:3] == [
        {"url": f"{BASE}p0000.html", "verdict": "gone"},
        {"url": f"{BASE}p0001.html", "verdict": "gone"},
    ]


def test_the_state_keeps_at_most_max_removed_and_an_earlier_run_s_while_none_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sitemill.jobs.removedpages, "MAX_REMOVED", 3)
    before, after = State(), State()
    remember_removed(before, after, SiteDiff((), (), tuple(removed(5))), lambda url: False)
    assert list(after.removed) == [f"{BASE}p{number:04}.html" for number in range(3)]
    later = State()
    remember_removed(after, later, SiteDiff((f"{BASE}p0001.html",), (), ()), lambda url: False)
    assert later.removed == {
        f"{BASE}p0000.html": RemovedUrl("gone"),
        f"{BASE}p0002.html": RemovedUrl("gone"),
    }


def test_a_build_that_removes_nothing_makes_urls_only_of_the_pages_it_added_or_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []
    real = sitemill.jobs.removedpages.page_url

    def counting(base_url: str, path: str, style: UrlStyle) -> str:
        made.append(path)
        return real(base_url, path, style)

    monkeypatch.setattr(sitemill.jobs.removedpages, "page_url", counting)
    config = load_config({"base_url": BASE, "url_style": "file"})
    pages = {f"p{number}.html": PageRecord("v", fingerprint=f"f{number}") for number in range(1000)}
    before = State(pages=pages, base_url=BASE)
    after = State(
        pages={
            **pages,
            "p7.html": PageRecord("w", fingerprint="g"),
            "new.html": PageRecord("n", fingerprint="n"),
        }
    )
    found = diff_states(config, before, after, UrlStyle.FILE, lambda url: None)
    assert found.added == (f"{BASE}new.html",) and found.removed == ()
    assert [item.url for item in found.changed] == [f"{BASE}p7.html"]
    assert sorted(made) == ["new.html", "p7.html", "p7.html"]  # (not 2,000 URLs)
    # One page removed: every page's URL, so that a redirect's target is known listed or not.
    made.clear()
    del after.pages["p3.html"]
    found = diff_states(config, before, after, UrlStyle.FILE, lambda url: None)
    assert [item.url for item in found.removed] == [f"{BASE}p3.html"] and len(made) == 2000


def test_every_run_records_what_it_removed_through_one_hook() -> None:
    """The tree, the bucket and the sharded router keep what they removed the same way:
    jobs.removedpages.record_removed (diff_states, then remember_removed) is the one caller
    of remember_removed; a dry mode (sitemill diff) may ask diff_states alone."""
    import ast
    from pathlib import Path

    package = Path(sitemill.jobs.removedpages.__file__).parents[1]
    callers = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if name == "remember_removed":
                    callers.add(path.relative_to(package).as_posix())
    assert callers == {"jobs/removedpages.py"}
