"""What no reader sees is no content: elements hidden by an attribute or an inline style."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint.digest import fingerprint_html
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION

URL = "https://docs.example.org/guide/"


def page(extra: str) -> bytes:
    return (
        "<html><head><title>Guide | Docs</title></head><body><main><h1>Guide</h1>\n"
        "<p>Install the tool, then run it on your folder.</p>\n"
        f"{extra}\n<p>That is all.</p></main></body></html>"
    ).encode()


def fingerprint(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
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


def _place_by_place(data: bytes) -> bytes:
    """leave_out_hidden as fingerprint version 7 first read it: every place of each word judged
    in the start tag opened before it (the oracle of the reading that judges each stretch once)."""
    from sitemill.lastmod.fingerprint import reduction
    from sitemill.lastmod.fingerprint._comments import in_code

    lowered = data.lower()
    places = sorted(
        at.start()
        for word in (b"hidden", b"display", b"visibility")
        for at in re.finditer(re.escape(word), lowered)
    )
    pieces: list[bytes] = []
    done = 0
    for place in places:
        if place < done:
            continue
        opening = data.rfind(b"<", done, place)
        tag = reduction._START_TAG.match(data, opening) if opening >= 0 else None
        if (
            tag is None
            or tag.end() <= place
            or not reduction._hides(tag[2])
            or in_code(lowered, opening)
        ):
            continue
        name = tag[1].lower()
        end = tag.end() if name in reduction._VOID else reduction._closing(data, name, tag.end())
        pieces += (data[done : tag.start()], b" ")
        done = end
    return b"".join([*pieces, data[done:]]) if pieces else data


_FRAGMENTS = [
    "<div",
    "<DIV",
    "<p",
    "</div>",
    "</p>",
    "<img",
    "<a href='x<y'",
    " hidden",
    " HIDDEN",
    "=until-found",
    "='until-found'",
    " style='display:none'",
    ' style="visibility: hidden"',
    " class='hidden display'",
    " display",
    "visibility",
    ">",
    "<",
    "text ",
    "<!--",
    "-->",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "hiddenhidden",
    "\n",
    "/",
    "=",
    "'",
    '"',
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40))
def test_each_stretch_judged_once_cuts_what_each_place_judged_did(parts: list[str]) -> None:
    """(issue 79's cost) Judging each stretch between two "<" once, and each start tag's
    attributes once a process, cuts the same bytes as judging every place of every word."""
    from sitemill.lastmod.fingerprint.reduction import leave_out_hidden

    data = "".join(parts).encode()
    assert leave_out_hidden(data) == _place_by_place(data)


def test_a_tag_or_a_style_block_full_of_the_words_is_judged_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(issue 79's cost) The words hidden, display and visibility standing many times in one
    start tag (a utility-class theme's) or in a CSS block cost one judgement of the tag, and a
    template's tags are judged once for all its pages: the work grows with the tags, not the
    words."""
    from sitemill.lastmod.fingerprint import reduction

    judged: list[bytes] = []
    real = reduction._hides

    def counted(attributes: bytes) -> bool:
        judged.append(attributes)
        return real(attributes)

    monkeypatch.setattr(reduction, "_hides", counted)
    monkeypatch.setattr(reduction, "_JUDGED", {}, raising=False)
    words = " ".join(["hidden-sm md:block display-flex visibility-x"] * 50)
    css = "\n".join(f".c{n} {{ display: none; visibility: hidden }}" for n in range(200))
    pages = [
        page(f"<style>{css}</style><div class='{words}'>Menu {n}</div>").replace(
            b"<main>", b"<main class='hidden-print display'>"
        )
        for n in range(10)
    ]
    prints = {fingerprint(data) for data in pages}
    assert len(prints) == 10
    assert len(judged) == 2  # (the <div> and the <main>, each once for the ten pages)
