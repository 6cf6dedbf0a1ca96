"""What no reader sees is no content: elements hidden by an attribute or an inline style."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import fingerprint_html

URL = "https://docs.example.org/guide/"


def page(extra: str) -> bytes:
    return (
        "<html><head><title>Guide | Docs</title></head><body><main><h1>Guide</h1>\n"
        "<p>Install the tool, then run it on your folder.</p>\n"
        f"{extra}\n<p>That is all.</p></main></body></html>"
    ).encode()


def fingerprint(data: bytes, version: int = 7) -> str:
    return fingerprint_html(data, version=version, url=URL)


@pytest.mark.parametrize(
    "hidden",
    [
        "<div hidden><p>Search results for {query}</p><a href=/old/>old</a></div>",
        "<div hidden=''><div><p>nested</p></div><p>more</p></div>",
        '<section style="display: none"><p>A collapsed copy of the menu</p></section>',
        "<span style='color:red;visibility:hidden'>counter 12</span>",
        "<img hidden src=/pixel.gif>",
    ],
)
def test_a_hidden_element_is_no_content(hidden: str) -> None:
    assert fingerprint(page(hidden)) == fingerprint(page(""))


@pytest.mark.parametrize(
    "shown",
    [
        "<div hidden=until-found><p>An answer a find in the page shows</p></div>",
        "<div aria-hidden=true><p>Words the eye reads</p></div>",
        '<div style="display: block"><p>Shown</p></div>',
        "<script>var t = '<div hidden>';</script><p>Shown after a script</p>",
    ],
)
def test_what_a_reader_sees_still_counts(shown: str) -> None:
    assert fingerprint(page(shown)) != fingerprint(page(""))


def test_text_after_a_hidden_element_counts() -> None:
    hidden = "<div hidden><p>gone</p></div>"
    assert fingerprint(page(hidden + "<p>kept</p>")) != fingerprint(page(hidden))


def test_version_6_reads_hidden_elements_as_before() -> None:
    hidden = "<div hidden><p>Search results</p></div>"
    assert fingerprint(page(hidden), version=6) != fingerprint(page(""), version=6)
