"""Acceptance of fingerprint version 5 on the shapes of themes version 4 was not tuned on
(issue 48's tuning set: Quarto, Hugo PaperMod, Hexo NexT; and shapes seen beside them). Each
case is a small built site in a real git repository: commit 1 at T1, commit 2 at T2 making one
change; the page under test is dated T2 when a reader sees a change, T1 when not.

Cases 1-10 are real changes version 4 misses (its region rules, inline data: targets and
self-dates leave them out); 11-14 change nothing a reader reads but re-date the page under
version 4 (the title's order, a re-cut auto-excerpt, a link to the page itself, share links
that carry the page's own URL); 15-17 are guards that move under version 4 and must still move;
18-19 are real changes the first version 5 missed on sites it was not designed on (a home page's
title block before <main>, nested <main> elements); 20 a site renamed in every title, which
list pages repeat as their description (Hexo Matery), moves nothing; 21 a raw "<script>" in a
meta value (VuePress Theme Hope) hides no edit below it; 22 links that leave a beta host on
pages of several sections (a Just the Docs book) move nothing.
Structure copied from the real themes' built pages, text our own."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink

BASE = "https://example.org/"
T1, T2 = "2024-01-10 09:00:00", "2024-02-20 10:00:00"

Site = dict[str, str]


def w3c(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def dates(tmp_path: Path, first: Site, second: Site) -> dict[str, str]:
    """The sitemap's lastmod of each page after commit 1 (``first``, at T1) and commit 2
    (``second``: the files it writes, at T2), built from the work tree with git dates."""
    repo = make_repo(tmp_path / "site")
    commit(repo, first, T1)
    commit(repo, second, T2)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    text = sink.files["sitemap.xml"].decode()
    return dict(re.findall(r"<loc>https://example\.org/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def moved(tmp_path: Path, first: Site, second: Site, page: str) -> None:
    """Only ``page`` (a sitemap path) is dated by commit 2; every other page by commit 1."""
    found = dates(tmp_path, first, second)
    assert found[page] == w3c(T2), f"{page} kept commit 1's date: the change was not seen"
    assert {loc: when for loc, when in found.items() if loc != page} == {
        loc: w3c(T1) for loc in found if loc != page
    }


def kept(tmp_path: Path, first: Site, second: Site) -> None:
    """Every page is dated by commit 1: commit 2 changed nothing a reader reads."""
    found = dates(tmp_path, first, second)
    assert len(found) >= 4
    redated = {loc for loc, when in found.items() if when != w3c(T1)}
    assert redated == set(), (
        f"re-dated by commit 2, which changed nothing a reader reads: {redated}"
    )


# A plain blog theme (header, nav and footer outside <main>): the ordinary pages of most cases.


def plain(title: str, main: str, head: str = "") -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title} | Field'
        f' Notes</title>{head}<link rel="stylesheet" href="/css/site.min.css"></head><body>'
        f'<header class="site-header"><a class="site-title" href="/">Field Notes</a><nav>'
        f'<a href="/posts/">Posts</a> <a href="/about/">About</a></nav></header>\n<main>{main}'
        f'</main>\n<footer class="site-footer">© 2024 Field Notes</footer></body></html>\n'
    )


def plain_site(page: str) -> Site:
    """posts/a/ is the page under test (``page``); a home page, another post and an about page."""
    return {
        "index.html": plain(
            "Home",
            '<h1>Field Notes</h1><ul class="posts"><li><a href="/posts/a/">Soil moisture</a></li>'
            '<li><a href="/posts/b/">Rain gauges</a></li></ul>',
        ),
        "posts/a/index.html": page,
        "posts/b/index.html": plain(
            "Rain gauges",
            "<article><h1>Rain gauges</h1><p>A funnel, a cylinder and a ruler make a gauge that "
            "reads to the millimetre.</p></article>",
        ),
        "about/index.html": plain(
            "About", "<article><h1>About</h1><p>Notes from a small weather station.</p></article>"
        ),
    }


PLAIN_PAGE = "posts/a/"


# 1. Quarto (a website page): the title block is a <header> inside <main>, no <article>.


def quarto(title: str, subtitle: str, meta: str, sections: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">'
        f'<head><meta charset="utf-8"><meta name="generator" content="quarto-1.4.550">'
        f"<title>Survey Lab – {title}</title>"
        f'<link href="./site_libs/bootstrap/bootstrap.min.css" rel="stylesheet"></head>'
        f'<body class="nav-fixed fullcontent"><div id="quarto-search-results"></div>'
        f'<header id="quarto-header" class="headroom fixed-top"><nav class="navbar '
        f'navbar-expand-lg" data-bs-theme="dark"><div class="navbar-container container-fluid">'
        f'<a class="navbar-brand" href="./index.html"><span class="navbar-title">Survey Lab'
        f'</span></a><ul class="navbar-nav">'
        f'<li class="nav-item"><a class="nav-link" href="./methods.html">Methods</a></li>'
        f'<li class="nav-item"><a class="nav-link" href="./about.html">About</a></li></ul></div>'
        f"</nav></header>\n"
        f'<div id="quarto-content" class="quarto-container page-columns page-rows-contents '
        f'page-layout-article page-navbar"><div id="quarto-margin-sidebar" class="sidebar '
        f'margin-sidebar"><nav id="TOC" role="doc-toc" class="toc-active"><h2 id="toc-title">On '
        f'this page</h2><ul><li><a href="#intro" class="nav-link active">Intro</a></li></ul></nav>'
        f'</div>\n<main class="content" id="quarto-document-content">\n'
        f'<header id="title-block-header" class="quarto-title-block default">'
        f'<div class="quarto-title"><h1 class="title">{title}</h1>'
        f'<p class="subtitle lead">{subtitle}</p></div>\n'
        f'<div class="quarto-title-meta">{meta}</div>\n</header>\n{sections}\n</main>\n'
        f'<!-- /main column --></div>\n<footer class="footer"><div class="nav-footer">'
        f'<div class="nav-footer-center">© 2024 Survey Lab</div></div></footer></body></html>\n'
    )


QUARTO_META = (
    '<div><div class="quarto-title-meta-heading">Author</div><div class="quarto-title-meta-'
    'contents"><p>Ana Ruiz</p></div></div><div><div class="quarto-title-meta-heading">Published'
    '</div><div class="quarto-title-meta-contents"><p class="date">March 4, 2024</p></div></div>'
)
QUARTO_DOI = (
    '<div><div class="quarto-title-meta-heading">Doi</div><div class="quarto-title-meta-contents">'
    '<p class="doi"><a href="https://doi.org/10.1234/abcd">10.1234/abcd</a></p></div></div>'
)


def quarto_site(doi: str = "") -> Site:
    def section(name: str, text: str) -> str:
        return (
            f'<section id="{name.lower()}" class="level2"><h2 class="anchored" data-anchor-id='
            f'"{name.lower()}">{name}</h2><p>{text}</p></section>'
        )

    return {
        "index.html": quarto(
            "Survey Lab", "Notes on field surveys", "", section("Intro", "Start with the methods.")
        ),
        "methods.html": quarto(
            "Sampling households",
            "A two-stage design",
            QUARTO_META + doi,
            section("Intro", "We draw villages first, then households within each village.")
            + section(
                "Weights", "Each household carries the inverse of its chance of being drawn."
            ),
        ),
        "weights.html": quarto(
            "Weights", "Why and how", QUARTO_META, section("Intro", "Weights undo the design.")
        ),
        "about.html": quarto("About", "Who we are", "", section("Intro", "A small team.")),
    }


def test_1_quarto_doi_added_to_the_title_block_moves(tmp_path: Path) -> None:
    """Quarto website: <main id="quarto-document-content"> with the title block
    (header#title-block-header: title, subtitle, authors, date) and sections, no <article>;
    a DOI line added to the title block is a reader's change."""
    moved(tmp_path, quarto_site(), quarto_site(doi=QUARTO_DOI), "methods.html")


# 2. Hugo PaperMod: the home page is a "home-info" entry (the <h1>) and post teasers (articles).


def papermod(title: str, main: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en" dir="auto"><head><meta charset="utf-8"><title>{title}'
        f'</title><link crossorigin="anonymous" href="/assets/css/stylesheet.45e028aa.css" '
        f'rel="preload stylesheet" as="style"></head><body class="list" id="top">'
        f'<header class="header"><nav class="nav"><div class="logo"><a href="https://example.org/"'
        f' accesskey="h" title="Loose Threads (Alt + H)">Loose Threads</a></div><ul id="menu"><li>'
        f'<a href="https://example.org/posts/" title="Posts"><span>Posts</span></a></li></ul>'
        f'</nav></header>\n<main class="main">\n{main}\n</main>\n'
        f'<footer class="footer"><span>© 2024 Loose Threads</span> · <span>Powered by <a '
        f'href="https://gohugo.io/">Hugo</a> &amp; <a href="https://github.com/adityatelange/'
        f'hugo-PaperMod/">PaperMod</a></span></footer><a href="#top" aria-label="go to top" '
        f'title="Go to Top (Alt + G)" class="top-link" id="top-link" accesskey="g">↑</a>'
        f"</body></html>\n"
    )


POSTS = {
    "a": ("Darning socks", "A darning mushroom and wool of the same weight are all it takes", 5),
    "b": ("Patching jeans", "Iron-on patches peel; a patch sewn from inside lasts longer", 12),
    "c": ("Sashiko basics", "Running stitches in rows, worked with a long needle and thick", 20),
}


def teaser(slug: str) -> str:
    title, excerpt, day = POSTS[slug]
    return (
        f'<article class="post-entry"><header class="entry-header"><h2 class="entry-hint-parent">'
        f'{title}</h2></header><div class="entry-content"><p>{excerpt} ...</p></div>'
        f'<footer class="entry-footer"><span title="2024-01-{day:02} 00:00:00 +0000 UTC">January '
        f'{day}, 2024</span>&nbsp;·&nbsp;1 min</footer><a class="entry-link" aria-label="post link'
        f' to {title}" href="https://example.org/posts/{slug}/"></a></article>'
    )


def papermod_post(slug: str, tags: tuple[str, ...] = ("mending",), share: str = "") -> str:
    title, excerpt, day = POSTS[slug]
    tag_list = "".join(
        f'<li><a href="https://example.org/tags/{tag}/">{tag.title()}</a></li>' for tag in tags
    )
    return papermod(
        f"{title} | Loose Threads",
        f'<article class="post-single"><header class="post-header"><h1 class="post-title '
        f'entry-hint-parent">{title}</h1><div class="post-meta"><span title="2024-01-{day:02} '
        f'00:00:00 +0000 UTC">January {day}, 2024</span></div></header><div class="post-content">'
        f"<p>{excerpt}, and an evening.</p><p>Work from the edge of the hole inwards.</p></div>"
        f'<footer class="post-footer"><ul class="post-tags">{tag_list}</ul><nav class="paginav">'
        f'<a class="next" href="https://example.org/posts/b/"><span class="title">Next »</span>'
        f"</a></nav>{share}</footer></article>",
    )


def papermod_home(slugs: tuple[str, ...]) -> str:
    return papermod(
        "Loose Threads",
        '<article class="first-entry home-info"><header class="entry-header"><h1>Hi there 👋</h1>'
        '</header><div class="entry-content"><p>Notes on mending clothes by hand.</p></div>'
        '<footer class="entry-footer"><div class="social-icons"><a href="https://github.com/'
        'someone" target="_blank" rel="noopener noreferrer me" title="Github">GitHub</a></div>'
        "</footer></article>\n"
        + "\n".join(teaser(slug) for slug in slugs)
        + '\n<footer class="page-footer"><nav class="pagination"><a class="next" href="https://'
        'example.org/page/2/">Next&nbsp;&nbsp;»</a></nav></footer>',
    )


def papermod_site(slugs: tuple[str, ...]) -> Site:
    return {
        "index.html": papermod_home(slugs),
        **{f"posts/{slug}/index.html": papermod_post(slug) for slug in slugs},
        "about/index.html": papermod(
            "About | Loose Threads",
            '<article class="post-single"><header class="post-header"><h1 class="post-title">'
            'About</h1></header><div class="post-content"><p>One person, many socks.</p></div>'
            "</article>",
        ),
    }


def test_2_papermod_home_gains_a_post_teaser_moves(tmp_path: Path) -> None:
    """Hugo PaperMod's home page: <main class="main"> with the home-info entry (an <article>
    holding the page's <h1>) and one <article class="post-entry"> teaser per post; a new post's
    teaser on the home page is a reader's change."""
    found = dates(tmp_path, papermod_site(("b", "a")), papermod_site(("c", "b", "a")))
    assert found[""] == w3c(T2), "the home page kept commit 1's date: the new teaser was not seen"
    assert found == {
        "": w3c(T2),
        "posts/c/": w3c(T2),
        "posts/b/": w3c(T1),
        "posts/a/": w3c(T1),
        "about/": w3c(T1),
    }


# 3-6. Body text beside articles inside <main>.


def test_3_body_text_beside_one_teaser_article_moves(tmp_path: Path) -> None:
    """A page whose <main> holds its <h1> and paragraphs, then one teaser <article> (a
    "read next" card): an edit of a body paragraph is a reader's change."""

    def page(words: str) -> str:
        return plain(
            "Soil moisture",
            f"<h1>Soil moisture</h1><p>A probe pushed into the soil reads its water content.</p>"
            f'<p>{words}</p><article class="teaser"><h2><a href="/posts/b/">Rain gauges</a>'
            f"</h2><p>A funnel, a cylinder and a ruler.</p></article>",
        )

    first = plain_site(page("Read it at the same depth each morning."))
    second = plain_site(page("Read it at the same depth each evening, after watering."))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_4_body_in_an_article_after_the_headline_article_moves(tmp_path: Path) -> None:
    """<main><article><h1>T</h1></article><article><p>body</p></article></main>: the headline
    and the body in two articles; an edit of the body is a reader's change."""

    def page(words: str) -> str:
        return plain(
            "Soil moisture",
            f"<article><h1>Soil moisture</h1></article><article><p>A probe reads the water "
            f"content.</p><p>{words}</p></article>",
        )

    first = plain_site(page("Calibrate it in dry sand."))
    second = plain_site(page("Calibrate it in dry sand, then in wet sand."))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_5_site_title_h1_in_a_sidebar_article_moves(tmp_path: Path) -> None:
    """<main><article class="sidebar"><h1>Site</h1></article><article class="post"><h2>Post
    title</h2><p>body</p></article></main>: the site's name is the page's only <h1>, in a
    sidebar article; an edit of the post's body is a reader's change."""

    def page(words: str) -> str:
        return plain(
            "Soil moisture",
            f'<article class="sidebar"><h1>Field Notes</h1><p>A weather station diary.</p>'
            f'</article><article class="post"><h2>Soil moisture</h2><p>{words}</p></article>',
        )

    first = plain_site(page("A probe pushed into the soil reads its water content."))
    second = plain_site(page("A probe pushed into the soil reads its water content in percent."))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_6_section_between_the_headline_article_and_a_teaser_moves(tmp_path: Path) -> None:
    """<main>: an <article> with the <h1>, the body in a <section>, then a teaser <article>;
    an edit of the section is a reader's change."""

    def page(words: str) -> str:
        return plain(
            "Soil moisture",
            f'<article class="title"><h1>Soil moisture</h1><p class="byline">By the station</p>'
            f'</article><section class="body"><p>{words}</p></section><article class="teaser">'
            f'<h2><a href="/posts/b/">Rain gauges</a></h2><p>A funnel and a ruler.</p></article>',
        )

    first = plain_site(page("Three probes at 10, 20 and 40 cm."))
    second = plain_site(page("Four probes at 10, 20, 40 and 80 cm."))
    moved(tmp_path, first, second, PLAIN_PAGE)


# 7-8. Inline data: targets that are the content itself.


def svg(shape: str) -> str:
    drawing = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">'
        f"{shape}</svg>"
    )
    return base64.b64encode(drawing.encode()).decode()


