"""A listed page's content region: the fingerprint's region, furniture left out wherever it is."""

from __future__ import annotations

import tarfile
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import pytest

import timing
from sitemill.lastmod.fingerprint._regionmarkers import LETTERED
from sitemill.lastmod.fingerprint.reduction import marked_region_text, passes_text
from sitemill.lastmod.fingerprint.regionplan import region_plan
from sitemill.lastmod.fingerprint.targetmarks import escape_kept_values
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.llms._markdown import region_markdown
from sitemill.llms._parsing import MAX_PARSED_BYTES, without_raw_text
from sitemill.llms._region import content_region
from sitemill.llms.conversion import site_markdowns
from sitemill.llms.page import LlmsPage

URL = "https://example.org/docs/guide/"
REAL_PAGES = Path(__file__).parent / "realpages"


def markdown_of(body: str, head: str = "<title>Guide</title>", url: str = URL) -> str:
    page = f"<!doctype html><html lang='en'><head>{head}</head><body>{body}</body></html>"
    return region_markdown(content_region(page.encode(), url))


def test_the_region_is_main_without_the_page_s_furniture() -> None:
    body = """<header><a href="/">Site</a></header><nav><a href="/a/">Menu entry</a></nav>
    <main><h1>Guide</h1><p>Words of the guide.</p><aside>Sidebar words</aside>
    <div role="navigation">Prev next</div><footer>Main's own footer</footer></main>
    <footer>Copyright footer</footer><script>var x = "script words";</script>"""
    text = markdown_of(body)
    assert text == "# Guide\n\nWords of the guide.\n"


@pytest.mark.parametrize(
    "body",
    [
        '<div role="main"><h1>Guide</h1><p>Words.</p></div><div>Outside words</div>',
        '<div role="main article"><h1>Guide</h1><p>Words.</p></div><p>Outside words</p>',
        "<div>Outside words</div><article><h1>Guide</h1><p>Words.</p></article>",
    ],
)
def test_role_main_else_the_only_article(body: str) -> None:
    assert markdown_of(body) == "# Guide\n\nWords.\n"


def test_a_region_narrows_to_its_one_article_holding_the_h1() -> None:
    body = """<main><div>Breadcrumb words</div><article><header><h1>Guide</h1></header>
    <p>Words.</p><footer>Tags: one</footer></article></main>"""
    assert markdown_of(body) == "# Guide\n\nWords.\n\nTags: one\n"


def test_a_region_of_several_articles_stays_whole() -> None:
    # A blog's home page: its intro in one article, its posts' teasers beside it.
    body = """<main><article><h1>Blog</h1><p>Intro.</p></article>
    <article><h2>Post one</h2><p>Teaser one.</p></article></main>"""
    assert "Teaser one." in markdown_of(body) and "Intro." in markdown_of(body)


def test_a_page_level_header_holding_the_h1_is_content() -> None:
    body = "<main><header><h1>Guide</h1><p>By A. Author</p></header><p>Words.</p></main>"
    assert markdown_of(body) == "# Guide\n\nBy A. Author\n\nWords.\n"


def test_the_title_block_before_the_region_comes_first() -> None:
    # A Docusaurus home page: its hero (<h1>, tagline) in a header before <main>.
    body = """<header class="hero"><h1>Metro</h1><p>The bundler.</p></header>
    <main><p>Words.</p></main>"""
    assert (
        markdown_of(body, "<title>Metro | Metro</title>") == "# Metro\n\nThe bundler.\n\nWords.\n"
    )
    banner = markdown_of(body.replace("Metro</h1>", "Our motto</h1>"), "<title>Home</title>")
    assert banner == "Words.\n"


@pytest.mark.parametrize(
    "link",
    [
        '<a class="headerlink" href="#install" title="Permanent link">¶</a>',  # MkDocs, Sphinx
        '<a class="hash-link" href="#install" aria-label="Direct link">\u200b</a>',  # Docusaurus
        '<a class="anchor" href="#install"><svg><path d="M0"/></svg></a>',  # an icon
        '<a href="/docs/guide/#install">#</a>',
    ],
)
def test_heading_permalinks_are_gone(link: str) -> None:
    text = markdown_of(f"<main><h2 id='install'>Install{link}</h2><p>Words.</p></main>")
    assert text == "## Install\n\nWords.\n"


def test_a_heading_s_link_with_words_stays() -> None:
    text = markdown_of('<main><h2><a href="#install">Install</a></h2></main>')
    assert text == "## [Install](https://example.org/docs/guide/#install)\n"


