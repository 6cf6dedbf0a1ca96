"""A page version whose furniture alone changed reduces to the text of the version before it,
taken from the LineMemo (fingerprint.regionkey); whatever the reduction reads keeps its key
apart."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import LineMemo, reduce_html
from sitemill.lastmod.fingerprint.linememo import Lines
from sitemill.lastmod.fingerprint.regionkey import region_key

# Pages of any length read line by line (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("every_page_by_lines")


def page(
    *,
    nav: str = "Home",
    footer: str = "2024",
    title: str = "Guide",
    description: str = "The guide.",
    article: str = "Text.",
) -> bytes:
    return "\n".join(
        [
            f"<html><head><title>{title}</title>",
            f'<meta name="description" content="{description}">',
            f"</head><body><nav><a href=/>{nav}</a></nav>",
            f"<main><h1>Guide</h1>\n<p>{article}</p>\n</main>",
            f"<footer>© {footer}</footer></body></html>",
        ]
    ).encode()


def test_furniture_changes_reuse_the_reduction() -> None:
    memo = LineMemo()
    first = reduce_html(page(), memo=memo)
    assert len(memo.results) == 1
    for furniture in (page(nav="Home Blog"), page(footer="2025"), page(nav="x", footer="y")):
        assert reduce_html(furniture, memo=memo) == first == reduce_html(furniture)
    assert len(memo.results) == 1  # each one found the first


@pytest.mark.parametrize(
    "changed",
    [
        pytest.param(page(title="Guide 2"), id="title"),
        pytest.param(page(description="Another."), id="description"),
        pytest.param(page(article="Text, edited."), id="article"),
        pytest.param(page(article="Text.</p>\n<p>More."), id="a line more in the region"),
    ],
)
def test_what_the_reduction_reads_is_not_furniture(changed: bytes) -> None:
    memo = LineMemo()
    first = reduce_html(page(), memo=memo)
    assert reduce_html(changed, memo=memo) == reduce_html(changed) != first
    assert len(memo.results) == 2


def test_a_title_over_lines_is_read_whole() -> None:
    memo = LineMemo()
    for title in ("\nA\n", "\nB\n"):
        data = page(title=title)
        assert reduce_html(data, memo=memo) == reduce_html(data)
    assert reduce_html(page(title="\nA\n"), memo=memo) != reduce_html(page(title="\nB\n"))


@pytest.mark.parametrize(
    "notes",
    ["", "tT", "tTs", "tTse", "sese", "ss", "es", "tTtTse", "Tts"],
)
def test_a_key_only_for_one_region_and_one_title(notes: str) -> None:
    lines = Lines(["a\n", "b\n"], [None, None], "c", notes)
    key = region_key(lines, notes)
    assert (key is not None) == (notes in ("tTs", "tTse"))
