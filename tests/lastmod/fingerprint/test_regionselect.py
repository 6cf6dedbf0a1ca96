"""The content region and the targets (fingerprint.regionselect, fingerprint.targets): furniture
is left out wherever it stands, a region narrows to the page's own article, self-dates and empty
descriptions are left out, and link targets count as a reader follows them."""

from __future__ import annotations

import pytest

import timing
from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import PageMemo, file_url, fingerprint_html, reduce_html
from sitemill.lastmod.fingerprint.targets import target


@pytest.mark.parametrize(
    ("page", "reduction"),
    [
        # Material for MkDocs: the sidebars' nav inside <main>, one article: narrowed to it.
        (
            "<title>T</title><main><div class=md-sidebar><nav>Home Guide</nav></div>"
            "<div class=md-content><article>Text</article></div></main>",
            "T Text",
        ),
        # Starlight: a page footer (prev/next) inside <main>, no article.
        ("<main><h1>H</h1><p>Text</p><footer><a>Next: 44. X</a></footer></main>", "H Text"),
        # Docusaurus: the paginator nav inside <main>, after the article.
        ("<main><article>A</article><nav class=pagination-nav>Newer post</nav></main>", "A"),
        # An article's own header and footer are content.
        ("<main><article><header>H</header>A<footer>tags</footer></article></main>", "H A tags"),
        # A page header inside <main>, outside its articles, is furniture.
        ("<main><header>Site</header><article>a</article><article>b</article></main>", "a b"),
        # The furniture roles, on any element, nested elements of its name counted.
        ("<main><div role=navigation>n<div>m</div>o</div>Text</main>", "Text"),
        ("<main><div role='complementary x'>c</div><p role=search>s</p>T</main>", "T"),
        ("<div role=banner>b</div><p>Body</p><div role=contentinfo>(c)</div>", "Body"),
        # No main region: the whole body without its furniture.
        ("<header>Site</header><p>Body</p><aside>Bio</aside><footer>(c) 2024</footer>", "Body"),
        # No main region, one article left once the furniture is out: narrowed to it.
        ("<title>T</title><p>x</p><article>A</article><aside><article>t</article></aside>", "T A"),
        # Nested furniture of one kind closes with it; one left open runs to the end (an aside
        # in the region: one that leads to another page of the site, fingerprint.asides).
        ("<main><nav>a<nav>b</nav>c</nav>T<aside><a href=/more>open</a>", "T"),
        # Lists of articles stay whole.
        ("<main><article>a</article><article>b</article></main>", "a b"),
        # A region's <main> tag inside an article's header: the article's header is content.
        ("<article><header><nav>crumbs</nav>H</header>A</article>", "H A"),
    ],
)
def test_the_region_without_its_furniture(page: str, reduction: str) -> None:
    assert text_of(reduce_html(page.encode())) == reduction
    memo = PageMemo()
    lines = page.replace(">", ">\n").encode()  # (a line a tag: the same)
    assert reduce_html(lines, memo=memo) == reduce_html(lines)
    assert text_of(reduce_html(lines)) == reduction


@pytest.mark.parametrize(
    "spelling",
    ["x", "x/", "x/index.html", "./x/", "https://example.com/docs/x/", "/docs/x", "../docs/x"],
)
def test_a_target_has_one_spelling(spelling: str) -> None:
    url = file_url("https://example.com/", "docs/index.html")
    assert target(spelling, "https://example.com", "/docs/index.html") == "/docs/x"
    page = f'<main><a href="{spelling}">X</a></main>'.encode()
    assert fingerprint_html(page, url=url) == fingerprint_html(
        b"<main><a href=x>X</a></main>", url=url
    )


@pytest.mark.parametrize(
    ("value", "spelled"),
    [
        ("#top", "/docs#top"),  # (the page's own path)
        ("/docs/index.html#top", "/docs#top"),
        ("/a/%E6%9D%82%E8%AE%B0/", "/a/杂记"),
        ("x/?q=1#a", "/docs/x?q=1#a"),
        ("", "/docs"),  # the page itself
        ("https://other.org/x/", "https://other.org/x/"),  # another site: as written
        ("mailto:a@example.com", "mailto:a@example.com"),
        ("//example.com/y/", "/y"),
        ("HTTP://EXAMPLE.COM/", "/"),
        ("../../..", "/"),
        ("x.html", "/docs/x"),  # (static hosts serve x.html at x)
        ("x.htm", "/docs/x.htm"),
    ],
)
def test_targets_as_a_reader_follows_them(value: str, spelled: str) -> None:
    assert target(value, "https://example.com", "/docs/index.html") == spelled