def test_7_inline_svg_drawing_replaced_moves(tmp_path: Path) -> None:
    """An article's figure is an inline SVG (<img src="data:image/svg+xml;base64,…">), the
    drawing itself and no placeholder; another drawing is a reader's change."""

    def page(shape: str) -> str:
        return plain(
            "Soil moisture",
            f"<article><h1>Soil moisture</h1><p>The probe's layout:</p><figure><img src=\"data:"
            f'image/svg+xml;base64,{svg(shape)}" alt="Probe layout"><figcaption>Probes by depth'
            f"</figcaption></figure></article>",
        )

    first = plain_site(page('<circle cx="60" cy="40" r="30" fill="teal"/>'))
    second = plain_site(page('<rect x="20" y="10" width="80" height="60" fill="teal"/>'))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_8_data_download_link_with_other_bytes_moves(tmp_path: Path) -> None:
    """A download link whose target is the file itself (<a href="data:text/csv;base64,…"
    download="t.csv">): other bytes are another table for the reader."""

    def page(table: str) -> str:
        data = base64.b64encode(table.encode()).decode()
        return plain(
            "Soil moisture",
            f'<article><h1>Soil moisture</h1><p>The readings: <a href="data:text/csv;base64,'
            f'{data}" download="t.csv">table</a>.</p></article>',
        )

    first = plain_site(page("depth,moisture\n10,0.21\n20,0.25\n"))
    second = plain_site(page("depth,moisture\n10,0.19\n20,0.24\n40,0.30\n"))
    moved(tmp_path, first, second, PLAIN_PAGE)


