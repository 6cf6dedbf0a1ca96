"""The HTML sitemap's links: kept within a bound whatever the stream, grouped and ordered."""

from __future__ import annotations

import random
import tracemalloc
from typing import Any

import pytest

from sitemill.entries import Alternate, Entry
from sitemill.htmlmap._links import LinkCollector
from sitemill.htmlmap._page import page_variables, readable_date

BASE = "https://example.com/"


def collect(entries: list[Entry], limit: int = 50_000, base: str = BASE) -> LinkCollector:
    collector = LinkCollector(base, limit)
    assert list(collector.watch(iter(entries))) == entries  # the stream passes unchanged
    return collector


def variables(entries: list[Entry], limit: int = 50_000) -> dict[str, Any]:
    collector = collect(entries, limit)
    return page_variables(
        collector.links(), base_url=BASE, total=collector.total, entry_file="sitemap.xml"
    )


def shown(values: dict[str, Any]) -> list[tuple[str | None, str, list[str]]]:
    """(language, folder, link texts) in page order."""
    return [
        (section["language"], folder["path"], [link["text"] for link in folder["links"]])
        for section in values["sections"]
        for folder in section["folders"]
    ]


def test_grouped_by_folder_sorted_with_the_folder_page_first() -> None:
    locs = ["docs/b.html", "docs/", "Zeta.html", "", "docs/api/x.html", "alpha.html", "docs/A.html"]
    entries = [Entry(BASE + loc, title=None) for loc in locs]
    assert shown(variables(entries)) == [
        (None, "/", ["/", "/alpha.html", "/Zeta.html"]),
        (None, "/docs/", ["/docs/", "/docs/A.html", "/docs/b.html"]),
        (None, "/docs/api/", ["/docs/api/x.html"]),
    ]


def test_titles_and_the_path_when_there_is_none() -> None:
    entries = [
        Entry(BASE + "a.html", "2024-05-01", title="A page"),
        Entry(BASE + "caf%C3%A9%20%26%20bar.html", "2024-12-31T23:59:59+00:00"),
        Entry(BASE + "bad%FF.html?q=%3Cx%3E"),
    ]
    values = variables(entries)
    links = {
        link["url"]: link
        for section in values["sections"]
        for folder in section["folders"]
        for link in folder["links"]
    }
    first = links[BASE + "a.html"]
    assert (first["text"], first["title"], first["path"], first["date"]) == (
        "A page",
        "A page",
        "/a.html",
        "1 May 2024",
    )
    second = links[BASE + "caf%C3%A9%20%26%20bar.html"]
    assert (second["text"], second["title"], second["lastmod"], second["date"]) == (
        "/caf\u00e9 & bar.html",
        None,
        "2024-12-31T23:59:59+00:00",
        "31 December 2024",
    )
    assert links[BASE + "bad%FF.html?q=%3Cx%3E"]["text"] == "/bad\ufffd.html?q=<x>"
    assert values["total"] == values["shown"] == 3
    assert values["omitted"] == 0


def test_a_language_section_per_hreflang_and_the_rest_last() -> None:
    cluster = (Alternate("de", BASE + "de/"), Alternate("en", BASE), Alternate("x-default", BASE))
    entries = [
        Entry(BASE, alternates=cluster, title="Home"),
        Entry(BASE + "de/", alternates=cluster, title="Start"),
        Entry(BASE + "solo.html", title="Solo"),
    ]
    values = variables(entries)
    assert values["languages"] is True
    assert shown(values) == [
        ("de", "/de/", ["Start"]),
        ("en", "/", ["Home"]),
        (None, "/", ["Solo"]),
    ]
    sections = values["sections"]
    ids = [section["id"] for section in sections]
    ids += [folder["id"] for section in sections for folder in section["folders"]]
    assert len(set(ids)) == len(ids) == 6  # anchors are unique


def test_over_the_limit_the_least_deep_pages_stay() -> None:
    entries = [Entry(f"{BASE}deep/{n:03}/page.html") for n in range(30)]
    entries += [Entry(f"{BASE}top-{n:02}.html") for n in range(8)]
    entries += [Entry(f"{BASE}mid/{n:02}.html") for n in range(8)]
    random.Random(7).shuffle(entries)
    collector = collect(entries, limit=12)
    assert collector.total == 46
    assert collector.omitted == 34
    kept = sorted(link.path for link in collector.links())
    assert kept == sorted(
        [f"/top-{n:02}.html" for n in range(8)] + [f"/mid/{n:02}.html" for n in range(4)]
    )
    # The same pages whatever order they came in: determinism.
    again = collect(sorted(entries), limit=12)
    assert sorted(link.loc for link in again.links()) == sorted(
        link.loc for link in collector.links()
    )


def test_depth_counts_below_a_base_url_in_a_folder() -> None:
    base = "https://example.github.io/project/"
    collector = collect([Entry(base + "a/b.html"), Entry(base), Entry(base + "c.html")], limit=2)
    assert sorted(link.path for link in collector.links()) == ["/project/", "/project/c.html"]


def test_memory_stays_bounded_however_many_entries_come() -> None:
    limit = 300
    collector = LinkCollector(BASE, limit)
    entries = (
        Entry(f"{BASE}section-{n % 97}/page-{n}.html", "2024-01-01", title="t" * 50)
        for n in range(15_000)
    )
    tracemalloc.start()
    try:
        for count, _ in enumerate(collector.watch(entries)):
            if count % 997 == 0:
                assert len(collector._links) <= limit + limit // 2 + 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_200_000  # what 450 links take, not 15,000 (some 5 MB)
    assert len(collector.links()) == limit
    assert collector.omitted == 14_700


@pytest.mark.parametrize(
    ("lastmod", "text"),
    [
        ("2024-05-01", "1 May 2024"),
        ("2024-01-09T00:00:00+00:00", "9 January 2024"),
        (None, None),
        ("2024-13-01", None),
        ("2024-5-1", None),
        ("", None),
    ],
)
def test_readable_dates(lastmod: str | None, text: str | None) -> None:
    assert readable_date(lastmod) == text
