"""Reducing a page line by line (fingerprint.linememo) gives the reduction of the whole page,
character for character: on generated markup full of constructs that run across lines, on hostile
pages, and against the reduction that reads every tag in order (regionselect.Structure)."""

from __future__ import annotations

import pickle
import re
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import timing
from htmlutil import text_of
from sitemill.lastmod.fingerprint import linememo, reduction
from sitemill.lastmod.fingerprint.digest import (
    FINGERPRINT_VERSION,
    LineMemo,
    fingerprint_html,
    reduce_html,
)

# Pages of any length read line by line (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("every_page_by_lines")


# The key of the main scope's lines in a memo (fingerprint.reduction).
SCOPE = (FINGERPRINT_VERSION, True)
SHARED = LineMemo()  # across examples too: lines of other pages are found in it

PIECES = st.sampled_from(
    [
        *("\n", "\n", "\n", "\r\n", " ", "text", "more words", "<", ">", "/", "=", '"', "'"),
        *("<main>", "</main>", "<MAIN class=x>", "<article>", "</article>", "<title>"),
        *("</title>", "<div role=main>", "<div>", "</div>", '<section role="main x">'),
        *("<span>", "</span>", "<code>", "<b", "<a href=", '<a href="/x', "</a>", "<a"),
        *("<img src=", "srcset='a.png 1x, b.png 2x'", "src=/i.png?v=2", "<source srcset="),
        *("<meta name=description content=", '"The page."', "<script>", "</script>"),
        *("<style>", "</style", "<!--", "-->", "<!doctype html>", "<?x", "&amp;", "&#10;"),
        *("&nbsp;", "&", "\x00", "\x01", "\x02", "\x03", "\xa0", "é", "\t", "<noscript>"),
        *("<template>", "</template>", "<main", "<article\n", "\n>", "href\n=\n'", "role="),
        *("\udcff", "\udce2\udc82", "\udcf0\udc9f\udc98", "\ufeff"),  # (bytes not UTF-8)
        # The furniture (fingerprint.regionselect), inside the region and out.
        *("<nav>", "</nav>", "<aside class=x>", "</aside>", "<header>", "</header>"),
        *("<footer>", "</footer>", "<div role=navigation>", "<p role='search'>", "</p>"),
        *("Last updated on 2024-01-02", "<a href=https://x/commit/1>", "<a href=./x/>"),
        # Elements with roles, read line by line too (fingerprint.rolemarkers).
        *("<div class=md-search role=search>", "<DIV Role='banner x'>", "</DIV>", "<Div>"),
        *("<ol role=navigation>", "</ol>", "<ol>", "<div=x role=contentinfo>", "</div="),
        *("<span role=search>", "<main role=main>", "<nav role=search>", "<p class=console>"),
        *('<a title="<div>">', "<img alt='</div>' src=/i.png>", '<div title="<p" role=search>'),
        *("<section role=complementary>", "</section>", "<section>", "<div\nrole=main>"),
    ]
)


def encoded(pieces: list[str]) -> bytes:
    return "".join(pieces).encode("utf-8", "surrogateescape")


def in_order(data: bytes, main: bool) -> str:
    """The oracle: every tag read in document order (as where a role=main element needs it),
    never a tag replaced on its own (flat_start, fingerprint.tagpass)."""
    with (
        mock.patch("sitemill.lastmod.fingerprint.regionselect.flat_start", return_value=None),
        mock.patch("sitemill.lastmod.fingerprint.reduction.first_pass", return_value=None),
    ):
        return reduce_html(data, main=main, memo=LineMemo())


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=120), st.booleans())
def test_line_by_line_is_the_whole_pages_reduction(pieces: list[str], main: bool) -> None:
    data = encoded(pieces)
    whole = reduce_html(data, main=main)
    assert reduce_html(data, main=main, memo=SHARED) == whole
    assert reduce_html(data, main=main, memo=LineMemo()) == whole
    assert in_order(data, main) == whole


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


