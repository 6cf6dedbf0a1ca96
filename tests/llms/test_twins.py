"""A page's Markdown twin: its name as llmstxt.org proposes it, its bytes, sitemill's mark."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from sitemill.filenames.outputs import twin_url
from sitemill.llms._markdownfiles import twin_bytes, twin_name
from sitemill.llms._ownership import has_mark_line
from sitemill.llms.conversion import PageMarkdown
from sitemill.llms.page import LlmsPage


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
    assert has_mark_line(data)
    assert not has_mark_line(b"# Guide\n\nA twin the user wrote.\n")


def test_a_twin_without_markdown_is_its_head() -> None:
    data = twin_bytes(PageMarkdown(LlmsPage("https://e.org/x/"), ""))
    assert data.startswith(b"# https://e.org/x/\n\n<!--") and data.endswith(b"-->\n")


@pytest.mark.parametrize(
    "path", ["", "guide/", "guide.html", "guide", "a/b/", "caf%C3%A9/x.html", "a%20b/"]
)
def test_a_twins_name_is_where_check_asks_for_it(path: str) -> None:
    """The file a run writes (twin_name) is the one `sitemill check` asks (twin_url)."""
    base = "https://example.org/docs/"
    name = twin_name(base + path, base)
    assert name is not None
    assert unquote(twin_url(base + path)) == unquote(base) + name
