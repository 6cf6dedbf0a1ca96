"""An article left open ends where an element that holds it ends, as a browser's parser reads
it (fingerprint version 13, issue 79); so does furniture left open, a breadcrumb is its list of
crumbs, and a lone article that is a card is no region (version 13 amended). Pages shaped like
Hexo yilia-plus's and a Hugo port of HTML5 UP Editorial's (structure copied, text our own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitutil import commit, make_repo
from htmlutil import text_of
from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint._structure import END_MARKERS
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)
from treedates import WHEN, at, built_lastmods

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/tags/tea/index.html"
ARTICLE_END = "\x02A\x03"


def site_page(title: str, article: str, year: str) -> bytes:
    """A yilia-plus page: its section holding ``article``, then the site's footer."""
    footer = f'<footer class="footer"><div class=outer>© 2019-{year} Leaf</div></footer>'
    main = f"<main class=content><section class=outer>{article}</section>{footer}</main>"
    return f"<title>{title} | Leaf</title><body>{main}</body>".encode()


def tag_page(year: str, listed: str = "Green tea") -> bytes:
    """yilia-plus's tag page: ``article.articles`` never closed (one ``</article>`` for two)."""
    teaser = (
        f'<article class="archive-article"><header><h2><a href="/2020/tea/">{listed}</a></h2>'
        "</header><p>A post about tea.</p></article>"
    )
    opened = "<article class=articles><h1 class=archive-title>tea</h1><div class=archives>"
    return site_page("Tag: tea", f"{opened}{teaser}</div>", year)


def post(year: str) -> bytes:
    """The same theme's post: its article closed, the footer after it."""
    own = "<header><h1>Green tea</h1></header><p>Steep it for three minutes.</p>"
    return site_page("Green tea", f"<article class=article>{own}</article>", year)


