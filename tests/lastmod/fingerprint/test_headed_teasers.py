"""Teasers that are no article: a heading titled by a link, closed by a link to the same page."""
# Shaped like a Hugo Ananke tag page (structure copied, text our own): role=main holds an intro
# <article>, then a <section> of teasers, each <div>s: a section label, an <h1> whose link leads to
# the post, its excerpt (with links of its own), and a "read more" link to the post again.

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html

BASE = "https://blog.example.org"
POSTS = {
    "/posts/2501/": ("Tuning the garden pump", "The pump ran dry twice this spring, so I"),
    "/posts/2412/": ("A shelf for the workshop", "Oak boards, <a href=https://x.example>a saw</a>"),
    "/posts/2410/": ("Notes on bread", "A sourdough starter needs patience and"),
}


def teaser(path: str, excerpt: str = "", label: str = "Posts") -> str:
    title, words = POSTS[path]
    return (
        "<div class='w-100 mb4 relative bg-white'>\n<div class='w-100 mb4 relative'>\n"
        f"<div class='mb3 pa4 gray'>\n<span class='f6 db'>{label}</span>\n<h1 class=f3>\n"
        f"<a href={path} class='link black dim'>\n{title}\n</a>\n</h1>\n<div class=nested-links>"
        f"\n<p>{excerpt or words}</p>\n</div>\n<a href={path} class='ba link'>read more</a>\n"
        "</div>\n</div>\n</div>\n"
    )


def tag_page(entries: str = "", intro: str = "Pages tagged “Home”") -> bytes:
    entries = entries or teaser("/posts/2501/") + teaser("/posts/2412/")
    return (
        "<html><head><title>Home - A Blog</title></head><body>\n<header><nav>"
        "<a href=/>A Blog</a></nav></header>\n<main class=pb7 role=main>\n"
        f"<article class=cf>\n<div class=measure-wide-l><p>{intro}</p></div>\n</article>\n"
        f"<div class='mw8 center'>\n<section class=flex-ns>\n{entries}</section>\n</div>\n"
        "</main>\n<footer role=contentinfo><a href=/>© A Blog</a></footer></body></html>"
    ).encode()


def fingerprint(page: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(page, version=version, url=BASE + "/tags/home/")


def test_a_div_teasers_excerpt_edited_keeps_the_list_page() -> None:
    edited = teaser("/posts/2501/", excerpt="The pump runs well now, after a new")
    after = tag_page(edited + teaser("/posts/2412/"))
    assert fingerprint(after) == fingerprint(tag_page())


def test_the_label_between_two_div_teasers_is_theirs() -> None:
    # A theme upgrade wrote each teaser's section label where its date stood; between two
    # teasers it is theirs (the label before the first stays counted: it cannot be told).
    before = tag_page(teaser("/posts/2501/") + teaser("/posts/2412/", label="March 4, 2024"))
    assert fingerprint(tag_page()) == fingerprint(before)


@pytest.mark.parametrize(
    "page",
    [
        tag_page(teaser("/posts/2501/") + teaser("/posts/2412/") + teaser("/posts/2410/")),
        tag_page(teaser("/posts/2412/") + teaser("/posts/2501/")),
        tag_page(intro="Pages tagged “House”"),
    ],
)
def test_what_a_div_list_lists_and_its_own_text_move_it(page: bytes) -> None:
    assert fingerprint(page) != fingerprint(tag_page())


def docs_page(paragraph: str) -> bytes:
    return (
        "<html><head><title>Install - Docs</title></head><body><main>\n<h1>Install</h1>\n"
        "<h2><a href=/docs/setup/>Set up</a></h2>\n"
        f"<div><p>{paragraph} See <a href=/docs/usage/>usage</a>.</p></div>\n"
        "<h2><a href=/docs/usage/>Use</a></h2>\n<p>Run it, then read "
        "<a href=/docs/setup/>the setup</a> again.</p>\n</main></body></html>"
    ).encode()


def test_a_docs_pages_sections_under_heading_links_are_its_own_text() -> None:
    # A heading links to another page, but no link to that page closes its text: no teaser.
    before = fingerprint_html(docs_page("Install the tool first."), url=BASE + "/docs/install/")
    after = fingerprint_html(docs_page("Install the tool twice."), url=BASE + "/docs/install/")
    assert after != before


def test_a_div_teasers_excerpt_with_its_own_headings_is_the_teased_pages() -> None:
    # The excerpt of a post that starts with an "Update" section: <h3>s under the <h1> title.
    def with_update(update: str) -> bytes:
        excerpt = f"</p><h3 id=update>Update</h3><p>{update}</p><h3 id=original>Original</h3><p>"
        return tag_page(teaser("/posts/2501/", excerpt=excerpt) + teaser("/posts/2412/"))

    before = fingerprint(with_update("The pump now has a timer."))
    assert fingerprint(with_update("The pump now has a timer and a float.")) == before


def faq_page(answer: str) -> bytes:
    # Shaped like an MkDocs readthedocs-theme FAQ (structure copied, text our own): role=main, an
    # <h1> naming the project by a link to its main page, prose that links to it again and again.
    mention = "<a href=../>the tool</a>"
    questions = "".join(
        f"<h3 id=q{n}>Question {n}?</h3>\n<p>Yes: {mention} does it, see {mention} {n}.</p>\n"
        for n in range(4)
    )
    return (
        "<html><head><title>FAQ - Docs</title></head><body><div role=main><div class=section>\n"
        f"<h1 id=faq>FAQ of <a href=../>the tool</a></h1>\n<p>{answer}</p>\n{questions}"
        "<p>Last words about <a href=../>the tool</a>, then a tail.</p>\n</div></div></body></html>"
    ).encode()


def test_prose_that_links_to_another_page_again_is_the_pages_own_words() -> None:
    # A teaser stands for another page; a sentence with a link in it is not one: the text
    # between the headline's link and the last link to the same page is the FAQ's own.
    url = BASE + "/faq/"
    before = fingerprint_html(faq_page("It reads files."), url=url)
    assert fingerprint_html(faq_page("It reads and writes files."), url=url) != before