# 9-10. Words that look like a self-date but are content.


def test_9_commit_link_with_words_for_text_is_content_moves(tmp_path: Path) -> None:
    """ "Last updated: 2024-01-02 <a href=…/commit/0123abc>Fix the install steps</a>": a
    self-date is a label, a date, an author's name and a commit link whose text is a hash or a
    date; a link whose text is other words is content, and new words are a reader's change."""

    def page(message: str) -> str:
        return plain(
            "Soil moisture",
            f"<article><h1>Soil moisture</h1><p>A probe reads the water content.</p><p>Last "
            f'updated: 2024-01-02 <a href="https://github.com/o/r/commit/0123abc">{message}</a>'
            f"</p></article>",
        )

    first = plain_site(page("Fix the install steps"))
    second = plain_site(page("Explain the proxy settings"))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_10_a_date_in_a_content_sentence_moves(tmp_path: Path) -> None:
    """ "The survey data was last changed on 2024-01-02 by the field team." is a sentence of the
    article, not the page's self-date: another date in it is a reader's change."""

    def page(day: str) -> str:
        return plain(
            "Soil moisture",
            f"<article><h1>Soil moisture</h1><p>A probe reads the water content. The survey data "
            f"was last changed on {day} by the field team.</p></article>",
        )

    moved(tmp_path, plain_site(page("2024-01-02")), plain_site(page("2024-02-14")), PLAIN_PAGE)


