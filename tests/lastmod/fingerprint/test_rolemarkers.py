"""fingerprint.rolemarkers: a page whose elements have roles is read line by line, its role elements
ending where reading in order ends them; where that cannot hold, it is read in order. (The
property test is tests/lastmod/fingerprint/test_linememo.py's, whose pieces hold roles.)"""

from __future__ import annotations

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint import rolemarkers
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, LineMemo, reduce_html

MATERIAL = (
    b"<header><div class=md-search role=dialog>\n"
    b'<div class="md-search__inner" role="search">\n<form><input></form>\n'
    b"<div class=md-search-result>\n<ol role=presentation></ol>\n</div>\n</div>\n</div></header>\n"
    b"<main class=md-main><div class=md-content><article class=md-content__inner>\n"
    b"<h1>Logger</h1>\n<p>Text.</p>\n</article></div></main>\n"
)


@pytest.mark.parametrize(
    ("page", "names"),
    [
        pytest.param(MATERIAL, ("div",), id="Material: the search box (dialog is no role of ours)"),
        pytest.param(b"<div id=main role=main>x</div>", ("div",), id="role=main"),
        pytest.param(b"<NAV role=navigation><Section ROLE=banner>", ("section",), id="cases"),
        pytest.param(b"<span role=search><p class=console>", (), id="inline, no role"),
        pytest.param(b"<main role=main><main role=search>", (), id="main: the region's"),
    ],
)
def test_role_names(page: bytes, names: tuple[str, ...]) -> None:
    assert rolemarkers.role_names(page) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('<div title="<p" role=search>x</div>', id="a name a quoted < hides"),
        pytest.param('<a title="<div>">link</a>', id="a marker inside a link's tag"),
        pytest.param("<img alt='</div>' src=/i.png>", id="inside an image's tag"),
        pytest.param("<source srcset=</a><div role=search>x", id="after a link end's mark"),
    ],
)
def test_where_markers_cannot_stand_the_page_is_read_in_order(text: str) -> None:
    names = rolemarkers.role_names(text.encode()) or ("div",)
    with pytest.raises(rolemarkers.IN_ORDER):
        rolemarkers.first_pass_with_roles(names, text)
    data = (text + "\n<p>after</p>\n" * 3).encode()
    assert reduce_html(data, memo=LineMemo()) == reduce_html(data)


def test_a_material_page_is_its_article_and_shares_its_lines() -> None:
    memo = LineMemo()
    assert reduce_html(MATERIAL, memo=memo) == reduce_html(MATERIAL)
    assert text_of(reduce_html(MATERIAL)) == "Logger Text."
    table = memo.tables((FINGERPRINT_VERSION, True, ("div",)))[0]
    assert b'<div class="md-search__inner" role="search">' in table
    edited = MATERIAL.replace(b"<p>Text.</p>", b"<p>Text, edited.</p>")
    known = len(table)
    assert reduce_html(edited, memo=memo) == reduce_html(edited)
    assert text_of(reduce_html(edited)) == "Logger Text, edited."
    assert len(table) == known + 1  # the one new line


def test_markers_resolve_as_the_structure_answers() -> None:
    names = ("div",)
    first = rolemarkers.first_pass_with_roles(
        names, "<div role=search><div>a</div>b</div>c<div>d</div>"
    )
    assert "\x02\x05F0\x03" in first and first.count("\x02\x05e0\x03") == 3
    assert rolemarkers.resolve_roles(names, first) == "\x02l\x03 a b\x02L\x03c d "
