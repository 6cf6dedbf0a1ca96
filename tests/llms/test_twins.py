"""A page's Markdown twin: its name as llmstxt.org proposes it, its bytes, sitemill's mark."""

from __future__ import annotations

import pytest

from sitemill.llms.conversion import PageMarkdown
from sitemill.llms.ownership import written_by_sitemill
from sitemill.llms.page import LlmsPage
from sitemill.llms.twins import twin_bytes, twin_name


@pytest.mark.parametrize(
    ("url", "base", "name"),
    [
        ("https://e.org/guide/", "https://e.org/", "guide/index.html.md"),
        ("https://e.org/guide.html", "https://e.org/", "guide.html.md"),
        ("https://e.org/guide", "https://e.org/", "guide.md"),
        ("https://e.org/", "https://e.org/", "index.html.md"),
        ("https://e.org/docs/", "https://e.org/docs/", "index.html.md"),
        ("https://e.org/docs/a%20b/", "https://e.org/docs/", "a b/index.html.md"),
        ("https://e.org/docs/x.html?q=1", "https://e.org/docs/", "x.html.md"),
        ("https://other.org/guide/", "https://e.org/", None),
        ("https://e.org/elsewhere/", "https://e.org/docs/", None),
    ],
)
def test_twin_names(url: str, base: str, name: str | None) -> None:
    assert twin_name(url, base) == name


def test_twin_bytes_are_the_title_the_mark_and_the_markdown() -> None:
    page = PageMarkdown(LlmsPage("https://e.org/guide/", "Guide"), "# Guide\n\nWords.\n")
    data = twin_bytes(page)
    assert data == (
        b"# Guide\n\n<!-- Written by sitemill from the pages its sitemap lists. -->\n\n"
        b"## Guide\n\nWords.\n"
    )
    assert written_by_sitemill(data)
    assert not written_by_sitemill(b"# Guide\n\nA twin the user wrote.\n")


def test_a_twin_without_markdown_is_its_head() -> None:
    data = twin_bytes(PageMarkdown(LlmsPage("https://e.org/x/"), ""))
    assert data.startswith(b"# https://e.org/x/\n\n<!--") and data.endswith(b"-->\n")