# 11. Quarto 1.5 (a book): the <title>'s parts in another order on every page.


def quarto_book_page(title: str, number: str, chapter: str, text: str) -> str:
    headline = (
        f'<span class="chapter-number">{number}</span>&nbsp; <span class="chapter-title">'
        f"{chapter}</span>"
        if number
        else f'<span class="chapter-title">{chapter}</span>'
    )
    return (
        f'<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">'
        f'<head><meta charset="utf-8"><meta name="generator" content="quarto-1.5.57"><title>'
        f'{title}</title></head><body class="nav-sidebar floating"><div id="quarto-search-'
        f'results"></div><header id="quarto-header" class="headroom fixed-top"><nav class="quarto-'
        f'secondary-nav"><div class="container-fluid d-flex"><nav class="quarto-page-breadcrumbs" '
        f'aria-label="breadcrumb"><ol class="breadcrumb"><li class="breadcrumb-item">{chapter}</li>'
        f'</ol></nav></div></nav></header>\n<div id="quarto-content" class="quarto-container '
        f'page-columns page-rows-contents page-layout-article"><nav id="quarto-sidebar" class="'
        f"sidebar collapse collapse-horizontal quarto-sidebar-collapse-item sidebar-navigation "
        f'floating overflow-auto"><div class="sidebar-title mb-0 py-0"><a href="./">Book</a></div>'
        f'<ul class="list-unstyled mt-1"><li class="sidebar-item"><a href="./intro.html" class="'
        f'sidebar-item-text sidebar-link">1 What is accessibility?</a></li></ul></nav>\n'
        f'<main class="content" id="quarto-document-content"><header id="title-block-header" '
        f'class="quarto-title-block default"><div class="quarto-title"><h1 class="title">'
        f'{headline}</h1></div></header>\n<p>{text}</p>\n<nav class="page-navigation"><div '
        f'class="nav-page nav-page-next"><a href="./colour.html" class="pagination-link">'
        f"Next</a></div></nav></main></div></body></html>\n"
    )


