"""What another page says is that page's: teasers (from fingerprint version 6)."""
# Shaped like a Jekyll Minimal Mistakes blog (structure copied, text our own): a post with its
# author sidebar and "You may also enjoy" teasers inside role=main, a tag page whose headline stands
# over the teasers of each tag, and a home page whose headline stands in a hero before role=main and
# whose one article, after its intro, lists the recent posts. Each teaser: an <article> whose <h2>
# links to the post, its reading time, its excerpt; on the home page an image linked to the post.

from __future__ import annotations

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import (
    FINGERPRINT_VERSION,
    PageMemo,
    fingerprint_html,
    reduce_html,
)
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE

BASE = "https://blog.example.org"
POSTS = {
    "/life/road-trip/": ("Road Trip 2025", "We drove four thousand miles in nine days and"),
    "/tech/editor-setup/": ("My Editor Setup", "A tour of the plugins I use every day for"),
    "/tech/notes/": ("Taking Notes", "Slides of a talk I gave on keeping notes"),
}
SIDEBAR = (
    "<div class='sidebar sticky'><div itemscope><h3 class=author__name>A. Writer</h3>"
    "<div class=author__bio><p>Engineer.</p></div><ul><li><a href=https://github.com/a>"
    "GitHub</a></li></ul></div></div>"
)


def teaser(
    path: str, minutes: int = 2, excerpt: str = "", title: str = "", image: bool = False
) -> str:
    name, words = POSTS[path]
    picture = (
        f"<div class=posts__item-teaser><a href={path} rel=permalink><img src=/img{path}x.jpg>"
        "</a></div>"
        if image
        else ""
    )
    return (
        "<div class=list__item>\n<article class=archive__item itemscope>\n"
        f"<h2 class=archive__item-title itemprop=headline>\n<a href={path} rel=permalink>"
        f"{title or name}\n</a>\n</h2>\n{picture}<p class=page__meta><span class=readtime>"
        f"<i class='far fa-clock'></i> {minutes} minute read</span></p>\n"
        f"<p class=archive__item-excerpt itemprop=description>{excerpt or words}...</p>\n"
        "</article>\n</div>\n"
    )


def post(body: str = "<p>Ctags make jumping to a symbol quick.</p>", related: str = "") -> bytes:
    related = related or teaser("/life/road-trip/") + teaser("/tech/notes/")
    return (
        "<html><head><title>Getting started with tags - A. Writer</title></head><body>"
        "<div class=masthead><nav><a href=/>Home</a></nav></div>\n"
        f"<div id=main role=main>\n{SIDEBAR}\n"
        "<article class=page itemscope>\n<div class=page__inner-wrap>\n<header>"
        "<h1 id=page-title class=page__title>Getting started with tags</h1>"
        "<p class=page__meta><i class='far fa-clock'></i> 3 minute read</p></header>\n"
        f"<section class=page__content>\n{body}\n</section>\n<footer class=page__meta>"
        "<p>Tags: <a href=/tags/#vim>Vim</a></p></footer>\n<nav class=pagination>"
        "<a href=/tech/notes/>Previous</a></nav>\n</div>\n</article>\n"
        f"<div class=page__related>\n<h2 class=page__related-title>You may also enjoy</h2>\n"
        f"<div class=grid__wrapper>\n{related}</div>\n</div>\n</div>\n"
        "<div id=footer class=page__footer><footer>© 2025</footer></div></body></html>"
    ).encode()


def tag_page(entries: str = "") -> bytes:
    entries = entries or teaser("/life/road-trip/") + teaser("/tech/editor-setup/")
    return (
        "<html><head><title>Posts by Tag - A. Writer</title></head><body>\n"
        f"<div id=main role=main>\n{SIDEBAR}\n<div class=archive>\n"
        "<h1 id=page-title class=page__title>Posts by Tag</h1>\n<ul class=taxonomy__index>"
        "<li><a href=#driving><strong>Driving</strong> <span>2</span></a></li></ul>\n"
        "<section id=driving class=taxonomy__section>\n<h2 class=archive__subtitle>Driving</h2>\n"
        f"<div class=entries-list>\n{entries}</div>\n<a href=#page-title class=back-to-top>"
        "Back to top</a>\n</section>\n</div>\n</div>\n</body></html>"
    ).encode()


