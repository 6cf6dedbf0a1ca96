"""fingerprint.orderedpass: a page read in order by one split, the Structure told only the tags that
can change its answers, is what NOT_TEXT.sub with a call per tag makes of it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from test_tagpass import TAG_PIECES

from sitemill.lastmod.fingerprint import regionselect
from sitemill.lastmod.fingerprint.orderedpass import in_order
from sitemill.lastmod.fingerprint.taggrammar import NOT_TEXT

ROLE_PIECES = st.sampled_from(
    [
        *("<div role=search>", "<DIV Role='navigation x'>", "</div>", "</DIV >", "<div>"),
        *("<section role=main>", "</section>", "<section>", "<div=x role=banner>", "</div="),
        *("<span role=search>", "</span>", "<main role=navigation>", "</main>", "<main>"),
        *("<nav role=main>", "</nav>", "<article role=complementary>", "</article>"),
        *("<p class=console>", "<console role=main>", "</console>", "<Div>", "</dIv>"),
        *("<!-- <div role=search> -->", "<script><div role=main></script>", "<aside>"),
        *("<header role=banner>", "</header>", "<footer>", "</footer>", "<Maın role=main>"),
    ]
)


def by_calls(text: str) -> str:
    """NOT_TEXT.sub with a call per tag, the Structure told each one in order."""
    structure = regionselect.Structure()

    def told(found: re.Match[str]) -> str:
        if found.start("inline") >= 0:
            return ""
        if found["start"] is not None:
            return structure.start(found["start"].lower(), found[0])
        return " " if found["end"] is None else structure.end(found["end"].lower())

    return NOT_TEXT.sub(told, text)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(TAG_PIECES, ROLE_PIECES), max_size=80))
def test_one_split_tells_the_structure_what_a_call_per_tag_does(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert in_order(text) == by_calls(text)


def test_a_furniture_element_ends_at_its_own_end_tag() -> None:
    text = "<div role=search><div>a</div>b</div>c<main>d</main><main>e</main>"
    assert in_order(text) == by_calls(text)
    assert in_order(text).count("\x02L\x03") == 1
