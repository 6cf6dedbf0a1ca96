"""The main region of a page: what content dates fingerprint when content_scope = "main".

The shapes are the real ones that moved dates on real sites: a theme upgrade that changed an
MkDocs site's navigation, footer and search placeholder (444 of 504 pages, 396 of whose articles
did not change a word); a nav label gaining a word; a Docusaurus "recent posts" sidebar and a
footer's copyright year; a Hugo tag cloud whose labels flip spelling between builds.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import timing
from sitemill.lastmod.fingerprint.digest import fingerprint_html


def mkdocs(
    nav: str = "Home Guide", footer: str = "Made with MkDocs", article: str = "Text."
) -> bytes:
    return (
        "<!doctype html><html><head><title>Guide - Site</title>"
        '<meta name="description" content="The guide."></head><body>'
        f'<header class="md-header"><input placeholder="Search"><nav>{nav}</nav></header>'
        '<div class="md-container"><nav class="md-nav"><a href="/">Home</a></nav>'
        f'<main class="md-main"><article class="md-content__inner"><h1>Guide</h1><p>{article}</p>'
        f'</article></main><footer class="md-footer">{footer}</footer></div></body></html>'
    ).encode()


def docusaurus(sidebar: str = "Post A", year: str = "2024", text: str = "Intro.") -> bytes:
    return (
        "<html><head><title>Intro</title></head><body><div id=__docusaurus>"
        '<nav class="navbar">Docs Blog</nav><div class="main-wrapper">'
        f'<aside class="theme-doc-sidebar">{sidebar}</aside>'
        f'<div role="main" class="container"><div class="row"><article>{text}</article></div>'
        f'<div class="toc">On this page</div></div></div>'
        f"<footer>Copyright © {year} Me</footer></div></body></html>"
    ).encode()


def hugo(tags: str = "HTML Go", text: str = "Post.") -> bytes:
    return (
        "<html><head><title>Post</title></head><body><header>Blog</header>"
        f"<article><h1>Post</h1><p>{text}</p></article>"
        f'<aside class="tags">{tags}</aside></body></html>'
    ).encode()


FURNITURE = [
    pytest.param(mkdocs(), mkdocs(nav="Home Guide Reference"), id="a nav label gains a word"),
    pytest.param(mkdocs(), mkdocs(footer="powered by MkDocs and Material"), id="theme footer"),
    pytest.param(docusaurus(), docusaurus(sidebar="Post B Post A"), id="recent posts"),
    pytest.param(docusaurus(), docusaurus(year="2025"), id="copyright year"),
    pytest.param(hugo(), hugo(tags="Html Go"), id="tag cloud spelling flips"),
]
CONTENT = [
    pytest.param(mkdocs(), mkdocs(article="Text, edited."), id="mkdocs article"),
    pytest.param(docusaurus(), docusaurus(text="Intro, edited."), id="docusaurus doc"),
    pytest.param(hugo(), hugo(text="Post, edited."), id="hugo post"),
    pytest.param(
        mkdocs(), mkdocs().replace(b"The guide.", b"The new guide."), id="meta description"
    ),
    pytest.param(mkdocs(), mkdocs().replace(b"Guide - Site", b"Guide 2 - Site"), id="title"),
]


@pytest.mark.parametrize(("before", "after"), FURNITURE)
def test_furniture_moves_no_date(before: bytes, after: bytes) -> None:
    assert fingerprint_html(after) == fingerprint_html(before)
    assert fingerprint_html(after, main=False) != fingerprint_html(before, main=False)


@pytest.mark.parametrize(("before", "after"), CONTENT)
def test_content_moves_the_date(before: bytes, after: bytes) -> None:
    assert fingerprint_html(after) != fingerprint_html(before)


def repeat(unit: bytes) -> Callable[[int], bytes]:
    return lambda size: unit * (size // len(unit))


@pytest.mark.parametrize(
    "make",
    [
        repeat(b"<main>"),
        repeat(b"<div role=main>"),
        repeat(b"<div role=main><div>"),
        repeat(b"<article></article>"),
        repeat(b"<title>"),
        repeat(b'<p role="x main">'),
    ],
)
def test_hostile_structure_takes_linear_time(make: Callable[[int], bytes]) -> None:
    # Eight times the input takes about eight times as long, 64 times if it were quadratic.
    assert timing.linear(fingerprint_html, make(62_500), make(500_000), 20)
