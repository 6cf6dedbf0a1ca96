"""Content dates on pages shaped like real themes' markup (structure copied from real built
sites, text our own), in real git repositories with fixed dates: a change of the navigation,
the table of contents, a sidebar, a paginator, a "last updated" line or an empty description
moves no page; an article edit moves exactly that page; a link made relative or a trailing slash
dropped moves nothing (fingerprint versions 3 and 4)."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_content_dates_bucket import T1 as BUCKET_T1
from test_content_dates_bucket import T2 as BUCKET_T2
from test_content_dates_bucket import T3 as BUCKET_T3
from test_content_dates_bucket import W1 as BUCKET_W1
from test_content_dates_bucket import lastmods as bucket_lastmods
from test_content_dates_bucket import rebuild, s3, upload
from test_content_dates_git import T1, T2, T3, T4, build, w3c
from test_content_dates_tree import BASE as TREE_BASE
from test_content_dates_tree import T1 as UNIX_T1
from test_content_dates_tree import T2 as UNIX_T2
from test_content_dates_tree import T3 as UNIX_T3
from test_content_dates_tree import W1 as TREE_W1
from test_content_dates_tree import lastmods as tree_lastmods
from test_content_dates_tree import run as run_tree

from gitutil import commit, make_repo
from s3util import BUCKET
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    file_url,
    fingerprint_html,
)
from sitemill.state.parse import parse_state

__all__ = ["s3"]  # (the moto bucket fixture, used here)
UNIX = (UNIX_T1, UNIX_T2, UNIX_T3)
W = (TREE_W1,)
BUCKET_TIMES = (BUCKET_T1, BUCKET_T2, BUCKET_T3)

PAGES = ("guide", "install", "faq")


def material(name: str, article: str, build: int, link: str) -> str:
    """Material for MkDocs: the primary (nav) and secondary (TOC) sidebars inside
    <main class="md-main">, the git-revision-date "Last update" aside inside the article."""
    nav = "".join(
        f'<li class="md-nav__item"><a href="../{page}/" class="md-nav__link">'
        f'<span class="md-ellipsis">{page.title()}{" file" * build}</span></a></li>'
        for page in PAGES
    )
    toc = f'<nav class="md-nav md-nav--secondary"><ul><li><a href="#usage">Usage{"!" * build}</a>'
    return (
        f"<!doctype html><html><head><title>{name} - Docs</title></head><body>"
        f'<header class="md-header"><nav class="md-header__inner">Docs</nav></header>'
        f'<div class="md-container"><nav class="md-tabs">Tabs</nav><main class="md-main">'
        f'<div class="md-main__inner md-grid"><div class="md-sidebar md-sidebar--primary">'
        f'<div class="md-sidebar__scrollwrap"><nav class="md-nav md-nav--primary"><ul>{nav}</ul>'
        f'</nav></div></div><div class="md-sidebar md-sidebar--secondary">{toc}</ul></nav></div>'
        f'<div class="md-content"><article class="md-content__inner md-typeset"><h1>{name}</h1>'
        f'<p>{article} See <a href="{link}">the FAQ</a>.</p><aside class="md-source-file">'
        f'<span class="md-source-file__fact"><span class="md-icon" title="Last update"></span>'
        f"<span>2024-0{build + 1}-06</span></span></aside></article></div></div></main>"
        f'<footer class="md-footer">Made with Material {build}</footer></div></body></html>\n'
    )


def docsy(name: str, article: str, build: int, link: str) -> str:
    """Hugo Docsy: <main role=main> ends with "Page last updated <date>: <a href=…/commit/…>",
    an empty description (spelled two ways by two Hugo versions), the page's TOC in an aside."""
    description = ('<meta name="description" content="">', "<meta name=description content>")
    repository = ("incubator-hugegraph-doc", "hugegraph-doc")[build % 2]
    return (
        f"<!doctype html><html><head><title>{name} | Docs</title>{description[build % 2]}"
        f'</head><body class="td-page"><header><nav class="navbar">Docs Blog</nav></header>'
        f'<div class="container-fluid td-outer"><div class="td-main"><div class="row">'
        f'<aside class="col-12 col-md-3 td-sidebar">{" ".join(PAGES[: 2 + build % 2])}</aside>'
        f'<aside class="d-none d-xl-block td-sidebar-toc">On this page {build}</aside>'
        f'<main class="col-12 td-main" role="main"><nav aria-label="breadcrumb">Docs / {name}'
        f'</nav><div class="td-content"><h1>{name}</h1><p>{article} See <a href="{link}">the FAQ'
        f'</a>.</p><div class="text-muted mt-5 pt-3 border-top">Page last updated '
        f"February {build + 2}, 2026: <a href=https://github.com/apache/{repository}/commit/"
        f"655c3fd9{build}>Fix typos (655c3fd{build})</a></div></div></main></div></div>"
        f"<footer>© 202{build} The Foundation</footer></div></body></html>\n"
    )


