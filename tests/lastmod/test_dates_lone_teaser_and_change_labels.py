"""Two readings of fingerprint version 13 (amended, issue 79), each on a small built site in a
real git repository: commit 1 at T1, commit 2 at T2; a page is dated T2 when a reader sees a
change, T1 when not.

- What another page says is that page's: a tag page that lists one post as one ``<article>``
  (no ``<main>``), its ``<h2>`` the link to the post, the post's date, tags and excerpt after it,
  is a list of one (Pelican's bootstrap3 theme: a teased excerpt's truncation mark "…" made
  "..." dated 39 tag pages). A post whose ``<h2>`` is its own permalink, and a page whose
  heading links elsewhere but whose ``<title>`` names it, keep their article.
- What a page says of when it changed is no content: "This article was updated on <date>"
  (Publii), "Updated: <date>", "本文更新于 <date>", not "last updated" alone; the same words
  inside a sentence are the page's.

Structure copied from the real themes' built pages, text our own."""

from __future__ import annotations

from pathlib import Path

from test_dates_on_untuned_themes import T1, T2, Site, dates
from test_dates_on_untuned_themes import w3c as at

from sitemill.lastmod.fingerprint.digest import EARLIER_VERSIONS, reduce_html

PREVIOUS = max(EARLIER_VERSIONS)


# Pelican bootstrap3: a navbar (role=navigation), the content column, a sidebar <aside>.


def bootstrap3(title: str, column: str) -> str:
    return (
        f"<!DOCTYPE html><html lang=zh><head><meta charset=utf-8><title>{title} | Nutcracker"
        '</title></head><body><div class="navbar" role="navigation"><a class="navbar-brand" '
        'href="https://example.org/">Nutcracker</a></div><div class="container"><div class='
        f'"col-sm-9">{column}</div><div id="sidebar"><aside><h4>Recent Posts</h4><ul><li><a '
        'href="https://example.org/blog/plugins/">Writing a plugin</a></li></ul></aside></div>'
        "</div><footer>Powered by Pelican</footer></body></html>"
    )


EXCERPT = "<div class=summary><p>A plugin reads the chain's blocks as they come.</p><pre>{}</pre>"


def teaser(mark: str = "…", heading: str = "Writing a plugin") -> str:
    return (
        f'<article><h2><a href="https://example.org/blog/plugins/">{heading}</a></h2><div '
        'class="well"><footer class="post-info"><span class="label">Date</span><time datetime='
        '"2018-06-30T22:25:00+08:00">Sat 30 June 2018</time> <a href="https://example.org/blog/'
        'tags/chain/">chain</a></footer></div>'
        + EXCERPT.format(mark)
        + '<a class="btn" href="https://example.org/blog/plugins/">Read more</a></div></article>'
    )


def post(body: str = "It reads each block once.") -> str:
    return (
        '<article><h2><a href="https://example.org/blog/plugins/">Writing a plugin</a></h2>'
        '<footer class="post-info"><time datetime="2018-06-30T22:25:00+08:00">Sat 30 June 2018'
        '</time></footer><div class="entry-content"><p>A plugin reads the chain\'s blocks as they '
        f"come.</p><p>{body}</p></div></article>"
    )


def blog(mark: str = "…", body: str = "It reads each block once.") -> Site:
    return {
        "blog/plugins/index.html": bootstrap3("Writing a plugin", post(body)),
        "blog/tags/chain/index.html": bootstrap3("chain", teaser(mark)),
        "blog/tags/nodes/index.html": bootstrap3("nodes", teaser(mark)),
        "about/index.html": bootstrap3("About", "<h1>About</h1><p>I write about chains.</p>"),
    }


def test_a_tag_page_listing_one_post_is_a_list_of_one(tmp_path: Path) -> None:
    # The regenerate wrote the excerpt's truncation mark "..." for "…": the post's words, on the
    # tag pages that list it; no page changed what it says.
    found = dates(tmp_path, blog("…"), blog("..."))
    assert found == dict.fromkeys(found, at(T1))
    assert len(found) == 4


def test_the_post_whose_heading_is_its_permalink_keeps_its_article(tmp_path: Path) -> None:
    # The post's own edit dates it; the tag pages list it under the same title and stay.
    found = dates(tmp_path, blog(), blog(body="It reads each block twice."))
    assert found["blog/plugins/"] == at(T2)
    assert {page: when for page, when in found.items() if page != "blog/plugins/"} == {
        page: at(T1) for page in found if page != "blog/plugins/"
    }


def test_a_list_of_one_moves_when_its_teaser_is_retitled(tmp_path: Path) -> None:
    first = blog()
    second = dict(first)
    second["blog/tags/chain/index.html"] = bootstrap3("chain", teaser(heading="Plugins, part 1"))
    found = dates(tmp_path, first, second)
    assert found["blog/tags/chain/"] == at(T2)
    assert found["blog/tags/nodes/"] == at(T1)


TAG = "https://example.org/blog/tags/chain/index.html"


