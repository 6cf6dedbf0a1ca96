"""Fingerprint version 7 (issue 79): targets' white space, what no reader sees, self-dates."""

from __future__ import annotations

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import fingerprint_html, reduce_html

URL = "https://blog.example.org/meet-nina-alex/index.html"


def page(body: str) -> bytes:
    return f"<title>Meet Nina</title><main><h1>Meet Nina</h1><p>We met.</p>{body}</main>".encode()


def test_white_space_inside_an_image_target_is_part_of_it() -> None:
    # eleventy: an image repaired from "meet-nina-alex⏎  .svg" to "meet-nina-alex.svg".
    broken, repaired = (
        page('<img src="meet-nina-alex\n  .svg">'),
        page('<img src="meet-nina-alex.svg">'),
    )
    assert fingerprint_html(broken, url=URL) != fingerprint_html(repaired, url=URL)
    # As a browser reads a URL: a space and its %20 are one target; a tab or newline is none.
    spaced, encoded = page('<a href="a b.pdf">PDF</a>'), page('<a href="a%20b.pdf">PDF</a>')
    assert fingerprint_html(spaced, url=URL) == fingerprint_html(encoded, url=URL)
    assert "a%20b.pdf" in reduce_html(spaced, url=URL)
    wrapped, one = page('<a href="/docs/\n  guide/">G</a>'), page('<a href="/docs/  guide/">G</a>')
    assert fingerprint_html(page('<a href="/docs/\nguide/">G</a>'), url=URL) == fingerprint_html(
        page('<a href="/docs/guide/">G</a>'), url=URL
    )
    assert fingerprint_html(wrapped, url=URL) == fingerprint_html(one, url=URL)
    assert fingerprint_html(one, url=URL) != fingerprint_html(
        page('<a href="/docs/guide/">G</a>'), url=URL
    )


def test_control_characters_and_a_permalink_anchors_symbols_are_no_words() -> None:
    # metro (Docusaurus): NUL bytes removed before the zero-width space of a heading's anchor.
    def heading(anchor: str) -> bytes:
        return page(
            f'<h2 id="use">Use<a class="hash-link" href="#use">{anchor}</a></h2><p>Run.</p>'
        )

    with_nul = heading("\x00\u200b")
    assert fingerprint_html(with_nul, url=URL) == fingerprint_html(heading("\u200b"), url=URL)
    for symbol in ("#", "¶", "", "🔗"):
        assert fingerprint_html(heading(symbol), url=URL) == fingerprint_html(with_nul, url=URL)
    assert text_of(reduce_html(with_nul, url=URL)).endswith("We met. Use Run.")
    # A self link's words and a link elsewhere still count; a zero-width joiner is drawn.
    assert fingerprint_html(heading("Use it"), url=URL) != fingerprint_html(with_nul, url=URL)
    other = page('<p><a href="/other/">¶</a></p>')
    assert fingerprint_html(other, url=URL) != fingerprint_html(page("<p></p>"), url=URL)
    joined = page("<p>👨\u200d👩</p>")
    assert fingerprint_html(joined, url=URL) != fingerprint_html(page("<p>👨👩</p>"), url=URL)


def test_a_permalink_glyph_moved_into_css_or_beside_a_label_is_no_change() -> None:
    # vuepress2 (VuePress 2.0.0-beta.67 -> rc.21, one deploy): the heading's "#" anchor became a
    # self link around the heading's words, its glyph drawn by CSS. sphinx-immaterial: a
    # rubric's "¶" taken out, a field list's "¶" moved from before its ":" to after it.
    def heading(inner: str) -> bytes:
        return page(f'<h2 id="use" tabindex="-1">{inner}</h2><p>Run.</p>')

    old = heading('<a class="header-anchor" href="#use" aria-hidden="true">#</a> Use')
    new = heading('<a class="header-anchor" href="#use"><span>Use</span></a>')
    assert fingerprint_html(old, url=URL) == fingerprint_html(new, url=URL)
    assert text_of(reduce_html(new, url=URL)).endswith("We met. Use Run.")
    renamed = heading('<a class="header-anchor" href="#use"><span>Use it</span></a>')
    assert fingerprint_html(renamed, url=URL) != fingerprint_html(new, url=URL)

    def api(field: str, rubric: str) -> bytes:
        return page(f'<dl><dt>{field}</dt><dd>x</dd></dl><p class="rubric">{rubric}</p><p>Run.</p>')

    glyph = '<a class="headerlink" href="#example" title="Permalink">¶</a>'
    before = api(f"Parameters{glyph}:", f"Example{glyph}")
    after = api(f"Parameters:{glyph}", "Example")
    assert fingerprint_html(before, url=URL) == fingerprint_html(after, url=URL)
    assert fingerprint_html(api("Returns:", "Example"), url=URL) != fingerprint_html(after, url=URL)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # answer (Docusaurus, showLastUpdateAuthor): the name beside the date is the commit's.
        (
            '<span>Last updated on <b><time datetime="2024-12-17">Dec 17, 2024</time></b> by'
            " <b>Luffy</b></span>",
            '<span>Last updated on <b><time datetime="2025-02-01">Feb 1, 2025</time></b> by'
            " <b>Fen Wang</b></span>",
        ),
        # Its zh-CN pages: "最后由 <name> 于 <date> 更新", and other word orders.
        (
            "<span>最后由 <b>Luffy</b> 于 <b><time>2024年12月17日</time></b> 更新</span>",
            "<span>最后由 <b>Fen Wang</b> 于 <b><time>2025年2月1日</time></b> 更新</span>",
        ),
        ("<p>最后由 Ann Lee 更新于 2024年1月2日</p>", "<p>最后由 Bo Chen 更新于 2024年3月9日</p>"),
        ("<p>最後更新時間：2024-01-02</p>", "<p>最後更新時間：2024-03-09</p>"),
    ],
)
def test_a_self_dates_author_and_its_label_in_chinese_are_part_of_it(
    before: str, after: str
) -> None:
    old, new = page(f"<div>{before}</div>"), page(f"<div>{after}</div>")
    assert fingerprint_html(new, url=URL) == fingerprint_html(old, url=URL)
    assert text_of(reduce_html(new, url=URL)) == "Meet Nina Meet Nina We met."


def test_words_beside_a_self_date_that_are_no_name_still_count() -> None:
    # A name ends its block; a sentence after "by" that goes on is the page's.
    def dated(words: str) -> bytes:
        return page(f"<p>Last updated on 2024-01-02 by {words}</p><p>More.</p>")

    assert fingerprint_html(dated("the field team after the survey of the river"), url=URL) != (
        fingerprint_html(dated("the field team after the survey of the lake"), url=URL)
    )
    sentence = page("<p>Ce texte fut le dernier 最后 mot.</p>")
    assert "最后" in reduce_html(sentence, url=URL)