def docusaurus(name: str, article: str, build: int, link: str) -> str:
    """Docusaurus 3: the blog sidebar in an aside, the paginator (nav.pagination-nav) inside
    <main> after the article, whose header and footer (tags) are its own."""
    label = ("Newer Post", "Newer post")[build % 2]
    return (
        f"<!doctype html><html><head><title>{name} | Wiki</title></head><body>"
        f'<div id="__docusaurus"><div class="announcementBar" role="banner">Star us {build}</div>'
        f'<nav class="navbar">Wiki Blog</nav><div class="main-wrapper"><div class="container">'
        f'<div class="row"><aside class="col col--3"><nav class="sidebar">Recent posts '
        f'{" ".join(PAGES[: 2 + build % 2])}</nav></aside><main class="col col--7">'
        f'<article><header><h1 class="title">{name}</h1></header><div class="markdown">'
        f'<p>{article} See <a href="{link}">the FAQ</a>.</p></div><footer class="row">'
        f'<a href="/tags/news">news</a></footer></article><nav class="pagination-nav">'
        f'<a class="pagination-nav__link" href="/blog/{PAGES[build % 3]}">'
        f'<div class="pagination-nav__sublabel">{label}</div></a></nav></main></div></div></div>'
        f'<footer class="footer">Copyright © 202{build}</footer></div></body></html>\n'
    )


def starlight(name: str, article: str, build: int, link: str) -> str:
    """Astro Starlight: the prev/next pagination and "Last updated" in a <footer> inside
    <main> (no <article>); the sidebar and the TOC's aside outside it."""
    number = 43 + build
    return (
        f"<!doctype html><html><head><title>{name} | Book</title></head><body>"
        f'<div class="page"><header class="header">Book</header><nav class="sidebar">'
        f"{number}. Chapter</nav><div class=main-frame><aside class=right-sidebar-container>"
        f"On this page {build}</aside><div class=main-pane><main><div class=content-panel>"
        f"<h1>{name}</h1></div><div class=content-panel><div class=sl-markdown-content>"
        f'<p>{article} See <a href="{link}">the FAQ</a>.</p></div><footer><div class=meta>'
        f'<p>Last updated: <time datetime="2026-0{build + 1}-07">Jun {build + 1}, 2026</time></p>'
        f'</div><div class=pagination-links><a href="../{PAGES[build % 3]}/" rel=prev>'
        f"<span class=link-title>{number}. Template</span></a></div></footer></div></main>"
        f"</div></div></div></body></html>\n"
    )


def nextjs(name: str, article: str, build: int, link: str) -> str:
    """A Next.js export without <main>: a header nav and a footer with the copyright year."""
    return (
        f"<!doctype html><html><head><title>{name}</title></head><body><div id=__next>"
        f'<header class="Header_header"><nav>Home Articles</nav></header><section>'
        f'<h1>{name}</h1><p>{article} See <a href="{link}">the FAQ</a>.</p></section>'
        f'<footer class="Footer_footer"><div class="Footer_copyright">© 202{build + 3}</div>'
        f"</footer></div></body></html>\n"
    )


def material_sponsored(name: str, article: str, build: int, link: str) -> str:
    """Material for MkDocs before and after 9.5: the "Last update" line inside the article, right
    before the article's own sponsor footer (a link); then in an aside (furniture)."""
    dated = (
        f"<hr><div class=md-source-file><small>Last update: <span>March {build + 2}, 2023</span>"
        "</small></div>",
        f'<aside class="md-source-file"><span class="md-source-file__fact">Last update: '
        f"2024-0{build}-06</span></aside>",
    )[build % 2]
    return (
        f"<!doctype html><html><head><title>{name} - Docs</title></head><body><main>"
        f'<div class="md-content"><article class="md-content__inner md-typeset"><h1>{name}</h1>'
        f'<p>{article} See <a href="{link}">the FAQ</a>.</p>{dated}<footer class=sponsorship>'
        f'<a href="https://github.com/sponsors/someone">Sponsor</a></footer></article></div>'
        f"</main></body></html>\n"
    )


def gatsby(name: str, article: str, build: int, link: str) -> str:
    """A Gatsby blog: the author's picture after the post, a blur-up placeholder (a data: URI
    that each image library version encodes anew) beside the image itself."""
    placeholder = ("/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0o", "/9j/2wBDAAEBAQEBAQEBAQEB")
    return (
        f"<!doctype html><html><head><title>{name}</title></head><body><div id=___gatsby>"
        f'<div class="blog-post"><h1>{name}</h1><div class="blog-content"><p>{article} See '
        f'<a href="{link}">the FAQ</a>.</p></div><div class="css-14e3tt2"><img aria-hidden=true '
        f'src="data:image/jpeg;base64,{placeholder[build % 2]}"><img src="/static/ab12/me.png">'
        f"</div></div></div></body></html>\n"
    )