@pytest.mark.parametrize("version", [FINGERPRINT_VERSION - 1, FINGERPRINT_VERSION])
def test_versions_of_a_page_share_their_lines(version: int) -> None:
    memo = LineMemo()
    for data in VERSIONS:
        by_lines = reduce_html(data, memo=memo, version=version)
        assert by_lines == reduce_html(data, version=version)
        assert version < FINGERPRINT_VERSION or by_lines == in_order(data, True)
    table = memo.tables((version, True))[0]
    assert b"<p>One.</p>" in table  # a closed line
    # (from version 9 a comment in text is gone before the lines are read)
    assert not any(b"<!--" in line for line in table)
    known = len(table)
    edited = VERSIONS[0].replace(b"<p>Three.</p>", b"<p>Three, edited.</p>")
    assert reduce_html(edited, memo=memo, version=version) == reduce_html(edited, version=version)
    assert len(table) == known + 1  # the one new line


def test_a_result_is_hashed_once_and_nothing_else_is_kept() -> None:
    memo, hashed = LineMemo(), []

    def digest(text: str) -> str:
        hashed.append(text)
        return f"#{len(hashed)}"

    memo.remember("key", result := "".join(["the page's ", "region"]))
    assert memo.digest(result, digest) == memo.digest(result, digest) == "#1"
    other = "".join(["the page's ", "region"])  # equal, but not the str results holds
    assert memo.digest(other, digest) == "#2" and memo.digest(other, digest) == "#3"
    assert memo._digests == {id(result): "#1"}  # (a page without a region is never kept)
    for number in range(300):  # results start over: their digests with them
        memo.remember(number, f"result {number}")
    assert len(memo._digests) == len(memo.results) < 300
    assert fingerprint_html(VERSIONS[0], memo=memo) == fingerprint_html(VERSIONS[0])


def test_a_page_with_roles_is_read_line_by_line() -> None:
    """Its elements with roles end where reading in order ends them (fingerprint.rolemarkers): the
    role=main region, its nested <div>s counted, and the search box inside it left out."""
    data = (
        b"<nav>Menu</nav>\n<div role=main>\n<div>Text</div>\n"
        b"<div class=s role=search>\n<div>Search</div>\n</div>\nMore\n</div>\n<footer>F</footer>"
    )
    memo = LineMemo()
    assert reduce_html(data, memo=memo) == reduce_html(data) == in_order(data, True)
    assert text_of(reduce_html(data, memo=memo)) == "Text More"
    assert b"<div role=main>" in memo.tables((FINGERPRINT_VERSION, True, ("div",)))[0]


def test_a_role_on_main_is_the_regions_and_two_mains_are_read_in_order() -> None:
    docsy = b"<main class=col role=main>\n<div>Text</div>\n</main>\n<footer>F</footer>"
    memo = LineMemo()
    assert reduce_html(docsy, memo=memo) == reduce_html(docsy) == in_order(docsy, True)
    assert text_of(reduce_html(docsy)) == "Text"
    assert b"<main class=col role=main>" in memo.tables(SCOPE)[0]
    two = b"<main>\n<main role=search>\nx\n</main>\ny\n</main>\n<div role=search>\n</div>"
    assert reduce_html(two, memo=memo) == reduce_html(two) == in_order(two, True)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\n\n\n", id="newlines only"),
        pytest.param(b"<p>no newline at the end</p>", id="one line"),
        pytest.param(b"<p>a</p>\r\n<p>b</p>\r\n", id="CRLF"),
        pytest.param(b"<script>\n" + b"x = 1;\n" * 200 + b"</script>\n<p>After.</p>", id="long"),
        pytest.param(b"<p>Text</p>\n<!--\n" + b"<p>hidden</p>\n" * 100, id="comment to the end"),
        pytest.param(b"<a href=\n/x>link</a>\n" * 50, id="a value after a newline"),
        pytest.param(b"<a title='\n\x02\" '0\x02\n'>t</a>\n", id="a separator in the text"),
        pytest.param(b"<p>caf\xc3\n\xa9 \xf0\x9f\n\x98</p>\n\xff\n", id="UTF-8 cut by newlines"),
        pytest.param(b"\xef\xbb\xbf<p>a\x01b\x02c\x03d</p>\n<main>m</main>", id="BOM, marks"),
    ],
)
def test_edges(data: bytes) -> None:
    memo = LineMemo()
    for _ in range(2):  # (the second time from the memo)
        assert reduce_html(data, memo=memo) == reduce_html(data) == in_order(data, True)