def printed(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(data, url=URL, version=version)


def test_the_site_s_footer_after_an_article_left_open_is_furniture() -> None:
    # grobenis-yiliaplus at 33920e81c7: the footer's "2019-2020" -> "2019-2021" on 28 list pages.
    assert printed(tag_page("2020")) == printed(tag_page("2021"))
    assert "2021" not in reduce_html(tag_page("2021"), url=URL)
    # As on a post, where the theme closes its article.
    assert printed(post("2020")) == printed(post("2021"))
    # What the page lists still counts.
    assert printed(tag_page("2021")) != printed(tag_page("2021", listed="Black tea"))
    # (version 12 read the footer inside the article: a state of 12 is compared by 12's bytes)
    assert printed(tag_page("2020"), PREVIOUS) != printed(tag_page("2021"), PREVIOUS)


def test_an_element_opened_inside_the_article_closes_inside_it() -> None:
    # A <div> of the article's own closed, an article's own footer, a closed article: as before.
    page = (
        b"<title>Green tea | Leaf</title><body><div class=wrap><article><div><h1>Green tea</h1>"
        b"</div><p>Text.</p><footer>Tags: tea</footer></article><footer>Site</footer></div></body>"
    )
    assert text_of(reduce_html(page, url=URL)) == "Green tea | Leaf Green tea Text. Tags: tea"
    assert reduction.in_order(page.decode(), FINGERPRINT_VERSION).count(ARTICLE_END) == 1


def test_a_stray_end_tag_closes_nothing() -> None:
    # A </div> with no <div> open is no end of anything (a browser ignores it).
    text = "<article><p>a</p></div></section><p>b</p></article>"
    marked = reduction.in_order(text, FINGERPRINT_VERSION)
    assert marked.count(ARTICLE_END) == 1
    assert marked.index(ARTICLE_END) > marked.index("b")


def test_an_outer_end_tag_closes_every_article_open_inside() -> None:
    text = "<div><article><section><article><p>a</p></section><p>b</p></div><p>c</p>"
    marked = reduction.in_order(text, FINGERPRINT_VERSION)
    # </section> closes the inner article, </div> the outer one; "c" stands outside both.
    assert marked.count(ARTICLE_END) == 2
    assert marked.index("a") < marked.index(ARTICLE_END) < marked.index("b")
    assert marked.rindex(ARTICLE_END) < marked.index("c")
    assert reduction.in_order(text, PREVIOUS).count(ARTICLE_END) == 0


NAV_END = "\x02N\x03"

# The sidebar's mini-post: one <article>, the same on every page of the site.
MINI_POST = (
    '<section class="nav"><div class="mini-posts"><article>'
    '<span class="mini-post-misc"><a href="/misc">miscellaneous</a></span>'
    '<a href="/misc" class="image"><img src="/images/Smile.png" alt=""></a></article></div>'
    "</section>"
)


def sidebar(mini_post: bool) -> str:
    """The sidebar of every page: the menu, the mini-post (from the theme's later release)
    and the footer."""
    menu = '<nav id="menu"><h2>hk</h2><ul><li><a href="/">Homepage</a></li></ul></nav>'
    footer = '<footer id="footer"><p class="copyright">Powered by Hugo.</p></footer>'
    mini = MINI_POST if mini_post else ""
    return f'<div id="sidebar"><div class="inner">{menu}{mini}{footer}</div></div>'


def page(title: str, content: str, mini_post: bool = True) -> bytes:
    """A page of the site: the banner, its ``content`` and the sidebar; no <main>."""
    banner = '<header id="header"><h3><a href="/">ann lee</a></h3></header>'
    body = (
        f'<div id="wrapper"><div id="main"><div class="inner">{banner}{content}</div></div>'
        f"{sidebar(mini_post)}</div>"
    )
    head = f"<!DOCTYPE HTML><html><head><title>{title}</title></head>"
    return f"{head}<body>{body}</body></html>".encode()


def editorial_tag_page(tag: str, posts: list[str], mini_post: bool = True) -> bytes:
    """A tag page: its breadcrumb <nav> never closed, the page's list of posts inside it."""
    listed = "".join(
        f'<li><span class="post-meta">Apr 1{n}, 2020 <a class="tag__link" href="/tags/{tag}/">'
        f'{tag}&nbsp;</a></span><h3><a class="post-link" href="/posts/{n}/">{name}</a></h3>'
        f"<blockquote><p>What {name} is about.</p></blockquote></li>"
        for n, name in enumerate(posts)
    )
    crumbs = (
        '<nav class="breadcrumb breadcrumb_type5" aria-label="Breadcrumb">'
        '<ol class="breadcrumb__list r-list"><li class="breadcrumb__group"><h3>'
        '<a href="/tags" class="breadcrumb__point r-link">Tags</a><span> &raquo;</span></h3></li>'
        f'<li class="breadcrumb__group"><h3>{tag.upper()}</h3></li>'
        '<ul class="browse-tags"><li><a href="/tags">Browse tags</a></li></ul></ol>'
    )
    content = f'<section>{crumbs}<div class="blogs"><ul class="alt">{listed}</ul></div></section>'
    return page(tag, content, mini_post)


def post_page(name: str, text: str, mini_post: bool = True) -> bytes:
    """A post: its own text in a <section>, its title an <h1>; no <article> of its own."""
    content = f"<section><header><h1>{name}</h1></header><p>{text}</p></section>"
    return page(name, content, mini_post)


TEAS = ["Green tea", "Black tea"]


def test_a_tag_page_s_list_inside_its_unclosed_breadcrumb_counts() -> None:
    # harshakokel-editorial at 6222cbbd9d: a post added to a tag's list dated no tag page.
    before, after = (
        editorial_tag_page("tea", TEAS, False),
        editorial_tag_page("tea", [*TEAS, "Oolong"], False),
    )
    assert printed(before) != printed(after)
    assert "What Oolong is about." in text_of(reduce_html(after, url=URL))
    # The crumbs are still navigation.
    renamed = editorial_tag_page("tea", TEAS, False).replace(b"Browse tags", b"All tags")
    assert printed(before) == printed(renamed)
    # (version 12 left the list out: a state of 12 is compared by 12's bytes)
    assert printed(before, PREVIOUS) == printed(after, PREVIOUS)


def test_a_lone_sidebar_card_is_no_region_of_the_page_beside_it() -> None:
    # From 90f7ad1a1a the sidebar's mini-post is the only <article> of a tag page.
    before, after = editorial_tag_page("tea", TEAS), editorial_tag_page("tea", [*TEAS, "Oolong"])
    assert printed(before) != printed(after)
    assert "What Green tea is about." in text_of(reduce_html(before, url=URL))
    # A post, its <h1> beside the mini-post: its own text counts, not the mini-post alone.
    post = post_page("Green tea", "Steep it for three minutes.")
    edited = post_page("Green tea", "Steep it for two minutes.")
    assert printed(post) != printed(edited)
    # (version 12 read the mini-post as the region: neither edit was seen)
    assert printed(before, PREVIOUS) == printed(after, PREVIOUS)
    assert printed(post, PREVIOUS) == printed(edited, PREVIOUS)


@pytest.mark.parametrize(
    "own",
    [
        # the page's text, one link in it
        '<article><h1>Green tea</h1><p>Steep it, as <a href="/ann/">Ann</a> says.</p></article>',
        # a teaser's shape: its heading a link, its excerpt words of its own
        '<article><h2><a href="/tea/">Green tea</a></h2><p>Steep it.</p></article>',
        # a permalink beside the page's words
        '<article><a href="#top">Green tea</a> Steep it.</article>',
        # links to several pages: a list (a tag cloud), no card
        '<article><a href="/tags/steep-it/">Steep it</a> <a href="/tags/tea/">tea</a></article>',
        # a link to another site's page: no card of this site's
        '<article><a href="https://example.com/steep-it/">Steep it</a></article>',
    ],
)
def test_a_lone_article_with_words_of_its_own_is_still_the_region(own: str) -> None:
    data = (
        "<title>Green tea | Leaf</title><body><div class=brand>Kettle</div>"
        f"{own}<div class=end>Read more</div></body>"
    ).encode()
    kept = text_of(reduce_html(data, url=URL))
    assert "Steep it" in kept
    assert "Kettle" not in kept
    assert "Read more" not in kept


# A page whose only article is a card: its words all a link to one other page (the mini-post's
# shape, a picture and a caption), the page's own text beside it.
CARD_PAGE = (
    "<title>Green tea</title><body><div class=post><h2>Green tea</h2><p>{}</p></div><article>"
    '<a href="/misc/">More</a><a href="/misc/"><img src="/smile.png" alt=""></a></article></body>'
)


def test_a_lone_article_that_is_a_card_is_no_region() -> None:
    steep, boil = (CARD_PAGE.format(text).encode() for text in ("Steep it.", "Boil it."))
    assert printed(steep) != printed(boil)
    assert "Steep it." in text_of(reduce_html(steep, url=URL))
    assert printed(steep, PREVIOUS) == printed(boil, PREVIOUS)
    # On the page the card leads to, it is the same block: no region there either.
    on_misc = CARD_PAGE.format("Steep it.").encode()
    assert "Steep it." in text_of(reduce_html(on_misc, url="https://example.org/misc/"))


def test_furniture_left_open_ends_where_its_holder_ends() -> None:
    # A menu <nav> never closed inside the banner's <div>: the page's text after it counts.
    def opened(text: str) -> bytes:
        return (
            "<title>Tea</title><body><div class=top><nav><ul><li><a href='/'>Home</a></li></ul>"
            f"</div><p>{text}</p></body>"
        ).encode()

    assert printed(opened("Steep it.")) != printed(opened("Boil it."))
    assert text_of(reduce_html(opened("Steep it."), url=URL)).endswith("Tea Steep it.")
    assert printed(opened("Steep it."), PREVIOUS) == printed(opened("Boil it."), PREVIOUS)


@pytest.mark.parametrize("name", ["aside", "header", "footer"])
def test_each_furniture_element_left_open_closes_with_its_holder(name: str) -> None:
    text = f"<section><{name}><p>Site</p></section><p>Own</p>"
    marked = reduction.in_order(text, FINGERPRINT_VERSION)
    end = END_MARKERS[name]
    assert marked.index("Site") < marked.index(end) < marked.index("Own")
    # (version 12: left open to the end of the text)
    assert end not in reduction.in_order(text, PREVIOUS)


def test_an_outer_nav_is_not_closed_by_a_breadcrumb_nested_in_it() -> None:
    # The breadcrumb ends with its list; its own </nav> closes nothing more: the menu after it
    # is still the outer nav's.
    data = (
        b"<title>Tea</title><body><nav class=menu><nav aria-label=breadcrumb><ol><li>Home</li>"
        b"</ol></nav><ul><li>Menu item</li></ul></nav><p>Steep it.</p></body>"
    )
    assert text_of(reduce_html(data, url=URL)).endswith("Tea Steep it.")


def test_a_breadcrumb_without_a_list_is_the_whole_element() -> None:
    data = (
        b"<title>Tea</title><body><div class=breadcrumbs><a href='/'>Home</a> / Tea</div>"
        b"<p>Steep it.</p></body>"
    )
    assert text_of(reduce_html(data, url=URL)).endswith("Tea Steep it.")


def test_a_closed_breadcrumb_reads_as_before() -> None:
    data = (
        b"<title>Tea</title><body><nav aria-label=Breadcrumb><ol><li><a href='/'>Home</a></li>"
        b"</ol></nav><main><h1>Tea</h1><p>Steep it.</p></main></body>"
    )
    marked = reduction.in_order(data.decode(), FINGERPRINT_VERSION)
    assert marked.count(NAV_END) == 1
    assert text_of(reduce_html(data, url=URL)).endswith("Tea Steep it.")


def test_a_post_added_to_a_tag_s_list_dates_its_tag_page(tmp_path: Path) -> None:
    # harshakokel-editorial: the mini-post put in every page's sidebar (the theme's release)
    # dates no page; a post listed on the tea tag dates that tag's page, not the cups tag's.
    def site(teas: list[str], mini_post: bool) -> dict[str, str]:
        pages = {
            "tags/tea/index.html": editorial_tag_page("tea", teas, mini_post),
            "tags/cups/index.html": editorial_tag_page("cups", ["Mugs", "Saucers"], mini_post),
        }
        for n, name in enumerate(["Green tea", "Black tea", "Mugs", "Saucers", "Kettles"]):
            pages[f"posts/{n}/index.html"] = post_page(name, f"What {name} is.", mini_post)
        return {path: data.decode() for path, data in pages.items()}

    repo = make_repo(tmp_path / "site")
    commit(repo, site(TEAS, False), WHEN[0])
    commit(repo, site(TEAS, True), WHEN[1])
    commit(repo, site([*TEAS, "Oolong"], True), WHEN[2])
    found = built_lastmods(repo)
    assert found["tags/tea"] == at(2), found
    assert found["tags/cups"] == at(0), found
    assert found["posts/0"] == at(0), found
