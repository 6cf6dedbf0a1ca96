"""A site's banner inside the main region whose <h1> (the blog's name) is inside a link to the
home is no title block of the page: that <h1> is a card's heading, not the page's headline
(fingerprint version 13, amended: issue 79, principle 10; it retires session 95's rule that read
such a header by whether the page's <title> names its <h1>). Pages shaped like reedlin2002's
Hexo theme (structure copied, text our own): ``<main>`` opens with the site's header, its <h1>
the blog's name in a link to the home and its menu, then the post's article, its copyright block
and "further reading" cards, each a link to another post with its cover, title and date."""

from __future__ import annotations

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    fingerprint_html,
    reduce_html,
)

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/2025/06/05/tea/index.html"


def card(path: str, title: str, day: str) -> str:
    """A "further reading" card: one link holding the post's cover, title and date."""
    cover = f'<div><img src="/images/{path[-3:]}.png" alt="{title}"></div>'
    named = f'<span class="related-card-title">{title}</span>'
    return (
        f'<a class="related-card" href="/{path}/">{cover}<div>{named}<span>{day}</span></div></a>'
    )


def post(
    *,
    menu: str = "Home Posts",
    cards: tuple[str, ...] = ("Black tea",),
    text: str = "Steep it for three minutes.",
    title: str = "Green tea",
) -> bytes:
    """A post of the theme: the site's header (the blog's name as <h1>, the ``menu``) inside
    ``<main>``, the article, then the copyright block and the ``cards``."""
    links = "".join(f'<li><a href="/{word.lower()}/">{word}</a></li>' for word in menu.split())
    header = (
        f'<header id="header"><a href="/"><h1>Leaf</h1></a><div id="nav"><ul>{links}</ul></div>'
        "</header>"
    )
    article = (
        f'<article class="post"><header><h1 class="posttitle">{title}</h1></header>'
        f'<div class="content"><p>{text}</p></div></article>'
    )
    copyright_ = f'<div class="post-copyright">Author Lin. Link <a href="{URL}">{URL}</a></div>'
    related = "".join(
        card(f"2026/07/1{at}/{name.split()[0].lower()}", name, f"2026-07-1{at}")
        for at, name in enumerate(cards)
    )
    section = (
        '<section class="post-related" aria-label="Further reading"><span>Further reading</span>'
        f"{related}</section>"
    )
    main = f'<main role="main">{header}{article}{copyright_}{section}</main>'
    return f"<html><head><title>{title}</title></head><body>{main}</body></html>".encode()


def printed(data: bytes, version: int | None = None) -> str:
    if version is None:
        return fingerprint_html(data, url=URL)
    return fingerprint_html(data, url=URL, version=version)


def test_a_banner_in_main_is_furniture_and_the_post_is_its_article() -> None:
    kept = text_of(reduce_html(post(), url=URL))
    assert kept == "Green tea Green tea Steep it for three minutes."
    # The cards of other posts beside it (a new post pushed into every post's block), and the
    # site's menu, are no edit of the post.
    assert printed(post()) == printed(post(cards=("Oolong", "Black tea")))
    assert printed(post()) == printed(post(menu="Home Archive Projects About"))
    # Its own words and its headline still are.
    assert printed(post()) != printed(post(text="Steep it for two minutes."))
    assert printed(post()) != printed(post(title="Green teas"))


def test_version_12_read_the_banner_as_the_page_s_title_block() -> None:
    # A state of version 12 is compared by 12's bytes: the banner and the cards counted.
    assert printed(post(), PREVIOUS) != printed(post(cards=("Oolong", "Black tea")), PREVIOUS)
    assert "Oolong" in reduce_html(post(cards=("Oolong",)), version=PREVIOUS, url=URL)


def test_a_header_whose_h1_the_title_names_is_the_page_s_title_block() -> None:
    # Quarto's title block: a page-level <header> inside <main> holding the page's <h1>, its
    # authors and date beside it, the title naming it.
    page = (
        b"<title>Book - 1 What is it?</title><body><main><header id=title-block-header>"
        b"<h1>1 What is it?</h1><p>Ann Lee</p></header><p>Text.</p></main></body>"
    )
    kept = "1 What is it? | Book 1 What is it? Ann Lee Text."
    assert text_of(reduce_html(page, url=URL)) == kept
    # Titled otherwise, the header still holds the page's one <h1>, in no link: its title
    # block, whatever the title says (a title is not read for it).
    banner = page.replace(b"Book - 1 What is it?", b"Book - 2 Why")
    assert text_of(reduce_html(banner, url=URL)) == "2 Why | Book 1 What is it? Ann Lee Text."