def test_ignored_text_is_left_out_first() -> None:
    ignore = (re.compile(r"Built on [0-9-]+"), re.compile("<p>Last.*?</p>", re.DOTALL))
    memo = LineMemo()
    for day in ("2024-01-02", "2024-01-03"):
        data = VERSIONS[0].replace(b"</main>", f"<p>Last\nBuilt on {day}</p></main>".encode())
        assert reduce_html(data, ignore, memo=memo) == reduce_html(data, ignore)
        assert "Built" not in reduce_html(data, ignore, memo=memo)


def test_it_starts_over_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linememo, "MEMO_CHARS", 2_000)
    memo = LineMemo()
    for number in range(50):
        data = page(f"<p>Page {number}.</p>|" * 10)
        assert reduce_html(data, memo=memo) == reduce_html(data)
    assert sum(map(len, memo.tables(SCOPE)[0])) < 2_000


def test_a_memo_pickles_empty() -> None:
    memo = LineMemo()
    reduce_html(VERSIONS[0], memo=memo)
    copy = pickle.loads(pickle.dumps(memo))
    assert memo.tables(SCOPE)[0] and not copy.tables(SCOPE)[0]
    assert len(pickle.dumps(memo)) < 200


def test_a_page_reduced_with_memos_sharing_pages_is_reduced_once() -> None:
    # (issue 79's cost) A run's fingerprint and its template pass reduce the same page with
    # LineMemos of their own; with one PageMemo between them, the second is the first's, and
    # the PageMemo holds the newest pages up to its bound and pickles empty.
    pages = linememo.PageMemo(limit=3 * len(reduce_html(VERSIONS[0])))
    first, second = LineMemo(pages), LineMemo(pages)
    with mock.patch.object(reduction, "reduce_markup", wraps=reduction.reduce_markup) as made:
        assert reduce_html(VERSIONS[0], memo=first) == reduce_html(VERSIONS[0], memo=second)
        assert made.call_count == 1
        for version in (*VERSIONS[1:], VERSIONS[0]):
            assert reduce_html(version, memo=second) == reduce_html(version)
    assert made.call_count == 1 + 2 * len(VERSIONS)  # (VERSIONS[0] pushed out, reduced again)
    assert pickle.loads(pickle.dumps(pages)).get(next(iter(pages._held))) is None


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
        return fingerprint_html(data, memo=LineMemo())

    # Eight times the input takes about eight times as long, 64 times if it were quadratic.
    assert timing.linear(reduce, line * (MB // 8 // len(line)), line * (MB // len(line)), 20)


def test_a_page_of_a_few_lines_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reduction, "_MEMO_LINES", 8)
    memo = LineMemo()
    stub = b"<!doctype html>\n<html><head><title>Moved</title></head><body><p>See <a href=/b>b</a>."
    minified = VERSIONS[0].replace(b"\n", b" ")

    for data in (stub, minified):
        assert reduce_html(data, memo=memo) == reduce_html(data) == in_order(data, True)
    assert not memo.tables(SCOPE)[0]  # nothing for the memo: no line of theirs recurs
    assert reduce_html(VERSIONS[0], memo=memo) == reduce_html(VERSIONS[0])
    assert memo.tables(SCOPE)[0]  # (a page of lines is read line by line)
