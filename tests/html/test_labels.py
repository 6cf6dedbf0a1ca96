"""A page's meta description and og:site_name, read with its title (llms.txt shows them)."""

from __future__ import annotations

import pytest

from sitemill.html.facts import read_page_facts
from sitemill.html.title import MAX_LABEL_CHARS

HEAD = "<!doctype html><html><head><title>T</title>{}</head><body><p>x</p>"


@pytest.mark.parametrize(
    ("meta", "description", "site_name"),
    [
        ('<meta name="description" content="A  page\n about &amp; X">', "A page about & X", ""),
        ('<meta name="Description" content=" Caps ">', "Caps", ""),
        ('<meta property="og:site_name" content="My Site">', "", "My Site"),
        ('<meta name="og:site_name" content="Named">', "", "Named"),  # (as some themes write it)
        ('<meta name="description" content="">', "", ""),
        (
            '<meta name="description" content="first"><meta name="description" content="second">',
            "first",
            "",
        ),
        ('<meta property="og:description" content="not the meta description">', "", ""),
        ("", "", ""),
    ],
)
def test_the_labels_are_read_with_the_title(meta: str, description: str, site_name: str) -> None:
    facts = read_page_facts(HEAD.format(meta).encode(), titles=True)
    assert (facts.description, facts.site_name) == (description, site_name)


def test_without_titles_nothing_of_them_is_read() -> None:
    meta = '<meta name="description" content="d"><meta property="og:site_name" content="s">'
    facts = read_page_facts(HEAD.format(meta).encode())
    assert (facts.title, facts.description, facts.site_name) == (None, None, None)


def test_a_long_description_is_kept_short() -> None:
    meta = f'<meta name="description" content="{"word " * 400}">'
    description = read_page_facts(HEAD.format(meta).encode(), titles=True).description
    assert description is not None and len(description) == MAX_LABEL_CHARS
    assert description.endswith("\u2026")


def test_a_description_in_the_body_is_not_the_heads() -> None:
    data = b'<!doctype html><title>T</title><p>text</p><meta name="description" content="late">'
    assert read_page_facts(data, titles=True).description == ""