def test_a_target_that_changes_where_it_goes_moves_it() -> None:
    before = b"<main><a href=/a/>X</a><img src=i.png></main>"
    for after in (
        b"<main><a href=/b/>X</a><img src=i.png>",
        b"<main><a href=/a/>X</a><img src=j.png>",
    ):
        assert fingerprint_html(after) != fingerprint_html(before)
    # The same relative link from another folder goes elsewhere.
    page = b"<main><a href=x>X</a></main>"
    assert fingerprint_html(page, url="https://e.com/a/p.html") != fingerprint_html(
        page, url="https://e.com/b/p.html"
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # Docsy: the self-date with its commit link (a repository renamed).
        (
            "Page last updated February 2, 2026: <a href=https://github.com/a/old/commit/"
            "655c3fd93bf766c359056ecd99672ad379d6928c>Fix (655c3fd9)</a>",
            "Last modified March 3, 2026: <a href=https://github.com/a/new/commit/77abe1f>"
            "Other (#12) (77abe1f)</a>",
        ),
        ("<p><em>Last updated on February 18, 2022.</em></p>", "<p>Last updated on 2024-01-05</p>"),
        ("<p>Last updated: <time>Jun 18, 2026</time></p>", "<p>Last updated: 7.08.2026</p>"),
        ("Last update: 2024-08-06", "Last update: 2024-09-12 10:00"),
    ],
)
def test_a_self_date_moves_nothing(before: str, after: str) -> None:
    page = "<title>T</title><main><p>Article.</p><div>{}</div></main>"
    old, new = page.format(before).encode(), page.format(after).encode()
    assert reduce_html(new) == reduce_html(old)
    assert text_of(reduce_html(new)) == "T Article."


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # A commit link whose words are not the commit's (hash, date, or message ending with
        # the hash its URL names) is content beside a self-date (version 5).
        (
            "Last updated: 2024-01-02 <a href=https://github.com/o/r/commit/0123abc>Fix the"
            " install steps</a>",
            "Last updated: 2024-01-02 <a href=https://github.com/o/r/commit/0123abc>Install"
            " with pip</a>",
        ),
        (
            "Last updated: 2024-01-02 <a href=https://github.com/o/r/commit/0123abc>Fix (0123abc)"
            "</a>",
            "Last updated: 2024-01-02 <a href=https://github.com/o/r/commit/0123abc>Fix (9876fed)"
            "</a>",
        ),
        # A sentence of the page that says when something changed is no self-date.
        (
            "<p>The survey data was last changed on 2024-01-02 by the field team.</p>",
            "<p>The survey data was last changed on 2024-03-09 by the field team.</p>",
        ),
    ],
)
def test_what_a_self_date_does_not_hold_moves_it(before: str, after: str) -> None:
    page = "<title>T</title><main><p>Article.</p><div>{}</div></main>"
    old, new = page.format(before).encode(), page.format(after).encode()
    assert fingerprint_html(new) != fingerprint_html(old)


def test_an_empty_description_is_none() -> None:
    none = b"<title>T</title><main>A</main>"
    for empty in (b'<meta name=description content="">', b"<meta name=description content>"):
        assert fingerprint_html(empty + none) == fingerprint_html(none)
    described = b'<meta name=description content="About A">' + none
    assert fingerprint_html(described) != fingerprint_html(none)


def test_an_article_edit_moves_it() -> None:
    page = "<main><nav>N</nav><article><h1>H</h1><p>{}</p></article><footer>F</footer></main>"
    assert fingerprint_html(page.format("One.").encode()) != fingerprint_html(
        page.format("Two.").encode()
    )