@pytest.mark.parametrize(
    "line",
    [
        "<p>Last updated on <time datetime='2024-11-03'>Nov 3, 2024</time></p>",
        "<div><span>Last updated</span> on <b>2024-11-03</b> by Ann</div>",
        "<p>Page last updated October 5, 2023: <a href='https://g.com/c/abc'>Fix (abc)</a></p>",
        "<p>Last modified: 2024-01-02</p>",
    ],
)
def test_self_dates_are_gone(line: str) -> None:
    assert markdown_of(f"<main><p>Words.</p>{line}</main>") == "Words.\n"


def test_a_sentence_opening_with_updated_stays() -> None:
    text = markdown_of("<main><p>Updated the ISO profile to 2024.</p></main>")
    assert text == "Updated the ISO profile to 2024.\n"


def test_what_a_reader_does_not_read_as_text_is_gone() -> None:
    body = """<main><p>Words.</p><form><input value="Search"><button>Go</button></form>
    <template><p>Template words</p></template><noscript>Enable JS</noscript>
    <style>p{}</style><svg><text>Drawing words</text></svg></main>"""
    assert markdown_of(body) == "Words.\n"


def test_a_form_holding_the_page_is_no_furniture() -> None:
    # ASP.NET wraps a whole page in one <form>.
    body = "<form><main><h1>Guide</h1><p>Words.</p></main></form>"
    assert markdown_of(body) == "# Guide\n\nWords.\n"


def test_a_page_without_a_region_is_its_body_less_furniture() -> None:
    body = "<nav>Menu</nav><h1>Guide</h1><p>Words.</p><footer>Foot</footer>"
    assert markdown_of(body) == "# Guide\n\nWords.\n"


def test_the_language_and_base_are_the_page_s() -> None:
    page = b"<html lang='fr-FR'><head><base href='/root/'></head><body><main>x</main></body>"
    region = content_region(page, URL)
    assert (region.lang, region.base) == ("fr-fr", "https://example.org/root/")


def test_input_is_bounded() -> None:
    padding = "<p>" + "a" * 1000 + "</p>"
    page = (
        "<main>" + padding * (MAX_PARSED_BYTES // len(padding) + 10) + "<p>Tail</p></main>"
    ).encode()
    text = region_markdown(content_region(page, URL))
    assert "Tail" not in text and len(text) <= MAX_PARSED_BYTES


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("a<script>x</script>b<STYLE>y</style >c", "abc"),
        ("Last updated<!-- --> on 2024", "Last updated on 2024"),
        ("a<svg><path/></svg>b<template><p>t</p></template>c", "abc"),
        ("a<script>if (x < 1) { '</div>' }</script>b", "ab"),
        ("a<!-- <script> -->b<script>c", "ab"),  # (one left open runs to the end)
        ("a<scripts>b</scripts>", "a<scripts>b</scripts>"),
    ],
)
def test_raw_text_and_comments_are_left_out_before_parsing(text: str, left: str) -> None:
    assert without_raw_text(text) == left


def test_raw_text_left_open_many_times_is_read_once() -> None:
    # Each unclosed <svg> would be searched to the end: the first one ends the text.
    text = "<p>x</p>" + "<svg>" * 50_000
    assert without_raw_text(text) == "<p>x</p>"


class Recorded:
    """BeautifulSoup, recording each text it is given to parse."""

    texts: ClassVar[list[str]] = []

    def __new__(cls, text: str, features: str, **options: Any) -> object:
        from bs4 import BeautifulSoup

        cls.texts.append(text)
        return BeautifulSoup(text, features, **options)


def test_a_page_with_main_is_parsed_from_main_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sitemill.llms._region.BeautifulSoup", Recorded)
    Recorded.texts = []
    body = "<aside>" + "<li><a href='/x/'>Sidebar entry</a></li>" * 500 + "</aside>"
    body += "<main><h1>Guide</h1><p>Words.</p></main><footer>Foot</footer>"
    assert markdown_of(body) == "# Guide\n\nWords.\n"
    assert len(Recorded.texts) == 1 and "Sidebar" not in Recorded.texts[0]


