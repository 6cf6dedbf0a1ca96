"""A page's headline and article, as fingerprint version 13 tells them from the site's (issue 80,
the two faults llms-full.txt exposed when it read the fingerprint's region): a header that holds
the <h1> of a page without a region is the page's own unless its <title> names another heading,
and a title part that is the site's name (the words of a link to a page above it) names no page.
Pages shaped like odoc 2.4's parameter pages and Hexo Sakura's posts (structure copied, text our
own)."""

from __future__ import annotations

from sitemill.lastmod.fingerprint._titledarticle import site_names
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)
from sitemill.lastmod.fingerprint.regionplan import region_plan

PREVIOUS = max(EARLIER_VERSIONS)
ODOC_URL = "https://example.org/pkg/Client/Make/argument-1-_/index.html"
POST_URL = "https://example.org/2021/06/05/reading/"


def printed(data: bytes, url: str, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(data, url=url, version=version)


def parameter(headline: str = "Make._", *, title: str = "_ (pkg.Client.Make._)") -> bytes:
    """odoc's parameter page: no <main>, its <h1> in the preamble header, no other heading."""
    head = f"<head><title>{title}</title></head>" if title else "<head></head>"
    return (
        f"<!DOCTYPE html><html>{head}<body class=odoc>"
        '<nav class="odoc-nav"><a href="../index.html">Up</a> - _</nav>'
        f'<header class="odoc-preamble"><h1>Parameter <code><span>{headline}</span></code></h1>'
        '</header><div class="odoc-content"><div class="spec">val chunk_size : int</div>'
        "<p>Size of chunks.</p></div></body></html>"
    ).encode()


def test_the_header_holding_the_h1_of_a_page_without_a_region_is_its_own() -> None:
    # The title "_ (pkg.Client.Make._)" names the <h1> by no part ("_" has no letters), and
    # names no other heading: nothing tells the <h1> from a motto, and it is the page's one.
    renamed = parameter("Make_async._")
    assert printed(parameter(), ODOC_URL) != printed(renamed, ODOC_URL)
    assert "Parameter Make._" in reduce_html(parameter(), url=ODOC_URL)
    # A page without a <title> (Hexo Sakura's analytics page) alike.
    assert printed(parameter(title=""), ODOC_URL) != printed(
        parameter("Make_async._", title=""), ODOC_URL
    )
    # Version 12, the previous one, read the header as a site's banner (its states keep it).
    assert printed(parameter(), ODOC_URL, PREVIOUS) == printed(renamed, ODOC_URL, PREVIOUS)


def test_a_motto_stays_the_site_s_where_the_title_names_another_heading() -> None:
    # Hexo NexT's list page without a region: the <title> names the <h2>, the page's headline.
    def tag_page(motto: str) -> bytes:
        return (
            f"<title>Tag: tea | Leaf</title><header><h1>{motto}</h1></header>"
            "<h2>Tag: tea</h2><p>Posts about tea.</p>"
        ).encode()

    url = "https://example.org/tags/tea/"
    assert printed(tag_page("Brewed slowly."), url) == printed(tag_page("Brewed fast."), url)


def post(card: str = "Writes about books.", *, site_link: str = "/") -> bytes:
    """Hexo Sakura's post: the site's name linked from the banner, the post's <h1> in a header
    before <main>, the article in <main> beside the author card, which names the site."""
    return (
        "<html><head><title>Reading | Ann's Notes</title></head><body>"
        '<header class="site-header" role="banner">'
        f'<a href="{site_link}"><span>Ann\'s Notes</span></a></header>'
        '<header class="pattern-header"><h1>Reading</h1><p>2021-6-5</p></header>'
        '<main id="main"><article class="post"><div class="entry-content">'
        "<p>Nothing written yet.</p></div></article>"
        f'<section class="author-profile"><a href="/">Ann\'s Notes</a><p>{card}</p></section>'
        "</main></body></html>"
    ).encode()


def test_a_title_part_that_is_the_site_s_name_makes_no_article_a_teaser() -> None:
    # "Ann's Notes" is the words of a link to the site's home: the site's name. The article
    # holds no other part of the title, and none stands beside it: it is the post, and the
    # author card beside it (on every post alike) is not counted.
    assert printed(post(), POST_URL) == printed(post("Writes about films."), POST_URL)
    reduced = reduce_html(post(), url=POST_URL)
    assert "Nothing written yet." in reduced
    assert "Reading" in reduced  # (its title block before <main>)
    assert "Writes about" not in reduced
    # Version 12 read the article as a teaser the page lists, and counted the card.
    films = post("Writes about films.")
    assert printed(post(), POST_URL, PREVIOUS) != printed(films, POST_URL, PREVIOUS)


def test_the_site_s_name_is_a_link_to_a_page_above_this_one() -> None:
    # A link to the home, to a section above the page, absolute on the page's host or not.
    marked = (
        "\x01H/\x01Ann\x01E\x01 \x01Hhttps://example.org/2021/\x01The \x01Ix.png\x01Year\x01E\x01"
    )
    assert site_names(marked, POST_URL) == {"ann", "theyear"}
    # Not a link to the page itself, below it, beside it, elsewhere, or with a query.
    for target in (POST_URL, "/2021/06/05/reading/notes/", "/2022/", "https://other.org/", "/?p=1"):
        assert site_names(f"\x01H{target}\x01Ann\x01E\x01", POST_URL) == frozenset()
    # No URL: no page is above the page.
    assert site_names(marked, "") == frozenset()
    # A link that is no site name (to another post) leaves the title's part naming the page.
    elsewhere = post(site_link="/about/").replace(b'<a href="/">', b'<a href="/about/">')
    assert printed(elsewhere, POST_URL) != printed(
        elsewhere.replace(b"about books", b"about films"), POST_URL
    )


def test_llms_reads_the_same_region() -> None:
    # fingerprint.regionplan reads the region select reads: the article and the title block.
    plan = region_plan(post(), POST_URL)
    assert plan.article is not None and plan.text.startswith("<article", plan.article)
    assert plan.title_block is not None
    page = region_plan(parameter(), ODOC_URL)
    assert page.root is None
    assert all(not page.text.startswith("<header", at) for at in page.left_out)
