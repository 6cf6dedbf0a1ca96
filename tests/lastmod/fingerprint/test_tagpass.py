"""The first pass by one split (fingerprint.tagpass) is the first pass by a Python call per tag
(NOT_TEXT.sub with reduction._flat_main or _flat_body), character for character: on generated
markup, on tags whose names are odd (any case, non-ASCII, "=" right after them), and where an
element has role=main or a furniture role (first_pass leaves the page to the caller)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint.taggrammar import NOT_TEXT, TAGS_PATTERN
from sitemill.lastmod.fingerprint.tagpass import first_pass

TAG_PIECES = st.sampled_from(
    [
        *("<", ">", "/", "=", '"', "'", " ", "\n", "\t", "x", "text", "é", "\x00", "-"),
        *("<p>", "</p>", "<P class=x>", "<span>", "</SPAN>", "<Span=x>", "</span=", "<s>"),
        *("<code", "<b", "</b>", "<kbd>", "<a href=/x>", "</a>", "</A >", "<a=x>", "</a=x>"),
        *("<img src=i>", "<meta name=x>", "<main>", "</main>", "<MAIN class=x>", "<main="),
        *("<maın>", "<ſpan>", "<Main\n>", "<article>", "</Article>", "<title>", "</title"),
        *("<div role=main>", "<div class=console ROLE='main'>", '<section role="main x">'),
        *("<script>", "</script>", "<style>", "</style", "<noscript>", "<template>", "</ x>"),
        *("<!--", "-->", "<!doctype html>", "<?x", "</>", '<p title=">">', "<p = '>'>"),
        *("<my-element>", "</my-element>", "<h1>", "<x:y>", "<p==x>", '<p= "a>b">', "<1>"),
        *("role", "ole", "whole", "<span role=main>", '<tr role="main">', "<main role=x>"),
        # The furniture (fingerprint.regionselect).
        *("<nav>", "</NAV>", "<aside class=x>", "</aside>", "<Header>", "</header>", "<footer"),
        *("</footer>", "<nav=x>", "<div role=navigation>", "<p role='search x'>", "role=banner"),
    ]
)


def by_calls(text: str, main: bool) -> str | None:
    """The first pass with a Python call per tag; None where it reads the page in order."""
    try:
        return NOT_TEXT.sub(reduction._flat_main if main else reduction._flat_body, text)
    except reduction._InOrder:
        return None


@settings(max_examples=600, deadline=None)
@given(st.lists(TAG_PIECES, max_size=80), st.booleans())
def test_one_split_is_a_call_per_tag(pieces: list[str], main: bool) -> None:
    text = "".join(pieces)
    expected = by_calls(text, main)
    found = first_pass(text, main=main)
    if found is None:  # (role=main, maybe: the caller's pass decides)
        assert main and re.search("(?i)role", text)
    else:
        assert found == expected


def test_the_same_matches_as_not_text() -> None:
    text = '<p class="a">One <span>two</span></p><!-- c --><script>x<y</script><P=x>\n<a href=/>'
    tags = re.compile(TAGS_PATTERN, re.VERBOSE)
    assert [m.span() for m in tags.finditer(text)] == [m.span() for m in NOT_TEXT.finditer(text)]


@pytest.mark.parametrize(
    ("text", "main", "expected"),
    [
        pytest.param("a<span>b</span>c", True, "abc", id="inline"),
        pytest.param("a<SPAN>b</Span>c", True, "abc", id="inline in capitals"),
        pytest.param("a<span=x>b", True, "a b", id="inline with = after its name"),
        pytest.param("<main>x</main>", True, "\x02m\x03x\x02M\x03", id="main"),
        pytest.param("<MAIN>x</MAIN >", True, "\x02m\x03x\x02M\x03", id="main in capitals"),
        pytest.param("<main=1>x", True, "\x02m\x03x", id="main with = after its name"),
        pytest.param("<main>x</main>", False, " x ", id="main, body scope"),
        pytest.param("<maın>x", True, " x", id="a name that is not ASCII"),
        pytest.param("<div role=main>x</div>", True, None, id="role=main"),
        pytest.param("<div role=main>x</div>", False, " x ", id="role=main, body scope"),
        pytest.param("the whole role of it<p>", True, "the whole role of it ", id="role as text"),
    ],
)
def test_cases(text: str, main: bool, expected: str | None) -> None:
    assert first_pass(text, main=main) == expected
    if expected is not None:
        assert by_calls(text, main) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("<nav>x</NAV>", "\x02n\x03x\x02N\x03", id="nav"),
        pytest.param("<HEADER>x</footer>", "\x02h\x03x\x02F\x03", id="header, footer"),
        pytest.param("<aside=1>x", "\x02x\x03x", id="aside with = after its name"),
        pytest.param("<div role=navigation>x</div>", None, id="a furniture role"),
        pytest.param("<div role=main>x</div>", None, id="role=main"),
    ],
)
def test_furniture_cases(text: str, expected: str | None) -> None:
    assert first_pass(text, main=True) == by_calls(text, True) == expected
