"""An ``<aside>`` in the main region that leads to no other page of the site is the page's own
note (fingerprint version 13, amended, issue 79): docutils 0.18 writes a topic, a sidebar and
every footnote as ``<aside>``, so a Sphinx upgrade took a Japanese blog post's topic out of its
fingerprint (a change no reader saw), and no edit of a footnote ever dated its page. An aside
that links to other pages of the site (a menu, related posts, tags) and one outside the region
stay furniture, and so does one that says less than a sentence outside its links (a table of
contents' label). Pages shaped like docutils' HTML5 writer and blog themes (text our own)."""

from __future__ import annotations

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import EARLIER_VERSIONS, fingerprint_html, reduce_html

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/2019/peps.html"


def sphinx(
    topic: str, *, tag: str = "aside", footnote: str = "A draft the council has not made final yet."
) -> bytes:
    """A Sphinx bizstyle page: the region is ``div.body[role=main]``; a topic and a footnote."""
    notes = (
        f'<{tag} class="footnote brackets" id="f1" role="note"><span class="label">'
        f'<a role="doc-backlink" href="#r1">1</a></span><p>{footnote}</p></{tag}>'
    )
    return (
        "<html><head><title>PEPs &#8212; Notes</title></head><body>"
        '<div class="related" role="navigation"><a href="../index.html">Notes</a></div>'
        '<div class="document"><div class="body" role="main"><section id="peps">'
        "<h1>How PEPs are decided</h1><p>A PEP is a proposal"
        '<a class="footnote-reference" href="#f1" id="r1">1</a>.</p>'
        f'<{tag} class="topic"><p class="topic-title">Example</p><p>{topic}</p></{tag}>'
        f"<p>Then the council decides.</p>{notes}</section></div></div>"
        '<div class="sphinxsidebar" role="navigation"><a href="2019-08-01.html">Older</a></div>'
        "</body></html>"
    ).encode()


def printed(data: bytes, version: int | None = None, url: str = URL) -> str:
    if version is None:
        return fingerprint_html(data, url=url)
    return fingerprint_html(data, url=url, version=version)


def test_a_topic_written_as_an_aside_is_the_page_s_own() -> None:
    said = "A delegate was named for this PEP."
    # docutils 0.18: <div class="topic"> made <aside class="topic">, footnotes too: no change.
    assert printed(sphinx(said)) == printed(sphinx(said, tag="div"))
    assert said in text_of(reduce_html(sphinx(said), url=URL))
    # An edit of the topic, or of a footnote, dates the page.
    assert printed(sphinx(said)) != printed(sphinx("Another delegate was named for it."))
    assert printed(sphinx(said)) != printed(
        sphinx(said, footnote="Final since the council met in May.")
    )
    # (version 12 left every aside out: a state of 12 is compared by 12's bytes)
    assert printed(sphinx(said), PREVIOUS) != printed(sphinx(said, tag="div"), PREVIOUS)
    assert printed(sphinx(said), PREVIOUS) == printed(sphinx("Another one."), PREVIOUS)


POST = "https://example.org/posts/lamps/"


def blog(aside: str, *, after: str = "") -> bytes:
    """A blog post whose <main> holds its article, an aside at the article's end."""
    return (
        "<html><head><title>Lamps | Blog</title></head><body><main>"
        f"<article><h1>Lamps</h1><p>How we light the hall.</p>{aside}</article></main>"
        f"{after}</body></html>"
    ).encode()


def related(*posts: str) -> str:
    items = "".join(f'<li><a href="/posts/{post}/">{post.title()}</a></li>' for post in posts)
    return f'<aside class="related"><h2>Read next</h2><ul>{items}</ul></aside>'


def test_an_aside_that_leads_to_other_pages_of_the_site_stays_furniture() -> None:
    # Related posts, tags, a menu: another post published changes them, not the page.
    assert printed(blog(related("chairs", "tables")), url=POST) == printed(
        blog(related("desks", "chairs")), url=POST
    )
    # Tags as links to the site's tag pages, with a word of their own beside them.
    tags = '<aside class="tags">Filed under <a href="/tags/{}/">{}</a></aside>'
    assert printed(blog(tags.format("home", "home")), url=POST) == printed(
        blog(tags.format("light", "light")), url=POST
    )


def test_a_note_aside_in_an_article_counts_and_its_own_navigation_does_not() -> None:
    # A note with a link to another site, and a menu of the page's own parts inside it.
    def note(words: str, toc: str) -> str:
        return (
            f'<aside><p>{words} See <a href="https://other.example/x">their page</a>.</p>'
            f'<nav>On this page <a href="#{toc}">{toc}</a></nav></aside>'
        )

    said = "This post was first given as a talk."
    assert printed(blog(note(said, "top")), url=POST) == printed(blog(note(said, "end")), url=POST)
    assert printed(blog(note(said, "top")), url=POST) != printed(
        blog(note("This post was first printed.", "top")), url=POST
    )
    reduced = text_of(reduce_html(blog(note(said, "top")), url=POST))
    assert said in reduced and "On this page" not in reduced
    # A link to another page of the site anywhere in it (its menu too): the site's furniture.
    menu = '<aside><p>{}</p><nav><a href="/posts/">All posts</a></nav></aside>'
    assert printed(blog(menu.format(said)), url=POST) == printed(
        blog(menu.format("Another note.")), url=POST
    )


def test_a_table_of_contents_label_in_an_aside_is_no_note() -> None:
    # VuePress Theme Hope's <aside id="toc">: a label, then links to the page's own parts (or,
    # rendered by a script, none at all); a label is no sentence of the page's own.
    toc = '<aside id="toc"><div class="toc-header">{}</div>{}</aside>'
    parts = '<a href="#use">How to use it in a hall</a><a href="#buy">Where to buy the lamps</a>'
    assert printed(blog(toc.format("On this page", parts)), url=POST) == printed(
        blog(toc.format("Contents", "")), url=POST
    )


def test_an_aside_outside_the_main_region_stays_furniture() -> None:
    # A sidebar after <main> with no link: the site's, as the region says.
    sidebar = '<aside class="sidebar"><p>{}</p></aside>'
    assert printed(
        blog("", after=sidebar.format("Our motto is to light every hall.")), url=POST
    ) == (printed(blog("", after=sidebar.format("Our new motto is light for all.")), url=POST))