def minimal_mistakes(name: str, article: str, build: int, link: str) -> str:
    """Jekyll Minimal Mistakes: the author sidebar and the "You may also enjoy" teasers
    (articles) beside the post, all inside [role=main]; the post holds the page's <h1>."""
    teasers = "".join(
        f'<div class="grid__item"><article class="archive__item"><h2 class="archive__item-title">'
        f'<a href="/{page}/">{page.title()}</a></h2><p>{page} in {build}.</p></article></div>'
        for page in PAGES[build % 2 :]
    )
    twitter = '<li><a href="https://twitter.com/someone">Twitter</a></li>' * (1 - build % 2)
    return (
        f"<!doctype html><html><head><title>{name}</title></head><body>"
        f'<div class="masthead"><nav id="site-nav">Home</nav></div><div id="main" role="main">'
        f'<div class="sidebar sticky"><h3 class="author__name">Someone</h3><ul>{twitter}</ul>'
        f'</div><article class="page"><div class="page__inner-wrap"><header><h1 id="page-title">'
        f'{name}</h1></header><section class="page__content"><p>{article} See <a href="{link}">'
        f'the FAQ</a>.</p></section></div></article><div class="page__related">'
        f'<h2 class="page__related-title">You may also enjoy</h2><div class="grid__wrapper">'
        f"{teasers}</div></div></div></body></html>\n"
    )


THEMES = [
    material,
    docsy,
    docusaurus,
    starlight,
    nextjs,
    material_sponsored,
    gatsby,
    minimal_mistakes,
]


def site_pages(
    theme: Callable[[str, str, int, str], str], build: int, **changes: str
) -> dict[str, str]:
    """Every page of the site at one build (its furniture), with its link to the FAQ spelled
    ``link`` and the articles ``changes`` name edited."""
    link = changes.pop("link", "../faq/")
    return {
        f"{page}/index.html": theme(page.title(), changes.get(page, f"About {page}."), build, link)
        for page in PAGES
    }


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.__name__)
def test_only_an_article_edit_moves_a_date(
    tmp_path: Path, theme: Callable[[str, str, int, str], str]
) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, site_pages(theme, 0), T1)
    # A theme upgrade and new pages elsewhere: every piece of furniture changes, no article.
    commit(repo, site_pages(theme, 1), T2)
    # The link spelled otherwise (absolute, no trailing slash, index.html, ./), one edit.
    commit(repo, site_pages(theme, 1, link="https://example.com/faq", install="About install!"), T3)
    commit(repo, site_pages(theme, 1, link="../faq/index.html", install="About install!"), T4)
    dates, _ = build(repo)
    if theme is minimal_mistakes:
        # Fingerprint version 5 counts what stands beside the post inside [role=main] (the
        # author sidebar, the teasers: no article is narrowed to beside other articles), and on
        # a site of 3 pages no edit is "most pages'" (history.templateedits): the theme's upgrade
        # dates them. Later, never earlier: telling what the site repeats apart is issue 48's.
        assert dates == {"guide/": w3c(T2), "install/": w3c(T3), "faq/": w3c(T2)}
        return
    assert dates == {"guide/": w3c(T1), "install/": w3c(T3), "faq/": w3c(T1)}


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.__name__)
def test_a_link_that_goes_elsewhere_moves_its_page(
    tmp_path: Path, theme: Callable[[str, str, int, str], str]
) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, site_pages(theme, 0), T1)
    commit(repo, site_pages(theme, 0, link="./faq/"), T2)  # from guide/: guide/faq, elsewhere
    dates, _ = build(repo)
    assert set(dates.values()) == {w3c(T2)}


def downgraded(state: bytes, pages: dict[str, str], version: int) -> bytes:
    """The state as sitemill with fingerprint ``version`` wrote it for ``pages`` (a version
    this sitemill no longer computes: fingerprints it never compares)."""
    document = json.loads(gzip.decompress(state))
    document["fingerprint_version"] = version
    for name, record in document["pages"].items():
        url = file_url(TREE_BASE, name)
        if version in EARLIER_VERSIONS:
            data = pages[name].encode()
            record["fingerprint"] = fingerprint_html(data, version=version, url=url)
        else:
            record["fingerprint"] = "0" * 32
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def write_tree(root: Path, pages: dict[str, str], when: int) -> None:
    """The pages, each a day older than the one before (no build's stamp: a first run dates
    them by their mtimes)."""
    for index, (name, text) in enumerate(pages.items()):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        os.utime(root / name, (when - index * 86_400,) * 2)


