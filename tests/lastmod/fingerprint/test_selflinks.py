"""Links that lead nowhere new count as no link (fingerprint version 5: fingerprint.selflinks)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html, reduce_html
from sitemill.lastmod.fingerprint.reduction import reduce_markup

URL = "https://example.org/posts/a/index.html"
PAGE = "<title>A</title><main><h1>{}</h1><p>Read it (now).</p>{}</main>"


def reduced(headline: str, extra: str = "", version: int = FINGERPRINT_VERSION) -> str:
    return text_of(reduce_html(PAGE.format(headline, extra).encode(), url=URL, version=version))


@pytest.mark.parametrize(
    "href",
    ["/posts/a/", "./", "", "#top", "https://example.org/posts/a/index.html#top", "/posts/a"],
)
def test_a_headline_that_links_to_the_page_reads_as_plain_text(href: str) -> None:
    linked = reduced(f'<a href="{href}">Title</a>')
    assert linked == reduced("Title") == "A Title Read it (now)."


@pytest.mark.parametrize("href", ["/posts/b/", "/posts/a/?page=2", "https://other.org/posts/a/"])
def test_a_link_elsewhere_stays_a_link(href: str) -> None:
    assert "\x01H" in reduced(f'<a href="{href}">Title</a>')


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.org%2Fposts%2Fa%2F&text=A",
            "https://x.com/intent/post?url=https%3A%2F%2Fexample.org%2Fposts%2Fa%2F",
        ),
        (
            "https://www.facebook.com/sharer/sharer.php?u=https://example.org/posts/a/index.html",
            "https://www.facebook.com/sharer.php?u=http%3A//example.org/posts/a",
        ),
    ],
)
def test_share_buttons_that_carry_the_page_url_are_no_link(before: str, after: str) -> None:
    old = reduced("Title", f'<p><a href="{before}">Share</a></p>')
    new = reduced("Title", f'<p><a href="{after}">Share</a></p>')
    assert old == new == "A Title Read it (now). Share"


def test_a_link_whose_query_names_another_page_stays_a_link() -> None:
    other = "https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.org%2Fposts%2Fab%2F"
    assert "\x01H" in reduced("Title", f'<p><a href="{other}">Share</a></p>')


def test_without_a_page_url_no_link_is_the_page() -> None:
    page = PAGE.format('<a href="/">Home</a>', "").encode()
    assert "\x01H/\x01" in reduce_html(page)


def test_the_self_link_edit_beside_a_body_edit_still_moves() -> None:
    old = PAGE.format("Title", "").encode()
    new = PAGE.format('<a href="./">Title</a>', "<p>More.</p>").encode()
    assert fingerprint_html(old, url=URL) != fingerprint_html(new, url=URL)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            '<img src="data:image/svg+xml;base64,PHN2Zy8+">',
            '<img src="data:image/svg+xml;base64,PHN2ZyB4Lz4=">',
        ),
        (
            '<a href="data:text/csv;base64,YSxi" download>t</a>',
            '<a href="data:text/csv;base64,YSxj" download>t</a>',
        ),
    ],
)
def test_an_inline_drawing_or_download_counts_by_its_bytes(old: str, new: str) -> None:
    assert reduced("T", old) != reduced("T", new)


def test_an_inline_raster_image_still_counts_by_its_media_type() -> None:
    old = '<img src="data:image/jpeg;base64,/9j/2wBDABAL">'
    new = '<img src="data:image/jpeg;base64,/9j/2wBDAAEB">'
    assert reduced("T", old) == reduced("T", new)


# A Jekyll (Minimal Mistakes) page's share buttons: its URL ends in .html, and the tweet button
# carries it inside ``text=`` after the title (issue 79: aeadataeditor.github.io, deploy 20ada9e,
# ``via=AEAData&`` dropped from 119 pages' tweet buttons).
JEKYLL_URL = "https://example.org/guidance/Licensing_guidance.html"
TWEET = (
    "https://twitter.com/intent/tweet?{}text=Licensing+Guidance%20"
    "https%3A%2F%2Fexample.org%2Fguidance%2FLicensing_guidance.html"
)


def shared(href: str, version: int = FINGERPRINT_VERSION) -> str:
    page = PAGE.format("Licensing Guidance", f'<p><a href="{href}">Twitter</a></p>').encode()
    return text_of(reduce_html(page, url=JEKYLL_URL, version=version))


def test_a_tweet_button_with_the_page_url_inside_its_text_is_no_link() -> None:
    with_via, without = shared(TWEET.format("via=AEAData&")), shared(TWEET.format(""))
    assert with_via == without == "A Licensing Guidance Read it (now). Twitter"


@pytest.mark.parametrize(
    "carried",
    [
        "http://example.org/guidance/Licensing_guidance.html",
        "https://EXAMPLE.org/guidance/Licensing_guidance",
        "https://example.org/guidance/Licensing_guidance/",
        "https://example.org/guidance/Licensing_guidance/index.html",
        "//example.org/guidance/Licensing_guidance.html#top",
        "example.org/guidance/Licensing_guidance.html",
        "https%3A%2F%2Fexample.org%2Fguidance%2FLicensing_guidance.html",  # (encoded twice)
        "Read+this:+https://example.org/guidance/Licensing_guidance.html+now",
    ],
)
def test_the_page_url_anywhere_in_a_query_value_is_the_page(carried: str) -> None:
    href = "https://share.example.net/post?title=Licensing&u=" + quote(carried, safe="+:/")
    assert shared(href) == "A Licensing Guidance Read it (now). Twitter"


@pytest.mark.parametrize(
    "carried",
    [
        "https://example.org/guidance/Licensing_guidance_old.html",
        "https://example.org/guidance/Licensing_guidance.html?lang=fr",
        "https://example.org/guidance/",
        "https://notexample.org/guidance/Licensing_guidance.html",
        "https://example.org:8080/guidance/Licensing_guidance.html",
    ],
)
def test_a_query_that_carries_another_url_stays_a_link(carried: str) -> None:
    href = "https://share.example.net/post?u=" + quote(carried, safe=":/")
    assert "\x01H" in shared(href)


def test_a_placeholder_link_of_glyphs_is_no_word_as_a_self_link_of_glyphs_is_none() -> None:
    # Hugo's pager (issue 79, crumb97): the link to the list's own first page, "««", written
    # with its href, then disabled without one; the "1" of the current page stays a word.
    url = "https://example.org/posts/"

    def pager(first: str) -> bytes:
        return (
            "<html><head><title>Posts</title></head><body><main><h1>Posts</h1>"
            '<p>Every post of the blog.</p><ul class="pagination">'
            f'<li>{first}</li><li><a class="page-link">&laquo;</a></li>'
            '<li><a aria-current="page" class="page-link">1</a></li>'
            '<li><a href="/posts/page/2/">2</a></li></ul></main></body></html>'
        ).encode()

    linked = pager('<a href="/posts/" aria-label="First"><span>&laquo;&laquo;</span></a>')
    disabled = pager('<a aria-disabled="true" role="button"><span>&laquo;&laquo;</span></a>')
    reduced = reduce_html(disabled, url=url)
    assert reduced == reduce_html(linked, url=url)
    assert "«" not in reduced and " 1" in reduced
    # A placeholder link with words keeps them; version 12 reads the glyphs as before.
    worded = pager('<a role="button">First page</a>')
    assert "First page" in reduce_html(worded, url=url)
    assert "««" in reduce_markup(disabled, (), 12, main=True, url=url)