BOOK = (
    ("index.html", "", "Preface", "This book is about making pages everyone can read."),
    ("intro.html", "1", "What is accessibility?", "Accessibility is use by the widest range."),
    ("colour.html", "2", "Colour", "Contrast matters more than hue."),
    ("forms.html", "3", "Forms", "Every field needs a label a screen reader can find."),
)


def quarto_book_sites() -> tuple[Site, Site]:
    """The book with Quarto 1.4's titles, and with 1.5's."""
    first, second = {}, {}
    for name, number, chapter, text in BOOK:
        heading = f"{number} {chapter}" if number else chapter
        first[name] = quarto_book_page(f"Book - {heading}", number, chapter, text)
        second[name] = quarto_book_page(f"{heading} – Book", number, chapter, text)
    return first, second


def test_11_quarto_book_title_parts_reordered_on_every_page_moves_nothing(
    tmp_path: Path,
) -> None:
    """A Quarto book's every <title>: "<book> - <chapter>" (Quarto 1.4) becomes "<chapter>, an
    en dash, <book>" (1.5): the same words in another order, another separator, nothing else
    changed; no page moves."""
    kept(tmp_path, *quarto_book_sites())


# 12. Hexo NexT: the meta description is the start of the post's own text, cut at a length.


NEXT_POSTS = {
    "proxy": (
        "Reverse proxy notes",
        'Setting up a reverse proxy isn\'t hard. Install nginx, open the "default" site and add a'
        " location block that passes requests to the app on port 8080.\n\nThen reload the server"
        " and watch the log while a browser asks for the front page.",
    ),
    "tls": (
        "Certificates",
        "A certificate ties a name to a key. Ask for one with an ACME client and renew it before"
        " it expires, from a timer that runs twice a day.",
    ),
    "logs": (
        "Reading logs",
        "Access logs say who asked for what, and error logs say what went wrong while answering.",
    ),
}


def hexo_escape(text: str, apostrophe: str, quote: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', quote)
        .replace("'", apostrophe)
    )