def test_an_upgrade_from_three_versions_back_takes_the_ladder_on_a_tree(tmp_path: Path) -> None:
    # Material's pages: a state three versions old, which this sitemill no longer computes. A folder
    # has no blob to say a page is unchanged: its pages take the evidence ladder once, as on
    # a first run (their spread mtimes), and are compared from then on.
    site, out = tmp_path / "public", tmp_path / "out"
    write_tree(site, site_pages(material, 0), UNIX[0])
    run_tree(site, out)
    first = tree_lastmods(out)
    assert len(first) == 3 and W[0] in first.values()  # (by their mtimes, spread)
    (out / STATE_NAME).write_bytes(
        downgraded(
            (out / STATE_NAME).read_bytes(), site_pages(material, 0), FINGERPRINT_VERSION - 4
        )
    )
    write_tree(site, site_pages(material, 0), UNIX[1])  # a CI rebuild: new times, same bytes
    assert run_tree(site, out).dates == {"file time": 3}
    assert parse_state((out / STATE_NAME).read_bytes()).fingerprint_version == FINGERPRINT_VERSION
    laddered = tree_lastmods(out)
    write_tree(site, site_pages(material, 1), UNIX[2])  # then a nav and TOC change
    assert run_tree(site, out).dates == {"kept": 3}
    assert tree_lastmods(out) == laddered


@pytest.mark.parametrize(
    # (not Minimal Mistakes: version 5 counts what its upgrade changed beside the post, above)
    "theme",
    [material_sponsored, gatsby],
    ids=lambda theme: theme.__name__,
)
def test_an_upgrade_from_version_3_moves_no_date_on_a_tree(
    tmp_path: Path, theme: Callable[[str, str, int, str], str]
) -> None:
    # Version 4 mends a space left by a self-date beside a link, and counts an inline image by
    # its type: fingerprints of such pages change, and a state of version 3 keeps their dates.
    site, out = tmp_path / "public", tmp_path / "out"
    write_tree(site, site_pages(theme, 0), UNIX[0])
    run_tree(site, out)
    first = tree_lastmods(out)
    assert len(first) == 3 and W[0] in first.values()  # (by their mtimes, spread)
    pages, upgraded = site_pages(theme, 0), site_pages(theme, 1)
    previous = FINGERPRINT_VERSION - 1  # (3 here: the version this test was written for)
    (out / STATE_NAME).write_bytes(downgraded((out / STATE_NAME).read_bytes(), pages, previous))
    write_tree(site, pages, UNIX[1])  # a CI rebuild: new times, same bytes
    assert run_tree(site, out).dates == {"kept": 3}
    assert parse_state((out / STATE_NAME).read_bytes()).fingerprint_version == FINGERPRINT_VERSION
    write_tree(site, upgraded, UNIX[2])  # the theme's upgrade
    assert run_tree(site, out).dates == {"kept": 3}
    assert tree_lastmods(out) == first


@pytest.mark.parametrize("version", [FINGERPRINT_VERSION - 1, FINGERPRINT_VERSION - 2])
def test_an_upgrade_moves_no_date_of_an_unchanged_object_on_a_bucket(s3: Any, version: int) -> None:
    # The previous version, or one two versions back: an object of unchanged ETag keeps its
    # date either way.
    upload(s3, site_pages(material, 0), BUCKET_TIMES[0], spread=True)
    rebuild(s3)
    first = bucket_lastmods(s3)
    assert len(first) == 3 and BUCKET_W1 in first.values()  # (by their LastModified, spread)
    state = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    s3.put_object(
        Bucket=BUCKET, Key=STATE_NAME, Body=downgraded(state, site_pages(material, 0), version)
    )
    upload(s3, site_pages(material, 0), BUCKET_TIMES[1])  # aws s3 sync: new times, same bytes
    assert rebuild(s3).dates == {"kept": 3}
    upload(s3, site_pages(material, 1), BUCKET_TIMES[2])  # a nav and TOC change
    report = rebuild(s3)
    assert report.dates == {"kept": 3}
    assert bucket_lastmods(s3) == first


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.__name__)
def test_a_tree_and_a_bucket_give_the_same_fingerprints(
    tmp_path: Path, s3: Any, theme: Callable[[str, str, int, str], str]
) -> None:
    pages = site_pages(theme, 1)
    write_tree(tmp_path / "public", pages, UNIX[0])
    run_tree(tmp_path / "public", tmp_path / "out")
    upload(s3, pages, BUCKET_TIMES[0])
    rebuild(s3)
    tree = parse_state((tmp_path / "out" / STATE_NAME).read_bytes()).pages
    bucket = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()).pages
    assert {name: tree[name].fingerprint for name in pages} == {
        name: bucket[name].fingerprint for name in pages
    }
