"""A move of the site's host and base path is one edit (issue 79, principle 7), wherever the
site's URLs moved to. Two real git histories, structure copied from the built pages of two
blogs, text our own:

- a Publii blog (alrikrr's at ``ca9fc42`` and ``138478dc59``) whose every URL moved from its
  host to the author's Windows preview folder, ``file:///C:\\Users\\…\\preview/`` (backslashes in
  links and the canonical, slashes in images, srcsets and JSON-LD, the share buttons' queries
  URL-encoded), then to relative links, its share buttons carrying Publii's
  ``#PUBLII_RELATIVE_URL_BASE#`` before each post's path: fingerprint version 13 (amended) reads
  every target as a browser does and at the root the page's canonical declares;
- a Pelican blog (deadc0de6's at ``48259f63f9``) whose links moved from the host it was built for,
  ``https://old.example.net/x.html``, to its own (``/x``), the archive linking ``yubikey`` and
  ``yubikey-ssh``, whose order the ``.html`` dropped reverses: dating rules 22 pair each target by
  the move that made it, not by its place in sorted order."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from test_dates_brand_header import sitemap_dates
from test_dates_on_untuned_themes import T1, T2, Site, w3c

from sitemill.lastmod.fingerprint._browserurl import browser_read
from sitemill.lastmod.fingerprint.digest import reduce_html

T3 = "2024-02-20 10:01:00"
T4 = "2024-03-30 11:00:00"
PREVIEW = "file:///C:\\Users\\me\\Documents\\Publii\\sites\\blog\\preview/"
PREVIEW_SLASHED = PREVIEW.replace("\\", "/")
ENCODED_PREVIEW = (
    "file%3A%2F%2F%2FC%3A%5CUsers%5Cme%5CDocuments%5CPublii%5Csites%5Cblog%5Cpreview%2F"
)
MACOS_PREVIEW = "file:////Users/me/Documents/Publii/sites/blog/preview/"
POSTS = {
    "green-tea": ("Green tea", "Steep it for three minutes at eighty degrees."),
    "black-tea": ("Black tea", "Boiling water and four minutes make it strong."),
    "white-tea": ("White tea", "The buds are dried in the sun and not rolled."),
    "oolong": ("Oolong", "Half oxidised leaves rolled into small balls."),
}


def publii_post(slug: str, where: str, *, edited: bool = False) -> str:
    """A Publii post at ``where`` its URLs stand: "host" (https://example.org/), "preview"
    (the Windows preview folder), "macos" (the macOS one) or "relative"."""
    title, text = POSTS[slug]
    text = f"{text} Then drink it slowly." if edited else text
    if where == "host":
        link = img = "https://example.org/"
        shared = f"https%3A%2F%2Fexample.org%2F{slug}%2F"
    elif where == "preview":
        link, img = PREVIEW, PREVIEW_SLASHED
        shared = f"{ENCODED_PREVIEW}{slug}%2Findex.html"
    elif where == "macos":  # (its canonical and links under "//Users", its images under "/Users")
        link, img = MACOS_PREVIEW, MACOS_PREVIEW.replace("////", "///")
        shared = quote(f"{MACOS_PREVIEW}{slug}/index.html", safe="")
    else:
        link = img = "./../"
        shared = f"%23PUBLII_RELATIVE_URL_BASE%23%2F{slug}%2F"
    index = "index.html" if where == "preview" else ""
    head = ""
    if where != "relative":  # (Publii's relative URLs write no canonical and no JSON-LD)
        head = (
            f'<link rel="canonical" href="{link}{slug}/{index}"><script type="application/ld+'
            f'json">{{"@context":"https://schema.org","@type":"Article","mainEntityOfPage":{{'
            f'"@type":"WebPage","@id":"{img}{slug}/"}},"headline":"{title}","image":{{"@type":'
            f'"ImageObject","url":"{img}media/posts/{slug}/cup.png"}},"author":{{"@type":"Pers'
            f'on","name":"Leaf","url":"{img}authors/leaf/"}}}}</script>'
        )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} - Leaf'
        f'&#x27;s Blog</title>{head}</head><body><div id="main"><header id="header"><a '
        f'class="logo" href="{link}{index}"><strong>Leaf&#x27;s Blog</strong></a></header><sec'
        f'tion><article class="post"><header class="main post__header"><h1>{title}</h1></header>'
        f'<figure class="post__image"><img src="{img}media/posts/{slug}/cup.png" srcset="{img}'
        f"media/posts/{slug}/responsive/cup-xs.png 300w, {img}media/posts/{slug}/responsive/cup"
        f'-md.png 768w" alt=""></figure><div class="post__inner"><p>{text}</p></div><footer cla'
        f'ss="post__footer"><div class="post__share"><a href="https://twitter.com/share?url='
        f'{shared}&amp;text={title}" class="js-share">Twitter</a><a href="https://www.linkedin.com'
        f'/sharing/share-offsite/?url={shared}" class="js-share">LinkedIn</a></div><p>Tagged in:'
        f' <a href="{link}tags/tea/{index}">tea</a></p><p>Posted by <a href="{link}authors/leaf'
        f'/{index}">Leaf</a></p></footer></article></section></div></body></html>\n'
    )


def publii_site(where: str, edited: str = "") -> Site:
    """Every post of the blog with its URLs at ``where``; ``edited``: a post whose text gained
    a line."""
    return {f"{slug}/index.html": publii_post(slug, where, edited=slug == edited) for slug in POSTS}


def test_a_move_to_a_preview_folder_and_then_to_relative_links_dates_no_post(
    tmp_path: Path,
) -> None:
    found = sitemap_dates(
        tmp_path,
        (publii_site("host"), T1),
        (publii_site("preview"), T2),
        (publii_site("relative"), T3),
        (publii_site("relative", edited="white-tea"), T4),
    )
    # The post whose text changed is dated by its edit; the others by their first commit: the
    # host, the preview folder and relative links are one site's URLs, and the share buttons
    # carry each post's own URL at whatever root.
    assert found.pop("white-tea/") == w3c(T4)
    assert found == dict.fromkeys(("green-tea/", "black-tea/", "oolong/"), w3c(T1))


def test_each_version_of_a_post_reduces_alike_by_version_13_only() -> None:
    url = "https://example.org/green-tea/"
    reduced = {
        where: {
            version: reduce_html(publii_post("green-tea", where).encode(), url=url, version=version)
            for version in (12, 13)
        }
        for where in ("host", "preview", "macos", "relative")
    }
    assert len({reduced[where][13] for where in reduced}) == 1
    assert "C:" not in reduced["preview"][13] and "PUBLII" not in reduced["relative"][13]
    # Version 12 (the one before, kept computable) reads them as before: three versions.
    assert len({reduced[where][12] for where in reduced}) == 4


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (PREVIEW + "tags\\tea\\index.html", PREVIEW_SLASHED + "tags/tea/index.html"),
        ("..\\media\\cup.png?v=a\\b#c\\d", "../media/cup.png?v=a\\b#c\\d"),  # (before "?" only)
        ("  HTTPS://Example.ORG:443/Tea", "https://example.org/Tea"),
        ("http://example.org:80\\x", "http://example.org/x"),
        ("https:/other.example/x", "/other.example/x"),  # (relative on an https page)
        ("http:/other.example/x", "http://other.example/x"),
        ("\\\\cdn.example\\x.png", "//cdn.example/x.png"),
        ("file://localhost/C:/x", "file:///C:/x"),
        ("file:C:\\x", "file:///C:/x"),
        ("mailto:me@example.org\\x", "mailto:me@example.org\\x"),  # (no special scheme)
    ],
)
def test_a_target_is_read_as_a_browser_reads_it(written: str, read: str) -> None:
    assert browser_read(written, "https") == read


# Deadc0de6's D2: the archive and every post linked the pages at the host the site was built for,
# then at its own, spelled clean.
ARTICLES = ("yubikey", "yubikey-ssh", "unix-tricks", "unix-tricks-2", "tea", "coffee")


def pelican_page(title: str, body: str, host: str, suffix: str) -> str:
    """A Pelican page whose menu links the site's pages at ``host`` with ``suffix``."""
    menu = "".join(
        f'<li><a href="{host}/pages/{name}{suffix}">{name}</a></li>'
        for name in ("archives", "tags")
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} // leaf // '
        f'</title></head><body><nav><ul>{menu}</ul></nav><div class="content">{body}</div>'
        "</body></html>\n"
    )


