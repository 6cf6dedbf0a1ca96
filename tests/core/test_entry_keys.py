"""Every entry carries where its source found the page (what shard boundaries are laid over);
the key is never written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sitemill import pipeline
from sitemill.config.model import LastmodMode, load_config
from sitemill.entries import Entry, Page
from sitemill.sinks import MemorySink


def test_entries_carry_the_path_they_were_found_at(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str | None]] = []
    real = pipeline.write_sitemaps

    def watch(entries: Iterator[Entry]) -> Iterator[Entry]:
        for entry in entries:
            seen.append((entry.loc, entry.key))
            yield entry

    def spy(entries: Iterator[Entry], *args: Any, **kwargs: Any) -> Any:
        return real(watch(entries), *args, **kwargs)

    monkeypatch.setattr(pipeline, "write_sitemaps", spy)
    config = load_config({"base_url": "https://example.com/", "images": True})
    sink = MemorySink()
    pages = iter([Page("docs/index.html"), Page("a b.html")])
    site = pipeline.SiteInputs(robots=None, read_facts=None, lastmod=LastmodMode.NONE)
    pipeline.build_from_pages(config, pages, sink, site)
    assert seen == [
        ("https://example.com/docs/", "docs/index.html"),
        ("https://example.com/a%20b.html", "a b.html"),
    ]
    assert b"docs/index.html" not in sink.files["sitemap.xml"]
