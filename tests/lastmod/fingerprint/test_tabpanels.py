"""A tab panel is content however it is hidden (fingerprint version 8): a reader sees each tab's
panel by choosing its tab, as a find in the page shows ``hidden=until-found``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint.digest import fingerprint_html, fingerprint_html_reduced
from sitemill.lastmod.fingerprint.versions import EARLIER_VERSIONS, FINGERPRINT_VERSION

URL = "https://docs.example.org/install/"
FIXTURES = Path(__file__).parent.parent / "fixtures"
ANSWER_URL = "https://answer.apache.org/docs/installation/"
# The oldest version still computable (10): a rule of version 8 holds in every one (8 and 9 are no
# longer computable: issue 80).
OLDEST = min(EARLIER_VERSIONS)


def page(binary: str, panel: str = '<div role="tabpanel" class="tabItem_s4ch" hidden="">') -> bytes:
    """A Docusaurus page of two tabs: the first shown, the second's panel hidden."""
    return (
        "<html><head><title>Installation | Docs</title></head><body><main><h1>Installation</h1>"
        '<div class="tabs-container"><ul role="tablist"><li role="tab">Docker</li>'
        '<li role="tab">Binary</li></ul><div class="margin-top--md">'
        '<div role="tabpanel" class="tabItem_s4ch"><p>Run the image with docker run.</p></div>'
        f"{panel}<p>{binary}</p></div></div></div><p>That is all.</p></main></body></html>"
    ).encode()


def fingerprint(data: bytes, version: int) -> str:
    return fingerprint_html(data, version=version, url=URL)


@pytest.mark.parametrize(
    "panel",
    [
        '<div role="tabpanel" class="tabItem_s4ch" hidden="">',
        "<div ROLE='TabPanel' hidden>",
        '<div role="region tabpanel" hidden>',
        '<div role=tabpanel style="display: none">',
        "<div style='visibility:hidden' role='tabpanel'>",
    ],
)
def test_an_edit_inside_a_hidden_tab_panel_moves_version_8_on(panel: str) -> None:
    # (version 7, which read it as no content, is no longer computable: version 10, issue 79)
    before = page("Download the binary, then run ./answer init.", panel)
    after = page("Download the binary, then run ./answer init -C ./answer-data/.", panel)
    assert fingerprint(before, OLDEST) != fingerprint(after, OLDEST)
    assert fingerprint(before, FINGERPRINT_VERSION) != fingerprint(after, FINGERPRINT_VERSION)


@pytest.mark.parametrize(
    "hidden",
    [
        '<div role="tab" hidden="">',
        '<div role="tablist" hidden>',
        '<div class="tabpanel" hidden>',
        '<div data-role="tabpanel" hidden>',
        '<div role="tabpanels" style="display:none">',
    ],
)
def test_other_hidden_elements_stay_left_out_in_version_8(hidden: str) -> None:
    before = page("Download the binary.", hidden)
    after = page("Download the binary, edited.", hidden)
    assert fingerprint(before, OLDEST) == fingerprint(after, OLDEST)


def test_a_judged_tab_panel_stays_content() -> None:
    # The same start tag judged again in one process (remembered by its bytes) reads alike; a
    # hidden element that is no tab panel beside it is still cut.
    before, after = page("Binary."), page("Binary, edited.")
    for _ in range(2):
        assert fingerprint(before, OLDEST) != fingerprint(after, OLDEST)
    panel = b' role="tabpanel" hidden=""'
    shown = b"<div" + panel + b">x</div>"
    assert reduction.leave_out_hidden(shown) == shown
    assert reduction.leave_out_hidden(b"<div hidden>x</div>") == b" "


def words(version: int) -> list[str]:
    data = (FIXTURES / "answer-docusaurus-tabs.html").read_bytes()
    reduced = fingerprint_html_reduced(data, version=version, url=ANSWER_URL)[1]
    return re.findall(r"\w+", reduced)


def test_a_docusaurus_install_page_keeps_every_tab() -> None:
    # apache/incubator-answer-website's docs/installation/ (four tabs: Docker compose, Docker,
    # Binary, aaPanel; the last three <div role="tabpanel" hidden="">): version 7 kept the first
    # tab's words alone (356 of 865), version 8 on every tab's.
    kept_8 = " ".join(words(OLDEST))
    first = "We recommend using Docker Compose to run Apache Answer"
    inactive = [
        "You can find all the available Docker images on",
        "As a golang project Apache Answer can be compiled into a binary file",
        "To install Apache Answer on aaPanel you need to install the aaPanel first",
    ]
    assert first in kept_8
    assert [text in kept_8 for text in inactive] == [True, True, True]
    # (version 10 kept 865; from version 11 the table of contents' entry "Install Steps", a
    # heading's words, is left out: fingerprint.contents; version 13 reads the link
    # ``http://localhost:80/install`` as a browser does, its scheme's default port none:
    # fingerprint.browserurl)
    assert len(words(OLDEST)) == 863
    assert len(words(FINGERPRINT_VERSION)) == 862


@pytest.mark.parametrize(
    "tag",
    [
        "<a class=c2 href=/hidden>",  # (an unquoted value ending in the word: a minified page)
        '<a class="nav hidden x" href="/b">',  # (a class of that name: Tailwind's, among others)
        '<div data-state="hidden" title="display: none">',
    ],
)
def test_a_value_that_holds_the_word_is_no_hidden_attribute_from_version_8(tag: str) -> None:
    """Version 8 reads a start tag's attributes one by one, as a browser's tokenizer does:
    ``hidden`` inside another attribute's value hides nothing. Version 7 read it as the
    attribute (found by the re-render property of test_digest: ``href=/hidden`` minified)."""
    name = tag[1 : tag.index(" ")]
    before = f"<main><p>{tag}Binary words</{name}> stay.</p></main>".encode()
    after = f"<main><p>{tag}Binary phrases</{name}> stay.</p></main>".encode()
    assert fingerprint(before, OLDEST) != fingerprint(after, OLDEST)
    assert fingerprint(before, FINGERPRINT_VERSION) != fingerprint(after, FINGERPRINT_VERSION)
