"""An article left open ends where an element that holds it ends, as a browser's parser reads
it (fingerprint version 13, issue 79). Pages shaped like Hexo yilia-plus's (structure copied,
text our own)."""

from __future__ import annotations

from htmlutil import text_of
from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)

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