def test_a_main_with_a_title_block_is_read_in_one_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its title block stands before it (a Docusaurus home page's hero): the fingerprint's
    # region plan says so before the one parse (issue 81: two parses a page before).
    monkeypatch.setattr("sitemill.llms._region.BeautifulSoup", Recorded)
    Recorded.texts = []
    body = "<header><h1>Guide</h1></header><main><p>Words.</p></main>"
    assert markdown_of(body) == "# Guide\n\nWords.\n"
    assert len(Recorded.texts) == 1 and "<header>" in Recorded.texts[0]
    Recorded.texts = []
    body = "<header><h1>Our motto</h1></header><main><p>Words.</p></main>"
    assert markdown_of(body) == "Words.\n"
    assert len(Recorded.texts) == 1 and "<header>" not in Recorded.texts[0]


@pytest.mark.parametrize(
    "filler",
    [
        " ",  # (a self-date's label searched from every position of a long white run)
        "<div>",  # (nesting)
        "<p><a href='#x'></a>",  # (unclosed: nested empty in-page links, each left out)
        "<li>Last updated on 2024 ",  # (unclosed: nested self-dates, each climbing up)
        "<h2>Part<a href='#p'>¶</a>",  # (unclosed: nested headings and their permalinks)
        "<ul><li><a href='#a'>A</a></li>",  # (unclosed: nested tables of contents)
        "<div>Contents<ul><li><a href='#a'>A</a><a href='#b'>B</a></li></ul>",  # (and labels)
    ],
)
def test_a_page_s_cost_grows_linearly(filler: str) -> None:
    def page(count: int) -> bytes:
        return f"<main><h1>Guide</h1>{filler * count}<p>End</p></main>".encode()

    def convert(data: bytes) -> str:
        return region_markdown(content_region(data, URL))

    assert timing.linear(convert, page(1_000), page(8_000), 20)


@pytest.mark.parametrize(
    ("element", "kept"),
    [
        ("<p hidden>Gone</p>", False),
        ("<p HIDDEN='hidden'>Gone</p>", False),
        ("<div style='margin:0;DISPLAY: none !important'><p>Gone</p></div>", False),
        ("<p style='visibility:hidden'>Gone</p>", False),
        ("<p hidden='until-found'>Gone</p>", True),  # (a find in the page shows it)
        ("<p aria-hidden='true'>Gone</p>", True),  # (hidden from a screen reader, not the eye)
        ("<p style='display: nonesuch'>Gone</p>", True),
        ("<p data-style='display:none'>Gone</p>", True),
    ],
)
def test_what_no_reader_sees_is_gone(element: str, kept: bool) -> None:
    assert ("Gone" in markdown_of(f"<main><h1>Guide</h1>{element}<p>Shown.</p></main>")) is kept


# What a blog's template writes around a post's text (issue 82; llms.bylines).
POST = "<main><article><header><h1>Guide</h1>{}</header><p>The post's words.</p>{}</article></main>"


@pytest.mark.parametrize(
    "byline",
    [
        # Hugo PaperMod: date, reading time, words, author and edit link in one line
        "<div class='post-meta'><span>2021-02-04</span>&nbsp;·&nbsp;10 min&nbsp;·&nbsp;2057 words"
        "&nbsp;·&nbsp;erri120&nbsp;|&nbsp;<a href='https://g.com/e/x.md'>Suggest Changes</a></div>",
        # Hugo Ananke: the date alone, its pieces beside it
        "<time datetime='2023-10-13'>October 13, 2023</time>"
        "<span> - 6 minutes read </span><span> - 1082 words </span>",
        "<p>Posted on 3 March 2024 by Ann Smith</p>",
    ],
)
def test_a_posts_dateline_is_gone(byline: str) -> None:
    assert markdown_of(POST.format(byline, "")) == "# Guide\n\nThe post's words.\n"


@pytest.mark.parametrize(
    "kept",
    [
        "<p>2024-01-05 was the day we shipped. It went well.</p>",  # a sentence
        "<pre><code>2020/08/14 18:42:17 loop: mul</code></pre>",  # code
        "<ul><li>2024-01-05: version 1.2</li><li>2023-12-01: version 1.1</li></ul>",  # a list
    ],
)
def test_a_date_in_the_posts_own_text_stays(kept: str) -> None:
    assert "20" in markdown_of(POST.format(kept, ""))


@pytest.mark.parametrize(
    "contents",
    [
        # Hugo PaperMod: a <details> labelled "Table of Contents" around a <nav> of the headings
        "<div class='toc'><details><summary>Table of Contents</summary><div><nav>"
        "<ul><li><a href='#one'>One</a></li><li><a href='#two'>Two</a></li></ul></nav></div>"
        "</details></div>",
        "<div><p>On this page</p><ul><li><a href='#one'>One</a><li><a href='#two'>Two</a></ul>"
        "</div>",
        "<h2>Contents</h2><ol><li><a href='#one'>One</a></li><li><a href='#two'>Two</a></ol>",
        "<ul><li><a href='#one'>One</a><ul><li><a href='#two'>Two</a></li></ul></li></ul>",
    ],
)
def test_a_table_of_contents_is_gone(contents: str) -> None:
    body = f"<main><h1>Guide</h1>{contents}<h2 id='one'>One</h2><p>Words.</p></main>"
    assert markdown_of(body) == "# Guide\n\n## One\n\nWords.\n"


def test_a_list_of_links_to_other_pages_stays() -> None:
    body = "<main><h1>Guide</h1><ul><li><a href='/a/'>A</a></li><li><a href='/b/'>B</a></li>"
    body += "</ul></main>"
    assert markdown_of(body).count("https://example.org/") == 2


def test_a_skip_link_is_gone() -> None:
    body = "<a href='#main'>Skip to main content</a><div><h1>Guide</h1><p>Words.</p></div>"
    assert markdown_of(body) == "# Guide\n\nWords.\n"


# The region is the content fingerprint's (issue 80): its rules reach llms with no second edit.


def test_a_teaser_the_title_does_not_name_keeps_the_list_title() -> None:
    # Hexo NexT's tag page (fingerprint version 6): the list title beside one teaser whose <h1>
    # the page's <title> does not name; the region counts whole (the h1-count rule of the copy
    # llms kept before narrowed it to the teaser).
    body = """<main><h2>Tag: rust</h2><article><h1><a href="/post/">A post</a></h1>
    <p>Teaser words.</p></article></main>"""
    text = markdown_of(body, "<title>Tag: rust | Blog</title>")
    assert "Tag: rust" in text and "Teaser words." in text


def test_a_hidden_tab_panel_is_content() -> None:
    # Docusaurus's inactive tabs (fingerprint version 8): a reader sees each by choosing it.
    body = """<main><h1>Guide</h1><div role="tabpanel" hidden><p>npm words</p></div>
    <div hidden><p>Hidden words</p></div></main>"""
    assert markdown_of(body) == "# Guide\n\nnpm words\n"


def test_furniture_after_raw_text_is_found_by_its_position() -> None:
    # Scripts, drawings and comments are cut before the parse: positions map through the cuts.
    body = """<main><h1>Guide</h1><script>var x = "<nav>";</script><svg><text>s</text></svg>
    <!-- a comment --><p>Words.</p><nav><a href="/a/">Menu</a></nav>
    <p>More.</p><aside>Side</aside></main>"""
    assert markdown_of(body) == "# Guide\n\nWords.\n\nMore.\n"


@pytest.mark.parametrize("name", ["hugegraph", "metro", "python-markdown", "spyder-docs"])
def test_each_marker_s_tag_is_recorded(name: str, tmp_path: Path) -> None:
    # The n-th marker of the fingerprint's marked text is the n-th position recorded: the
    # counts agree and each position is a tag's "<", on real pages.
    with tarfile.open(REAL_PAGES / f"{name}.tar.xz") as archive:
        archive.extractall(tmp_path, filter="data")
    pages = sorted(tmp_path.rglob("*.html"))[:40]
    assert pages
    for page in pages:
        text = passes_text(escape_kept_values(page.read_bytes()))
        positions: list[int] = []
        marked = marked_region_text(text, "https://example.org/", FINGERPRINT_VERSION, positions)
        markers = [m for m in LETTERED.finditer(marked) if m[1] not in "gGkK"]
        assert len(markers) == len(positions) > 0
        assert all(text[at] == "<" for at in positions)
        plan = region_plan(page.read_bytes(), "https://example.org/")
        assert all(plan.text[at] == "<" for at in plan.left_out)


def test_a_post_s_neighbours_are_left_out() -> None:
    # Fingerprint version 6: what another page says is that page's (rel prev/next).
    body = """<main><h1>Guide</h1><p>Words.</p><div class="nextprev">
    <a href="/older/" rel="prev"><h3>Older post</h3></a><a href="/other/">Other</a></div></main>"""
    assert markdown_of(body) == "# Guide\n\nWords.\n\n[Other](https://example.org/other/)\n"


def test_a_link_whose_own_role_is_navigation_is_left_out() -> None:
    # Fingerprint version 13 (hugo99): a link with a furniture role is furniture, as a nav is.
    body = """<main><h1>Guide</h1><p>Words.</p><div class="pagination">
    <a role="navigation" href="/newer/">Next</a><a href="/other/">Other</a></div></main>"""
    assert markdown_of(body) == "# Guide\n\nWords.\n\n[Other](https://example.org/other/)\n"


def test_each_pass_parses_a_page_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 81: the two passes (the blocks the site repeats, then the Markdown) parse each page
    # once each, its title block before <main> or not (it was parsed twice a pass then).
    monkeypatch.setattr("sitemill.llms._region.BeautifulSoup", Recorded)
    Recorded.texts = []
    pages = []
    for number in range(6):
        hero = f"<header><h1>Page {number}</h1></header>" if number % 2 else ""
        page = f"<title>Page {number}</title>{hero}<main><p>Words {number}.</p></main>"
        pages.append((LlmsPage(f"{URL}{number}/"), partial(bytes, page.encode())))
    found = list(site_markdowns(pages))
    assert [bool(found[n].markdown) for n in range(6)] == [True] * 6
    assert found[1].markdown.startswith("# Page 1")
    assert len(Recorded.texts) == 2 * len(pages)