def next_post(slug: str, cut: int, apostrophe: str = "'", quote: str = "&#34;") -> str:
    title, text = NEXT_POSTS[slug]
    # (Hexo strips the post's HTML: its paragraphs' line breaks become spaces)
    description = hexo_escape(text[:cut].replace("\n", " "), apostrophe, quote)
    assert text[cut - 1].isalpha() and text[cut].isalpha()  # (cut mid-word)
    body = "</p>\n<p>".join(hexo_escape(part, "'", "&quot;") for part in text.split("\n\n"))
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="UTF-8"><meta name="generator" '
        f'content="Hexo 7.1.1"><meta name="description" content="{description}">'
        f'<meta property="og:type" content="article"><title>{title} | Wire Notes</title></head>'
        f'<body itemscope itemtype="http://schema.org/WebPage" class="use-motion"><div class="'
        f'headband"></div><main class="main"><div class="column"><header class="header" '
        f'itemscope itemtype="http://schema.org/WPHeader"><div class="site-brand-container">'
        f'<div class="site-meta"><a href="/" class="brand" rel="start"><p class="site-title">'
        f'Wire Notes</p></a></div></div><nav class="site-nav"><ul class="main-menu menu"><li '
        f'class="menu-item menu-item-home"><a href="/" rel="section">Home</a></li></ul></nav>'
        f'</header><aside class="sidebar"><div class="sidebar-inner">Overview</div></aside></div>'
        f'<div class="main-inner post posts-expand"><div class="post-block"><article itemscope '
        f'itemtype="http://schema.org/Article" class="post-content" lang="en"><link itemprop="'
        f'mainEntityOfPage" href="https://example.org/posts/{slug}/"><header class="post-header">'
        f'<h1 class="post-title" itemprop="name headline">{title}</h1><div class="post-meta-'
        f'container"><div class="post-meta"><span class="post-meta-item"><span class="post-meta-'
        f'item-text">Posted on</span> <time title="Created: 2024-01-05 10:00:00" itemprop="'
        f'dateCreated datePublished" datetime="2024-01-05T10:00:00+00:00">2024-01-05</time></span>'
        f'</div></div></header><div class="post-body" itemprop="articleBody"><p>{body}</p></div>'
        f'<footer class="post-footer"><div class="post-tags"><a href="/tags/web/" rel="tag"># '
        f'web</a></div></footer></article></div></div></main><footer class="footer"><div '
        f'class="footer-inner"><div class="copyright">© 2024 Wire Notes</div><div class="powered-'
        f'by">Powered by <a href="https://hexo.io/" rel="noopener" target="_blank">Hexo</a> &amp; '
        f'<a href="https://theme-next.js.org/" rel="noopener" target="_blank">NexT.Gemini</a>'
        f"</div></div></footer></body></html>\n"
    )


def next_site(cuts: dict[str, int], apostrophe: str, quote: str) -> Site:
    return {
        "index.html": next_post("logs", 44).replace("Reading logs", "Wire Notes"),
        **{
            f"posts/{slug}/index.html": next_post(slug, cut, apostrophe, quote)
            for slug, cut in cuts.items()
        },
    }


def next_sites() -> tuple[Site, Site]:
    """The blog as one Hexo cuts and escapes its excerpts, and as another does (the proxy
    post's longer excerpt runs into its second paragraph)."""
    first = next_site({"proxy": 129, "tls": 64, "logs": 32}, "'", "&#34;")
    second = next_site({"proxy": 204, "tls": 97, "logs": 57}, "&#39;", "&quot;")
    assert first["posts/proxy/index.html"] != second["posts/proxy/index.html"]
    return first, second


def test_12_hexo_next_auto_excerpt_re_cut_and_re_escaped_moves_nothing(tmp_path: Path) -> None:
    """Hexo NexT: <meta name="description"> is the start of the post's own text, cut at a
    length; another Hexo cuts it at another length (mid-word) and escapes ' and " otherwise
    (&#39;, &quot;); the post's body is the same, and no page moves."""
    kept(tmp_path, *next_sites())


# 13. A headline that becomes a link to the page itself.


SELF_LINKS = ("/posts/a/", "https://example.org/posts/a/index.html#top", "./")


def self_link_sites(href: str) -> tuple[Site, Site]:
    """The post's headline as text, then as a link to the post spelled ``href``."""

    def page(headline: str) -> str:
        return plain(
            "Soil moisture",
            f"<article><h1>{headline}</h1><p>A probe pushed into the soil reads its water content."
            f"</p></article>",
        )

    return plain_site(page("Soil moisture")), plain_site(
        page(f'<a href="{href}">Soil moisture</a>')
    )


@pytest.mark.parametrize("href", SELF_LINKS)
def test_13_headline_becomes_a_link_to_the_page_itself_moves_nothing(
    tmp_path: Path, href: str
) -> None:
    """A theme upgrade wraps each post's <h1> in a link to the post itself (the permalink),
    spelled absolute, as index.html with a fragment, or "./": the reader goes nowhere new."""

    kept(tmp_path, *self_link_sites(href))


# 14. Share buttons whose links carry the page's own URL.


def share_buttons(slug: str, upgraded: bool) -> str:
    url = f"https%3A%2F%2Fexample.org%2Fposts%2F{slug}%2F"
    title = POSTS[slug][0].replace(" ", "%20")
    twitter = (
        f"https://x.com/intent/post?url={url}"
        if upgraded
        else f"https://twitter.com/intent/tweet?url={url}&amp;text={title}"
    )
    return (
        f'<ul class="share-buttons"><li><a target="_blank" rel="noopener noreferrer" aria-label='
        f'"share {POSTS[slug][0]} on x" href="{twitter}">Share on X</a></li><li><a target="_blank"'
        f' rel="noopener noreferrer" aria-label="share on linkedin" href="https://www.linkedin.com/'
        f'shareArticle?mini=true&amp;url={url}&amp;title={title}">Share on LinkedIn</a></li></ul>'
    )