@pytest.mark.parametrize(
    "unit",
    [
        b"<nav>",
        b"<div role=navigation><div>",
        b"<header><article>",
        b"<div role=main><nav><div role=search>",
        b"Page last updated January 1, 2024 at 10:00: ",
        b"<a href=../../../x/./y/index.html>",
        b"<a href='#x'>",
    ],
)
def test_hostile_furniture_takes_linear_time(unit: bytes) -> None:
    def make(size: int) -> bytes:
        return unit * (size // len(unit))

    # Eight times the input takes about eight times as long, 64 times if it were quadratic.
    assert timing.linear(fingerprint_html, make(125_000), make(1_000_000), 20)


def test_a_self_date_beside_a_link_leaves_no_space_there() -> None:
    # Material for MkDocs (a real site): "Last update" in the article, then its sponsor link;
    # a theme upgrade moved the self-date out of the article (an aside: furniture).
    article = "<main><article><p>Report it.</p>{}<footer><a href=/s>Sponsor</a></footer>"
    old = article.format("<div><small>Last update: <span>March 2, 2023</span></small></div>")
    new = article.format("<aside><span>Last update: March 2, 2024</span></aside>")
    assert fingerprint_html(old.encode()) == fingerprint_html(new.encode())


def test_an_inline_image_counts_by_its_media_type() -> None:
    # A blurred placeholder encoded anew (a Gatsby image library upgrade) beside the image.
    page = '<main><p>Me.</p><img src="data:image/jpeg;base64,{}"><img src=/me.jpg></main>'
    old, new = page.format("/9j/2wBDABAL").encode(), page.format("/9j/2wBDAAEB").encode()
    assert fingerprint_html(old) == fingerprint_html(new)
    # Another kind of image, or the image itself, still moves the page.
    assert fingerprint_html(page.replace("jpeg", "png").format("x").encode()) != fingerprint_html(
        old
    )
    assert fingerprint_html(old.replace(b"/me.jpg", b"/you.jpg")) != fingerprint_html(old)
    assert "data:image/svg+xml" in reduce_html(b"<img src='DATA:Image/SVG+XML;utf8,<svg/>'>")


MINIMAL_MISTAKES = (
    "<title>Post</title><div id=main role=main><div class='sidebar sticky'><h3>Author</h3>"
    "<a href=https://twitter.com/a>Twitter</a></div><article class=page><header><h1>Post</h1>"
    "</header><section class=page__content><p>Text.</p></section></article>"
    "<div class=page__related><h2>You may also enjoy</h2>{}</div></div>"
)
TEASERS = "".join(
    f"<div class=grid__item><article class=archive__item><h2><a href=/p{n}>P{n}</a></h2>"
    f"<p>Teaser {n}.</p></article></div>"
    for n in range(3)
)


def test_version_5_narrows_to_the_one_article_that_holds_the_headline() -> None:
    # Its comments (articles inside it) are its own; the furniture beside it stays out.
    page = (
        "<main><div class=toc>Contents</div><article><h1>T</h1><p>Body.</p>"
        "<article><p>A comment.</p></article></article></main>"
    )
    assert text_of(reduce_html(page.encode())) == "T Body. A comment."


def test_the_headline_article_is_the_same_read_line_by_line() -> None:
    # A real page has a line per tag or so: with its role=main and without, the memo shared by
    # two pages (digest.PageMemo), it reduces as read whole.
    memo = PageMemo()
    for text in (MINIMAL_MISTAKES, MINIMAL_MISTAKES.replace(" role=main", "")):
        page = text.format(TEASERS).replace("><", ">\n<").encode()
        assert reduce_html(page, memo=memo) == reduce_html(page)


# A Docusaurus home page: the hero header (the <h1> and the tagline) before <main>.
HERO = (
    "<title>Home | Tool</title><nav>Docs Blog</nav><header><div class=hero><h1>Tool</h1>"
    "<p>A tagline.</p><nav>Get started</nav></div></header><main><section><h3>Fast</h3>"
    "<p>Features.</p></section></main><footer>(c) 2024</footer>"
)


def test_version_5_keeps_the_title_block_before_a_region_without_a_headline() -> None:
    # What only this page says is content wherever it stands: its title block outside the
    # region (less the furniture in it) when the region holds no <h1> of its own.
    assert text_of(reduce_html(HERO.encode())) == "Home | Tool Tool A tagline. Fast Features."
    edited = HERO.replace("A tagline.", "A better tagline.").encode()
    assert fingerprint_html(edited) != fingerprint_html(HERO.encode())
    # A line a tag, the memo shared with the page before it, it reduces as read whole.
    memo = PageMemo()
    for page in (HERO, HERO.replace("Features.", "More.")):
        lines = page.replace("><", ">\n<").encode()
        assert reduce_html(lines, memo=memo) == reduce_html(page.encode())


@pytest.mark.parametrize(
    "page",
    [
        # A site banner's <h1> over a region with the page's own <h1>.
        "<header><h1>Site</h1><p>Motto.</p></header><main><h1>Post</h1><p>Body.</p></main>",
        # A header after the region, holding no <h1>.
        "<main><p>Body.</p></main><header><p>Motto.</p></header>",
        # A site's banner whose <h1> is its motto, which the page's title does not name (Hexo
        # NexT's list pages: the region's headline is an <h2>).
        "<title>lua | Site</title><header><span>Site</span><h1>Motto.</h1></header>"
        "<main><h2>lua</h2><p>Body.</p></main>",
        "<title>lua | Site</title><header><h1>Motto.</h1></header><h2>lua</h2><p>Body.</p>",
    ],
)
def test_other_page_headers_outside_the_region_stay_furniture(page: str) -> None:
    assert "Motto" not in reduce_html(page.encode())


def test_a_page_without_a_region_keeps_its_title_block_when_nothing_else_holds_the_headline() -> (
    None
):
    page = (
        "<title>Post - Site</title><header><h1>Post</h1><p>By Ann.</p><nav>Home</nav></header>"
        "<p>Body.</p><footer>c"
    )
    assert text_of(reduce_html(page.encode())) == "Post | Site Post By Ann. Body."
    banner = "<title>Post - Site</title><header><h1>Site</h1></header><h1>Post</h1><p>Body."
    assert text_of(reduce_html(banner.encode())) == "Post | Site Post Body."


# Nested <main> elements: a home page whose feature sections are <main>s of their own.
NESTED = "<main><h1>H</h1><main>One.</main><section><main>Two.</main></section>After.</main>"


def test_version_5_reads_the_region_to_its_own_end_tag() -> None:
    assert text_of(reduce_html(NESTED.encode())) == "H One. Two. After."
    # Version 4 (and 3) end it at the first </main>, as they did.
    # One left open runs to the end; a </main> before the first <main> ends nothing.
    assert text_of(reduce_html(b"</main><main>A<main>B</main>C")) == "A B C"


# Hexo NexT's tag page listing one post: before its theme upgrade, the page's own headline is an
# <h1> beside the one teaser (an <article>) in <main>; after it, an <h2>, the <h1> being the site's
# motto in the banner (NexT 5.1.1 -> 5.1.3, every tag and category page).
NEXT_LIST = (
    "<title>Tag: cache | Site</title><header><div class=brand><span>Site</span></div>{motto}"
    "</header><main><div class=content>{wrap}<div class=collection-title>{head}</div>"
    "<article><header><h{n} class=post-title><a href=/2017/03/post/><span>A post</span></a>"
    "</h{n}><div class=post-meta><time>03-25</time></div></header></article>{close}</div></main>"
    "<aside><p>Site</p><p>12 posts</p></aside>"
)
NEXT_OLD = NEXT_LIST.format(
    motto="<p>Motto.</p>",
    wrap="<section id=posts>",
    head="<h1>cache<small>Tag</small></h1>",
    n=2,
    close="</section>",
)
# Before it (NexT 5.1.1 until a rebuild): the list title an <h2>, the teaser's title the <h1>.
NEXT_OLDEST = NEXT_LIST.format(
    motto="<p>Motto.</p>",
    wrap="<section id=posts>",
    head="<h2>cache<small>Tag</small></h2>",
    n=1,
    close="</section>",
)
NEXT_NEW = NEXT_LIST.format(
    motto="<h1>Motto.</h1>",
    wrap="<div class=post-block><div id=posts>",
    head="<h2>cache<small>Tag</small></h2>",
    n=3,
    close="</div></div>",
)


def test_version_6_keeps_a_list_pages_headline_beside_its_one_teaser() -> None:
    # What only this page says is content wherever it stands: the headline the page's title
    # names, beside the one article the page lists, whatever its heading's rank; the theme
    # upgrade that made it an <h2> moves no date.
    assert text_of(reduce_html(NEXT_NEW.encode())) == text_of(reduce_html(NEXT_OLD.encode()))
    assert fingerprint_html(NEXT_NEW.encode()) == fingerprint_html(NEXT_OLD.encode())
    assert "cacheTag" in reduce_html(NEXT_NEW.encode())
    # The teaser's <h1>, which the page's title does not name, is not the page's headline.
    assert fingerprint_html(NEXT_OLDEST.encode()) == fingerprint_html(NEXT_OLD.encode())
    # A line a tag, the memo shared with the page before it, it reduces as read whole.
    memo = PageMemo()
    for page in (NEXT_OLDEST, NEXT_OLD, NEXT_NEW):
        lines = page.replace("><", ">\n<").encode()
        assert reduce_html(lines, memo=memo) == reduce_html(page.encode())


@pytest.mark.parametrize(
    "page",
    [
        # A post whose article holds its title in an <h2>: its comments beside it stay out.
        "<title>A post | Site</title><main><article><h2>A post</h2><p>Body.</p></article>"
        "<div class=comments><h2>Comments</h2><p>Comment one.</p></div></main>",
        # A post whose <h1> the title names, beside a block that names the title's other part.
        "<title>A post | Site</title><main><article><h1>A post</h1><p>Body.</p></article>"
        "<div class=bio><p>Site, by Ann.</p><p>Comment one.</p></div></main>",
        # A title no text of the region names (the site's name only).
        "<title>Site</title><main><article><p>Body.</p></article><p>Comment one.</p></main>",
        # No region: the title itself is no text beside the article.
        "<title>A post</title><body><article><p>Body.</p></article><p>Comment one.</p></body>",
    ],
)
def test_version_6_narrows_to_the_one_article_its_title_names_or_none_beside(page: str) -> None:
    assert "Comment one" not in reduce_html(page.encode())
    assert "Body." in reduce_html(page.encode())