def test_the_title_that_names_the_heading_keeps_the_article_its_own() -> None:
    # A page titled by its article's heading is that article's page, wherever the heading links
    # (here to the page it continues): its excerpt-like text is its own and counts.
    named = bootstrap3("Writing a plugin", teaser("…"))
    assert "chain's blocks" in reduce_html(named.encode(), url=TAG)
    listed = reduce_html(bootstrap3("chain", teaser("…")).encode(), url=TAG)
    assert "chain's blocks" not in listed
    assert "/blog/plugins" in listed and "Writing a plugin" in listed
    # (version 12, the previous one, read the lone article as the page's own: its states are
    # compared by 12's bytes)
    assert "chain's blocks" in reduce_html(
        bootstrap3("chain", teaser("…")).encode(), url=TAG, version=PREVIOUS
    )


# Publii: the post's "This article was updated on <date>" after its text.


def publii(updated: str, words: str = "Stay in touch!", *, label: str = "") -> str:
    said = label or f'<p class="post__last-updated">This article was updated on {updated}</p>'
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Your local AI - Netrun"
        '</title></head><body><header class="top"><a class="logo" href="./">Netrun</a></header>'
        '<main class="post"><article class="content"><header class="hero"><h1>Your local AI</h1>'
        "</header><div class=entry-wrapper><div class=content__entry><p>Run a model at home. "
        f"{words}</p></div>{said}</div></article></main><footer>Netrun</footer></body></html>"
    )


def notes(**pages: str) -> Site:
    site = {
        "index.html": "<html><head><title>Netrun</title></head><body><main><h1>Netrun</h1>"
        "<p>Notes on security.</p></main></body></html>",
        "about/index.html": "<html><head><title>About - Netrun</title></head><body><main><h1>"
        "About</h1><p>A blog.</p></main></body></html>",
        "tags/ai/index.html": "<html><head><title>ai - Netrun</title></head><body><main><h1>ai"
        "</h1><p>One tag.</p></main></body></html>",
    }
    return site | {f"{name}/index.html": page for name, page in pages.items()}


def test_a_post_s_this_article_was_updated_on_is_no_content(tmp_path: Path) -> None:
    found = dates(
        tmp_path,
        notes(ai=publii("4 April 2025")),
        notes(ai=publii("15 April 2025")),
    )
    assert found == dict.fromkeys(found, at(T1))
    assert len(found) == 4


def test_the_labels_a_page_says_it_changed_with() -> None:
    url = "https://example.org/ai/"
    labels = (
        "<p>This post was last modified on {}</p>",
        "<p>The page has been revised on {}</p>",
        "<p><span>Updated:</span> <time>{}</time></p>",
        "<p>Updated on {}</p>",
        "<p>更新时间：{}</p>",
        "<p>本文更新于 {}</p>",
        "<p>更新日：{}</p>",
    )
    for label in labels:
        old, new = (publii("", label=label.format(day)) for day in ("2025-04-04", "2025-04-15"))
        assert reduce_html(old.encode(), url=url) == reduce_html(new.encode(), url=url), label
        # (version 12 read only "last updated/modified…")
        if "last" not in label:
            assert reduce_html(old.encode(), url=url, version=PREVIOUS) != reduce_html(
                new.encode(), url=url, version=PREVIOUS
            ), label


def test_the_same_words_inside_a_sentence_are_the_page_s(tmp_path: Path) -> None:
    def said(day: str) -> str:
        return publii("", label=f"<p>We checked it, and the page was updated on {day} too.</p>")

    found = dates(tmp_path, notes(ai=said("4 April 2025")), notes(ai=said("15 April 2025")))
    assert found["ai/"] == at(T2)
    assert {page: when for page, when in found.items() if page != "ai/"} == {
        page: at(T1) for page in found if page != "ai/"
    }


def test_one_article_that_writes_several_posts_is_no_teaser() -> None:
    # An Eleventy blog page writes its posts whole in one <article>, each under a linked <h2>: a
    # list of several, read as before (its posts' words count), not as its first post's teaser.
    def second(words: str) -> str:
        return (
            '<h2 class="post-title"><a href="https://example.org/blog/nodes/">Running a node</a>'
            f"</h2><p>{words}</p>"
        )

    def listing(words: str) -> bytes:
        one = teaser("…").replace("</article>", second(words) + "</article>")
        return bootstrap3("Blog", one).encode()

    before, after = listing("A node keeps the chain."), listing("A node keeps the whole chain.")
    assert reduce_html(before, url=TAG) != reduce_html(after, url=TAG)
    assert "chain's blocks" in reduce_html(before, url=TAG)


def at_host(site: Site, host: str) -> Site:
    """``site`` with its canonicals and every link under ``host``."""
    return {
        path: html.replace(
            "</title>", f'</title><link rel="canonical" href="https://example.org/{path[:-10]}">'
        ).replace("https://example.org/", host)
        for path, html in site.items()
    }


def test_a_list_of_one_whose_site_moved_host_is_one_still(tmp_path: Path) -> None:
    # The site moved from its old host to its own domain: every link and canonical rewritten,
    # no word changed. The tag pages' one teaser is read at the root each version's canonical
    # declares, so both versions are lists of one (a Hugo blog's 48 category pages were dated
    # by the move when the older version's links, on the old host, were read as off the site).
    found = dates(
        tmp_path, at_host(blog(), "https://old.example/"), at_host(blog(), "https://example.org/")
    )
    assert found == dict.fromkeys(found, at(T1))
    assert len(found) == 4