def share_site(upgraded: bool) -> Site:
    site = papermod_site(("b", "a"))
    for slug in ("a", "b"):
        site[f"posts/{slug}/index.html"] = papermod_post(slug, share=share_buttons(slug, upgraded))
    return site


def test_14_share_links_carrying_the_pages_own_url_moved_to_another_host_move_nothing(
    tmp_path: Path,
) -> None:
    """Hugo PaperMod's share buttons in each post's footer: the Twitter intent becomes an X
    intent (another host, path and query), its query still carrying the page's own URL; a
    share link is no content of the page, and no page moves."""
    kept(tmp_path, share_site(False), share_site(True))


# 15-17. Guards: real changes that version 4 sees, and version 5 must still see.


def test_15_a_meta_description_that_is_not_the_pages_text_changed_moves(tmp_path: Path) -> None:
    """A written summary in <meta name="description"> (not the start of the page's text): a
    new summary is a reader's change (search results show it)."""

    def page(summary: str) -> str:
        return plain(
            "Soil moisture",
            "<article><h1>Soil moisture</h1><p>A probe pushed into the soil reads its water "
            "content.</p></article>",
            head=f'<meta name="description" content="{summary}">',
        )

    first = plain_site(page("How we measure the water in the ground."))
    second = plain_site(page("Measuring soil water with a capacitance probe, step by step."))
    moved(tmp_path, first, second, PLAIN_PAGE)


def test_16_a_tag_added_to_the_articles_own_footer_moves(tmp_path: Path) -> None:
    """Hugo PaperMod's post: the tag list is in the article's own <footer> (ul.post-tags); a
    new tag is a reader's change."""
    first = papermod_site(("b", "a"))
    second = {"posts/a/index.html": papermod_post("a", tags=("mending", "wool"))}
    moved(tmp_path, first, {**first, **second}, "posts/a/")


def test_17_a_body_edit_beside_a_self_link_headline_moves(tmp_path: Path) -> None:
    """The headline becomes a link to the page itself (nothing) and the body is edited in the
    same commit (a reader's change): the page moves."""

    def page(headline: str, words: str) -> str:
        return plain("Soil moisture", f"<article><h1>{headline}</h1><p>{words}</p></article>")

    first = plain_site(page("Soil moisture", "A probe reads the water content."))
    second = plain_site(
        page('<a href="/posts/a/">Soil moisture</a>', "A probe reads the water content daily.")
    )
    moved(tmp_path, first, second, PLAIN_PAGE)


# 18. Docusaurus 3 home page: the hero <header> with the <h1> and the tagline stands before
# <main>; the tagline is every page's meta description too.


def docusaurus(title: str, tagline: str, hero: str, main: str) -> str:
    return (
        f'<!doctype html>\n<html lang="en" dir="ltr" class="plugin-pages"><head><meta charset='
        f'"UTF-8"><meta name="generator" content="Docusaurus v3.0.0"><title>{title} | Tallyho'
        f'</title><meta data-rh="true" name="description" content="{tagline}"></head><body '
        f'class="navigation-with-keyboard"><div id="__docusaurus"><div role="region" aria-label='
        f'"Skip to main content"><a class="skipToContent_fXgn" href="#__docusaurus_skipToContent_'
        f'fallback">Skip to main content</a></div><nav aria-label="Main" class="navbar navbar--'
        f'fixed-top"><a class="navbar__brand" href="/"><b class="navbar__title">Tallyho</b></a>'
        f'<a class="navbar__item navbar__link" href="/intro">Docs</a></nav>'
        f'<div id="__docusaurus_skipToContent_fallback" class="main-wrapper mainWrapper_z2l0">'
        f'{hero}<main>{main}</main></div><footer class="footer"><div class="footer__copyright'
        f'">Copyright © 2024 Tallyho</div></footer></div></body></html>\n'
    )


def docusaurus_site(tagline: str) -> Site:
    hero = (
        f'<header><div class="css-z222xo"><div class="css-z260uf"><h1 class="css-10e1wnn">'
        f'Tallyho</h1><p class="css-1gjhtdo">{tagline}</p></div></div></header>'
    )
    features = (
        '<section class="css-1x2y3z"><div><h3>Counts</h3><p>Counts what you tell it to.</p>'
        "</div><div><h3>Exports</h3><p>Writes a CSV file.</p></div></section>"
    )

    def doc(name: str, text: str) -> str:
        return docusaurus(
            name,
            tagline,
            "",
            f'<div class="container"><article><div class="theme-doc-markdown markdown"><header>'
            f"<h1>{name}</h1></header><p>{text}</p></div></article></div>",
        )

    return {
        "index.html": docusaurus("Home", tagline, hero, features),
        "intro.html": doc("Introduction", "Install it with one command."),
        "usage.html": doc("Usage", "Point it at a folder."),
        "export.html": doc("Export", "Choose the columns to write."),
        "faq.html": doc("FAQ", "It runs offline."),
    }


