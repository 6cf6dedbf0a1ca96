"""A page read twice in one run is reduced once (digest.PageMemo), the same reduction; and what the
one reading of a page (the whole page, its tags told in order: reduction.in_order) makes of
elements with roles, of ignored text and of hostile lines. (The reading line by line with a memo
of each line, which these tests compared with it, was retired by issue 80: 1.19x at full size.)"""

from __future__ import annotations

import pickle
import re
from unittest import mock

import pytest

import timing
from htmlutil import text_of
from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint.digest import (
    FINGERPRINT_VERSION,
    PageMemo,
    fingerprint_html,
    reduce_html,
)


def page(article: str, footer: str = "2024", script: str = "var a = 1;") -> bytes:
    lines = [
        "<!doctype html><html><head><title>A page</title>",
        '<meta name="description"',
        '      content="What it says.">',
        f"<script>\n{script}\nif (a < b) {{ a = '</p>' }}\n</script>",
        "</head><body><nav><a href=/>Home</a>",
        '<a href="/docs/"',
        ">Docs</a></nav><main>",
        "<!-- a comment",
        "over two lines -->",
        *article.split("|"),
        f"</main><footer>© {footer}</footer></body></html>",
    ]
    return "\n".join(lines).encode()


VERSIONS = [
    page("<p>One.</p>|<p>Two <a href='/t'>links</a>.</p>|<p>Three.</p>"),
    page("<p>One.</p>|<p>Two <a href='/t'>links</a>.</p>|<p>Three.</p>", footer="2025"),
    page("<p>One.</p>|<p>Two, edited.</p>|<p>Three.</p>", script="var a = 2;"),
    page("<p>One.</p>|<p>Two <a\nhref='/t'>links</a>.</p>|<p>Three.</p>"),
]


def test_a_page_with_roles_ends_them_where_reading_in_order_does() -> None:
    # The role=main region, its nested <div>s counted, and the search box inside it left out.
    data = (
        b"<nav>Menu</nav>\n<div role=main>\n<div>Text</div>\n"
        b"<div class=s role=search>\n<div>Search</div>\n</div>\nMore\n</div>\n<footer>F</footer>"
    )
    assert text_of(reduce_html(data, memo=PageMemo())) == text_of(reduce_html(data)) == "Text More"


def test_a_role_on_main_is_the_regions() -> None:
    docsy = b"<main class=col role=main>\n<div>Text</div>\n</main>\n<footer>F</footer>"
    assert text_of(reduce_html(docsy)) == "Text"


def test_a_material_page_is_its_article() -> None:
    # Material for MkDocs' search box has role=search (dialog is no role of ours).
    material = (
        b"<header><div class=md-search role=dialog>\n"
        b'<div class="md-search__inner" role="search">\n<form><input></form>\n'
        b"<div class=md-search-result>\n<ol role=presentation></ol>\n</div>\n</div>\n</div>"
        b"</header>\n<main class=md-main><div class=md-content><article class=md-content__inner>"
        b"\n<h1>Logger</h1>\n<p>Text.</p>\n</article></div></main>\n"
    )
    assert text_of(reduce_html(material)) == "Logger Text."
    edited = material.replace(b"<p>Text.</p>", b"<p>Text, edited.</p>")
    assert text_of(reduce_html(edited)) == "Logger Text, edited."


def test_a_furniture_element_ends_at_its_own_end_tag() -> None:
    text = "<div role=search><div>a</div>b</div>c<main>d</main><main>e</main>"
    assert reduction.in_order(text, FINGERPRINT_VERSION).count("\x02L\x03") == 1


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\n\n\n", id="newlines only"),
        pytest.param(b"<p>no newline at the end</p>", id="one line"),
        pytest.param(b"<p>a</p>\r\n<p>b</p>\r\n", id="CRLF"),
        pytest.param(b"<p>Text</p>\n<!--\n" + b"<p>hidden</p>\n" * 100, id="comment to the end"),
        pytest.param(b"<p>caf\xc3\n\xa9 \xf0\x9f\n\x98</p>\n\xff\n", id="UTF-8 cut by newlines"),
        pytest.param(b"\xef\xbb\xbf<p>a\x01b\x02c\x03d</p>\n<main>m</main>", id="BOM, marks"),
    ],
)
def test_edges(data: bytes) -> None:
    memo = PageMemo()
    for _ in range(2):  # (the second time from the memo)
        assert reduce_html(data, memo=memo) == reduce_html(data)


def test_ignored_text_is_left_out_first() -> None:
    ignore = (re.compile(r"Built on [0-9-]+"), re.compile("<p>Last.*?</p>", re.DOTALL))
    memo = PageMemo()
    for day in ("2024-01-02", "2024-01-03"):
        data = VERSIONS[0].replace(b"</main>", f"<p>Last\nBuilt on {day}</p></main>".encode())
        assert reduce_html(data, ignore, memo=memo) == reduce_html(data, ignore)
        assert "Built" not in reduce_html(data, ignore, memo=memo)


def test_a_page_read_twice_with_one_memo_is_reduced_once() -> None:
    # (issue 79's cost) A run's fingerprint and its template pass reduce the same page; with one
    # PageMemo between them, the second is the first's, and the PageMemo holds the newest pages
    # up to its bound and pickles empty.
    pages = PageMemo(limit=3 * len(reduce_html(VERSIONS[0])))
    with mock.patch.object(reduction, "reduce_markup", wraps=reduction.reduce_markup) as made:
        assert reduce_html(VERSIONS[0], memo=pages) == reduce_html(VERSIONS[0], memo=pages)
        assert made.call_count == 1
        for version in (*VERSIONS[1:], VERSIONS[0]):
            assert reduce_html(version, memo=pages) == reduce_html(version)
    assert made.call_count == 1 + 2 * len(VERSIONS)  # (VERSIONS[0] pushed out, reduced again)
    assert pickle.loads(pickle.dumps(pages)).get(next(iter(pages._held))) is None
    assert len(pickle.dumps(pages)) < 200


MB = 1024 * 1024


@pytest.mark.parametrize(
    "line",
    [
        *(b"<script\n", b"<!--\n", b'<a href="\n', b"<p>text</p>\n", b"<div\n class=x>\n"),
        *(b"<main>\n", b"<div role=main>\n"),
    ],
    ids=["script", "comment", "quote", "closed", "tag over two lines", "main", "role=main"],
)
def test_hostile_lines_take_linear_time(line: bytes) -> None:
    def reduce(data: bytes) -> str:
        return fingerprint_html(data, memo=PageMemo())

    # Eight times the input takes about eight times as long, 64 times if it were quadratic.
    assert timing.linear(reduce, line * (MB // 8 // len(line)), line * (MB // len(line)), 20)
