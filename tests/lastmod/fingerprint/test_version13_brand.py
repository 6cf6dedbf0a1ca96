"""The site's name is no page's headline (fingerprint version 13, amended: issue 79, "the part of
<title> most pages share is template; furniture wherever it stands"). A page without a region
whose first <h1> is the site's name (the words of a link to a page above it, or an <h1> that is
a link to a home page) has that header for the site's: the title names it only through the site's
name, the part every title shares. Pages shaped like Pelican Pure's (deadc0de6's blog: the
sidebar's ``<header>`` holds the brand ``<h1>`` linked to the home and the site's menu, each post
its own ``<header>`` with its ``<h1>``, no ``<main>``); and the shapes fingerprint.titleblock was
built for, which keep their title blocks (structure copied, text our own)."""

from __future__ import annotations

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    fingerprint_html,
    reduce_html,
)

PREVIOUS = max(EARLIER_VERSIONS)
POST_URL = "https://example.org/articles/tea.html"
HOME_URL = "https://example.org/"


def pure(
    *,
    menu: str = "Tags Archives About",
    home: str = "https://example.org/",
    brand: str = "leaf.example",
    text: str = "Steep it for three minutes.",
    h1: str = "",
    tags: str = "tea",
) -> bytes:
    """A post of Pelican Pure: the brand header in the sidebar (the site's name, an <h1> linked
    to ``home``, and the ``menu``), the post's header (its <h1>, tags, date), its text (with
    ``h1`` an <h1> of its own, as a post written with "# ..." has)."""
    links = "".join(
        f'<p class="links"><a href="/pages/{word.lower()}.html">{word}</a></p>'
        for word in menu.split()
    )
    own = f"<h1>{h1}</h1>" if h1 else ""
    categories = "".join(
        f'<a class="post-category" href="/tag/{tag}.html">{tag}</a>' for tag in tags.split()
    )
    return (
        f"<!doctype html><html><head><title>Green tea // {brand} // </title></head><body>"
        '<div class="pure-g-r" id="layout"><div class="sidebar pure-u"><div class="cover-body">'
        f'<header class="header"><hgroup><h1 class="brand-main"><a href="{home}">{brand}</a>'
        f'</h1>{links}</hgroup></header></div></div><div class="pure-u"><div class="content">'
        '<section class="post"><header class="post-header"><h1>Green tea</h1><p class="post-meta">'
        f"// under {categories}<br/>// Mon 01 February "
        f"2016</p></header></section>{own}<p>{text}</p></div></div></div></body></html>"
    ).encode()


def printed(data: bytes, url: str = POST_URL, version: int | None = None) -> str:
    if version is None:
        return fingerprint_html(data, url=url)
    return fingerprint_html(data, url=url, version=version)


@pytest.mark.parametrize("home", ["https://example.org/", "/", "https://old.example.net/"])
def test_the_brand_header_is_the_site_s_and_its_menu_no_edit_of_the_post(home: str) -> None:
    # The brand <h1> is a link to the home page (the site's, or the host the site moved from,
    # which its pages link until it rebuilds): the site's name, not the post's headline.
    page = pure(home=home)
    assert printed(page) == printed(pure(home=home, menu="Tags Archives About Links"))
    kept = text_of(reduce_html(page, url=POST_URL))
    assert "Steep it for three minutes." in kept
    assert "Archives" not in kept
    # The post's own words still are an edit, and its own header (its <h1>, tags and date) is
    # its title block: a tag added there is one too.
    assert printed(page) != printed(pure(home=home, text="Steep it for two minutes."))
    assert "Green tea" in kept.partition("//")[2]
    assert printed(page) != printed(pure(home=home, tags="tea green"))


def test_as_on_the_posts_with_an_h1_of_their_own() -> None:
    # A post whose text holds an <h1> never read the headers: the menu is no edit of it either.
    own = pure(h1="Brewing")
    assert printed(own) == printed(pure(h1="Brewing", menu="Tags Archives About Links"))


def test_version_12_read_the_brand_header_as_the_title_block() -> None:
    # A state of version 12 keeps its bytes: the brand header was the post's title block.
    page = pure()
    links = pure(menu="Tags Archives About Links")
    assert printed(page, version=PREVIOUS) != printed(links, version=PREVIOUS)


def headed(title: str, headline: str, said: str, rest: str) -> bytes:
    """A page without a region: its ``title``, a header holding the ``headline`` <h1> and what
    is ``said`` beside it, then the ``rest``."""
    return (
        f"<title>{title}</title><header><h1>{headline}</h1><p>{said}</p></header>{rest}"
    ).encode()


def test_an_unlinked_brand_is_the_site_s_name_when_a_link_above_says_it() -> None:
    # The <h1> is no link, but the site's name links to the home elsewhere (the footer): the
    # words of a link to a page above the page.
    rest = (
        "<header><h1>Green tea</h1><p>2016-02-01</p></header><p>Steep it for three minutes.</p>"
        '<footer><a href="/">Leaf</a></footer>'
    )
    menu = headed("Green tea | Leaf", "Leaf", "Tags Archives", rest)
    assert printed(menu) == printed(menu.replace(b"Archives", b"Archives Links"))


def test_a_headline_that_names_a_product_linked_elsewhere_stays_the_page_s() -> None:
    # A page about a program, its <h1> the program's name, linking the program's home in its
    # text: an <h1> is the site's name only when it is that link, not when the page holds one.
    rest = '<p>Get it at <a href="https://leafcutter.example/">Leafcutter</a>.</p>'
    page = headed("Leafcutter | Notes", "Leafcutter", "By Ann, 2016", rest)
    assert printed(page) != printed(page.replace(b"2016", b"2017"))


def test_a_home_page_keeps_its_hero() -> None:
    # Docusaurus's home page: the hero's <h1> is the site's name, but no page is above the home
    # (the brand's link there leads to the page itself): its headline and tagline are its own.
    nav = '<nav><a href="/">Leaf</a><a href="/intro">Docs</a></nav>'
    home = nav.encode() + headed("Home | Leaf", "Leaf", "Count the tea.", "<main>Counts</main>")
    assert printed(home, HOME_URL) != printed(home.replace(b"tea.", b"teas."), HOME_URL)


def test_a_title_block_whose_h1_is_the_page_s_stays() -> None:
    # Quarto's title block, odoc's preamble: an <h1> no link names is the page's own headline.
    quarto = (
        b"<title>Book - 1 What is it?</title><body><main><header id=title-block-header>"
        b"<h1>1 What is it?</h1><p>Ann Lee</p></header><p>Text.</p></main></body>"
    )
    assert "Ann Lee" in reduce_html(quarto, url=POST_URL)
    odoc = (
        b"<title>Make (pkg.Client.Make)</title><body><nav><a href='../index.html'>Up</a></nav>"
        b"<header class=odoc-preamble><h1>Module <code>Client.Make</code></h1><p>Builds a "
        b"client.</p></header><div class=odoc-content><p>val run : unit</p></div></body>"
    )
    url = "https://example.org/pkg/Client/Make/index.html"
    assert "Builds a client." in reduce_html(odoc, url=url)