def test_18_docusaurus_hero_tagline_fixed_before_main_moves(tmp_path: Path) -> None:
    """Docusaurus 3 home page: the hero header (the <h1> and the tagline) stands before
    <main>, which holds no <h1>; one commit fixes a typo in the tagline there and in every
    page's description. The description edit alone, on every page, is template; the home
    page's own title block changed."""
    first = docusaurus_site("Count the things in your proejct.")
    second = docusaurus_site("Count the things in your project.")
    moved(tmp_path, first, second, "")


# 19. Nested <main> elements (a Docusaurus home page whose sections are <main>s of their own):
# the region is the first <main> to its own end tag.


def test_19_text_after_a_nested_main_moves(tmp_path: Path) -> None:
    """The home page's <main> holds a <main> per feature section and text after them; an edit
    of that text is a reader's change."""

    def home(closing: str) -> str:
        return plain(
            "Home",
            '<h1>Field Notes</h1><div class="features"><main class="feature"><h2>Sensors</h2>'
            '<p>Cheap sensors, careful notes.</p></main><main class="feature"><h2>Logs</h2>'
            f"<p>One log a day.</p></main></div><p>{closing}</p>",
        )

    first = {**plain_site(plain("Soil moisture", "<article><h1>Soil moisture</h1></article>"))}
    second = dict(first)
    first["index.html"] = home("Start with the posts below.")
    second["index.html"] = home("Start with the newest post below.")
    moved(tmp_path, first, second, "")


# 20. Hexo Matery: a list page's description is its title; the site is renamed in one commit.


def matery(title: str, description: str, main: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta name="description" content="{description}"><meta name="generator" content='
        f'"Hexo 4.2.0"></head><body><header class="navbar-fixed"><nav class="bg-color nav-'
        f'transparent"><a href="/" class="waves-effect">Home</a></nav></header>\n<main '
        f'class="content">{main}</main>\n<footer class="page-footer">© 2024</footer></body>'
        f"</html>\n"
    )


def matery_site(site: str) -> Site:
    names = ("nginx", "centos7", "docker", "git")
    pages: Site = {}
    for name in names:
        pages[f"categories/{name}/index.html"] = matery(
            f"Category: {name} | {site}",
            f"Category: {name} | {site}",
            f'<div class="card"><h2>{name}</h2><article class="article"><a href="/posts/{name}/">'
            f"Notes on {name}</a></article></div>",
        )
        pages[f"posts/{name}/index.html"] = matery(
            f"Notes on {name} | {site}",
            f"What I keep forgetting about {name}.",
            f'<article class="article"><h1>Notes on {name}</h1><p>Setting up {name} takes three '
            f"commands and one config file.</p></article>",
        )
    return pages


def test_20_site_renamed_in_every_title_and_title_descriptions_moves_nothing(
    tmp_path: Path,
) -> None:
    """The site's name in every <title> changes in one commit; the list pages' descriptions
    repeat their titles. The title's shared part is template, and a description that repeats
    the title says nothing beyond it."""
    kept(tmp_path, matery_site("leader Blogs"), matery_site("Autumn Cicada"))


# 21. VuePress Theme Hope: a raw "<script>" in a page's og:description (allowed in a quoted
# value); the page's body is edited below it.


def hope(body: str) -> str:
    return plain(
        "Markdown and Vue SFC",
        f"<article><h1>Markdown and Vue SFC</h1><p>{body}</p></article>",
        head='<meta property="og:description" content="Write Markdown like an SFC: <script> and '
        '<style> tags stay tags, lifted out of <template>.">',
    )


def test_21_a_raw_tag_in_a_meta_value_hides_no_edit_below_it(tmp_path: Path) -> None:
    first = plain_site(hope("Each Markdown file is compiled to HTML first."))
    second = {"posts/a/index.html": hope("Each Markdown file is compiled to HTML, then to Vue.")}
    moved(tmp_path, first, second, "posts/a/")


# 22. A site's links leave a beta host in one commit: pages of several sections, each linking
# to its own neighbours (Just the Docs' previous/next links), few of any one section.


def book_site(host: str) -> Site:
    pages: Site = {}
    for part in ("algebra", "circuits", "memory", "timing"):
        for number, chapter in enumerate(("intro", "gates")):
            other = "gates" if chapter == "intro" else "intro"
            pages[f"docs/{part}/{chapter}.html"] = plain(
                f"{part} {chapter}",
                f"<article><h1>{chapter.title()} of {part}</h1><p>Chapter {number + 1} of the "
                f'{part} part.</p><a href="{host}/docs/{part}/{other}.html">Next: {other}</a>'
                "</article>",
            )
    return pages


def test_22_links_moved_from_a_beta_host_on_pages_of_every_section_move_nothing(
    tmp_path: Path,
) -> None:
    kept(tmp_path, book_site("https://beta.example.org"), book_site(""))