def home(intro: str = "Welcome to my website.", entries: str = "") -> bytes:
    entries = entries or "".join(teaser(path, image=True) for path in POSTS)
    return (
        "<html><head><title>A. Writer</title></head><body>\n<div class=page__hero--overlay>\n"
        "<div class=wrapper>\n<h1 id=page-title class=page__title>A. Writer</h1>\n"
        "<p class=page__lead>Notes and posts.</p>\n</div>\n</div>\n<div id=main role=main>\n"
        "<article class=splash itemscope>\n<section class=page__content itemprop=text>\n"
        f"<p>{intro}</p>\n"
        "<div class=feature__wrapper><div class=archive__item><h2 class=archive__item-title>"
        "Contact Me</h2><div class=archive__item-excerpt><p>Write to me.</p></div></div></div>\n"
        f"<h3 id=recent-posts class=archive__subtitle>Recent posts</h3>\n{entries}"
        "</section>\n</article>\n</div>\n</body></html>"
    ).encode()


def fingerprint(page: bytes, path: str, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(page, version=version, url=BASE + path)


ROAD_EDITED = teaser("/life/road-trip/", minutes=3, excerpt="Our fourth year on the road, and")


def test_a_tag_page_whose_teaser_excerpt_changed_keeps_its_fingerprint() -> None:
    # A teased post was edited: its excerpt and reading time changed on every list of it.
    before = tag_page()
    after = tag_page(ROAD_EDITED + teaser("/tech/editor-setup/"))
    assert fingerprint(after, "/tags/") == fingerprint(before, "/tags/")


@pytest.mark.parametrize(
    "entries",
    [
        # One more post listed.
        teaser("/life/road-trip/") + teaser("/tech/editor-setup/") + teaser("/tech/notes/"),
        # One dropped.
        teaser("/life/road-trip/"),
        # Reordered.
        teaser("/tech/editor-setup/") + teaser("/life/road-trip/"),
        # Retitled.
        teaser("/life/road-trip/", title="Road Trip, 2025") + teaser("/tech/editor-setup/"),
    ],
)
def test_what_a_list_page_lists_moves_it(entries: str) -> None:
    assert fingerprint(tag_page(entries), "/tags/") != fingerprint(tag_page(), "/tags/")


def test_a_teaser_counts_as_its_link_and_title() -> None:
    reduced = reduce_html(tag_page(teaser("/life/road-trip/")), url=BASE + "/tags/")
    assert reduced.endswith(
        f"Driving{MARK_EDGE}H/life/road-trip{MARK_EDGE}Road Trip 2025"
        f"{MARK_EDGE}E{MARK_EDGE}Back to top"
    )
    assert "minute read" not in reduced


def test_a_post_whose_related_teasers_changed_keeps_its_fingerprint() -> None:
    # Another post's excerpt was edited, and a new post took a place in "You may also enjoy".
    before = post()
    after = post(related=ROAD_EDITED + teaser("/tech/editor-setup/"))
    assert fingerprint(after, "/tech/tags/") == fingerprint(before, "/tech/tags/")
    assert "Road Trip" not in text_of(reduce_html(before, url=BASE + "/tech/tags/"))


def test_a_post_whose_own_paragraph_changed_beside_its_teasers_moves() -> None:
    edited = post(body="<p>Ctags make jumping to any symbol quick.</p>")
    assert fingerprint(edited, "/tech/tags/") != fingerprint(post(), "/tech/tags/")


def test_a_home_page_whose_intro_changed_moves() -> None:
    edited = home(intro="Welcome to my new website.")
    assert fingerprint(edited, "/") != fingerprint(home(), "/")


def test_a_home_page_lists_its_recent_posts_by_link_and_title() -> None:
    # Its one article (the headline stands in the hero before role=main) lists the recent posts:
    # teasers inside the page's own article count as their links and titles.
    edited = home(
        entries=ROAD_EDITED
        + teaser("/tech/editor-setup/", image=True)
        + teaser("/tech/notes/", image=True)
    )
    assert fingerprint(edited, "/") == fingerprint(home(), "/")
    fewer = home(
        entries=teaser("/tech/editor-setup/", image=True) + teaser("/tech/notes/", image=True)
    )
    assert fingerprint(fewer, "/") != fingerprint(home(), "/")
    # Its own words beside them (a feature block) still count.
    assert "Write to me." in reduce_html(home(), url=BASE + "/")


@pytest.mark.parametrize(
    "page",
    [
        # A comment inside the post's article: no heading that links to another page.
        "<main><article><h1>Post</h1><p>Body.</p><article><p>Teaser 1.</p>"
        "<a href=/other/>see</a></article></article></main>",
        # An article beside the post whose heading links to the post itself (a permalink).
        "<main><article><h1>Post</h1></article><article><h2><a href=#part>Part</a></h2>"
        "<p>Teaser 1.</p></article></main>",
        # A list of articles whose headings link to another site.
        "<main><h1>Links</h1><article><h2><a href=https://elsewhere.example/x>X</a></h2>"
        "<p>Teaser 1.</p></article></main>",
        # An article whose first heading holds no link (its link is a "Read more").
        "<main><h1>Blog</h1><article><h2>Other</h2><p>Teaser 1.</p><a href=/other/>Read more</a>"
        "</article></main>",
    ],
)
def test_an_article_that_is_no_teaser_counts_whole(page: str) -> None:
    edited = page.replace("Teaser 1.", "Teaser one.").encode()
    assert fingerprint(edited, "/post/") != fingerprint(page.encode(), "/post/")


def test_a_teaser_that_holds_the_headline_is_no_article_of_the_page() -> None:
    # A list whose first teaser's title is an <h1>: it is not the page's own article, so the
    # teasers beside it are listed, not left out as furniture.
    page = (
        "<main><article><h1><a href=/a/>A</a></h1><p>Teaser 0.</p></article>"
        "<article><h2><a href=/b/>B</a></h2><p>Teaser 1.</p></article></main>"
    )
    reduced = reduce_html(page.encode(), url=BASE + "/")
    assert reduced.endswith(
        f"{MARK_EDGE}H/a{MARK_EDGE}A{MARK_EDGE}E{MARK_EDGE}{MARK_EDGE}H/b{MARK_EDGE}B{MARK_EDGE}E{MARK_EDGE}"
    )


@pytest.mark.parametrize("make", [post, tag_page, home])
@pytest.mark.parametrize("role", [True, False])
def test_teasers_read_the_same_line_by_line(make: object, role: bool) -> None:
    # A real page has a line per tag or so: with its role=main and without, the memo shared by
    # two pages (digest.PageMemo), it reduces as whole.
    assert callable(make)
    memo = PageMemo()
    for version in (12, 13):  # (the computable versions: issue 80)
        page: bytes = make()
        if not role:
            page = page.replace(b" role=main", b"")
        page = page.replace(b"><", b">\n<")
        url = BASE + "/x/"
        whole = reduce_html(page, version=version, url=url)
        assert reduce_html(page, memo=memo, version=version, url=url) == whole


def test_teasers_of_a_page_without_a_region_beside_its_title_block() -> None:
    # No <main>, several articles: the page-level header with the headline the <title> names is
    # the page's own (version 5's title block), and the teasers below it are read all the same.
    page = (
        "<title>Field notes</title><body><header><h1>Field notes</h1></header>"
        "<article><h2><a href=/a/>A</a></h2><p>Teaser 0.</p></article>"
        "<article><h2><a href=/b/>B</a></h2><p>Teaser 1.</p></article></body>"
    )
    edited = page.replace("Teaser 1.", "Teaser one.")
    assert fingerprint(edited.encode(), "/") == fingerprint(page.encode(), "/")
    assert "Field notes" in text_of(reduce_html(page.encode(), url=BASE + "/"))


def card(name: str, excerpt: str, date: str) -> str:
    """A teaser that is one link around its card (Jekyll Chirpy's home page: the <h1> inside)."""
    return (
        f"<article class='card-wrapper card'>\n<a href=/posts/{name}/ class=post-preview>\n"
        f"<div class=card-body><h1 class=card-title>{name.title()}</h1>\n<div class=card-text>"
        f"<p>{excerpt}</p></div>\n<div class=post-meta><i class='far fa-calendar'></i>"
        f"<time>{date}</time><span class=categories>Notes</span></div></div>\n</a>\n</article>\n"
    )


def entry(name: str, excerpt: str, date: str) -> str:
    """A teaser whose one link, with no words, is laid over the card (Hugo PaperMod's lists)."""
    return (
        f"<article class=post-entry>\n<header class=entry-header><h2>{name.title()}</h2>"
        f"</header>\n<div class=entry-content><p>{excerpt}</p></div>\n<footer class=entry-footer>"
        f"<span>{date}</span>&nbsp;·&nbsp;3 min</footer>\n<a class=entry-link aria-label='post"
        f" link to {name}' href={BASE}/posts/{name}/></a>\n</article>\n"
    )


@pytest.mark.parametrize("make", [card, entry])
def test_a_card_teaser_counts_as_its_link_and_heading(make: object) -> None:
    assert callable(make)

    def listing(second: str = "Teaser 1.", date: str = "Jan 2, 2024", name: str = "beta") -> bytes:
        teasers = make("alpha", "Teaser 0.", "Jan 1, 2024") + make(name, second, date)
        return f"<main><div id=post-list>\n{teasers}</div></main>".encode()

    assert fingerprint(listing("Teaser one.", "Mar 3, 2024"), "/") == fingerprint(listing(), "/")
    assert fingerprint(listing(name="gamma"), "/") != fingerprint(listing(), "/")
    reduced = reduce_html(listing(), url=BASE + "/")
    assert reduced.endswith(f"{MARK_EDGE}H/posts/beta{MARK_EDGE}Beta{MARK_EDGE}E{MARK_EDGE}")
    assert "Teaser" not in reduced


def test_a_heading_with_an_image_before_its_link() -> None:
    # The image's mark is read as a mark: its end is never taken for a link's start.
    page = (
        "<main><h1>Blog</h1><article><h2><img src=/i.png>Hello <a href=/p/>P</a></h2>"
        "<p>Teaser 0.</p></article></main>"
    )
    assert reduce_html(page.encode(), url=BASE + "/").endswith(
        f"{MARK_EDGE}H/p{MARK_EDGE}P{MARK_EDGE}E{MARK_EDGE}"
    )


def intro_home(entries: str) -> bytes:
    """Hugo PaperMod's home page: an intro article holds the <h1> (no <title> names it), the
    posts' teasers stand beside it."""
    return (
        "<title>Loose Threads</title><main class=main>\n<article class='first-entry home-info'>"
        "<header class=entry-header><h1>Hi there</h1></header><div class=entry-content><p>Notes "
        f"on mending.</p></div></article>\n{entries}</main>"
    ).encode()


def test_teasers_beside_a_home_pages_intro_article_are_its_list() -> None:
    entries = entry("alpha", "Teaser 0.", "Jan 1, 2024") + entry("beta", "Teaser 1.", "Jan 2")
    page = intro_home(entries)
    assert fingerprint(intro_home(entries.replace("Teaser 1.", "Teaser one.")), "/") == (
        fingerprint(page, "/")
    )
    more = intro_home(entry("gamma", "Teaser 2.", "Jan 3") + entries)
    assert fingerprint(more, "/") != fingerprint(page, "/")
    assert f"{MARK_EDGE}H/posts/beta{MARK_EDGE}Beta{MARK_EDGE}E{MARK_EDGE}" in reduce_html(
        page, url=BASE + "/"
    )


def test_teasers_beside_a_post_without_a_heading_of_their_own_are_listed() -> None:
    # No heading stands between the post and its teasers: they may be the page's list, and are
    # read as one (their links and titles); a reader's excerpt edit still moves nothing.
    page = post().replace(b"<h2 class=page__related-title>You may also enjoy</h2>", b"")
    assert b"You may also enjoy" not in page
    reduced = reduce_html(page, url=BASE + "/tech/tags/")
    assert f"{MARK_EDGE}H/tech/notes{MARK_EDGE}Taking Notes{MARK_EDGE}E{MARK_EDGE}" in reduced
    assert "minute read" not in reduced.partition("Tags:")[2]