def pelican_site(host: str, suffix: str) -> Site:
    """Every article, the archive linking each, the links at ``host`` with ``suffix``."""
    pages: Site = {}
    for name in ARTICLES:
        body = (
            f"<h1>{name}</h1><p>What {name} is about, in a few words of its own.</p><p>Back to "
            f'<a href="{host}/pages/archives{suffix}">the archive</a>.</p>'
        )
        pages[f"articles/{name}.html"] = pelican_page(name, body, host, suffix)
    listed = "".join(
        f'<div class="archive-post"><a href="{host}/articles/{name}{suffix}">{name}</a></div>'
        for name in ARTICLES
    )
    pages["pages/archives.html"] = pelican_page("archives", f"<h2>All</h2>{listed}", host, suffix)
    return pages


def test_a_host_move_that_reorders_a_list_s_links_dates_no_page(tmp_path: Path) -> None:
    found = sitemap_dates(
        tmp_path,
        (pelican_site("https://old.example.net", ".html"), T1),
        (pelican_site("https://example.org", ""), T2),
    )
    # ``…/yubikey-ssh.html`` sorts before ``…/yubikey.html``, ``/articles/yubikey`` before
    # ``/articles/yubikey-ssh``: paired by sorted place, the archive made moves of its own.
    assert found == dict.fromkeys(
        ("pages/archives.html", *(f"articles/{name}.html" for name in ARTICLES)), w3c(T1)
    )
