"""A title read by its parts (fingerprint version 5: fingerprint.titleparts)."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint._titleparts import title_parts
from sitemill.lastmod.fingerprint.digest import fingerprint_html


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # Quarto 1.5 reordered its title template.
        ("Book - 1 What is accessibility?", "1 What is accessibility? – Book"),
        ("Post | Blog", "Blog · Post"),
        ("Guide :: Docs", "Docs — Guide"),
    ],
)
def test_parts_that_move_or_change_separator_are_one_title(before: str, after: str) -> None:
    assert title_parts(before) == title_parts(after)
    page = "<title>{}</title><main><p>Body.</p></main>"
    old, new = page.format(before).encode(), page.format(after).encode()
    assert fingerprint_html(old) == fingerprint_html(new)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Book - 1 What is accessibility?", "Book - 1 What is usability?"),
        ("Post | Blog", "Post | Blog | Archive"),
        ("Post", "Post - Blog"),
        # A hyphen inside a word or without spaces around it separates nothing.
        ("Set-up guide", "guide Set-up"),
    ],
)
def test_a_part_added_dropped_or_reworded_moves_it(before: str, after: str) -> None:
    assert title_parts(before) != title_parts(after)


def test_a_title_without_a_separator_is_as_written() -> None:
    assert title_parts("Getting started & more") == "Getting started & more"
    assert title_parts("A - B") == "A | B" == title_parts("B – A")
