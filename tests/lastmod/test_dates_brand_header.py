"""A link put in the site's menu beside the brand <h1> (Pelican Pure, deadc0de6's blog at
``b08cab23ac``: "adding links") dates no post (issue 79: the part of <title> most pages share
is template; furniture wherever it stands). Each page titles itself "Post // site //", and the
brand <h1>, the site's name linked to the home, stands in the sidebar's header beside the menu;
the posts with no <h1> in their text read that header as their title block until fingerprint
version 13 (amended) read the site's name as no page's headline. A real git history: commit 1
at T1, commit 2 at T2 adding the menu item on every page and the page it leads to, commit 3 at
T3 editing one post's text, commit 4 at T4 adding a tag to another post's own header.
Structure copied from the theme's built pages, text our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_dates_on_untuned_themes import T1, T2, Site, w3c

from gitutil import commit, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.sinks import MemorySink

BASE = "https://example.org/"
T3 = "2024-03-30 11:00:00"
T4 = "2024-04-18 16:00:00"


def page(title: str, body: str, *, menu: tuple[str, ...], home: str) -> str:
    """A page of the theme: the sidebar's brand header (``home``: its link) with the ``menu``,
    then ``body``; no <main>."""
    links = "".join(
        f'<p class="links"><a href="/pages/{word.lower()}.html">{word}</a></p>' for word in menu
    )
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="description" '
        f'content="Notes on tea"><title>{title} // leaf.example // </title></head><body><div '
        f'class="pure-g-r" id="layout"><div class="sidebar pure-u"><div class="cover-img"><div '
        f'class="cover-body"><header class="header"><hgroup><h1 class="brand-main"><a href="'
        f'{home}">leaf.example</a></h1>{links}</hgroup></header></div></div></div><div class='
        f'"pure-u"><div class="content">{body}</div></div></div></body></html>\n'
    )


def post(title: str, text: str, *, own_h1: bool, tags: tuple[str, ...] = ("tea",)) -> str:
    """A post's body: its header (its <h1>, ``tags``, date), then its text (with ``own_h1``,
    under an <h1> of its own, as a post written with "# ..." is)."""
    heading = f"<h1>{title}: the method</h1>" if own_h1 else ""
    categories = "".join(
        f'<a class="post-category" href="/tag/{tag}.html">{tag}</a>' for tag in tags
    )
    return (
        f'<section class="post"><header class="post-header"><h1>{title}</h1><p class="post-meta'
        f'">// under {categories}<br/>// Mon 01 February 2016</p></header></section>{heading}'
        f"<p>{text}</p>"
    )


POSTS = {
    "articles/green.html": ("Green tea", "Steep it for three minutes at eighty degrees.", False),
    "articles/black.html": ("Black tea", "Boiling water and four minutes make it strong.", True),
    "articles/white.html": ("White tea", "The buds are dried in the sun and not rolled.", False),
    "articles/oolong.html": ("Oolong", "Half oxidised leaves rolled into small balls.", True),
}


def site(menu: tuple[str, ...], home: str, edited: str = "", tagged: str = "") -> Site:
    """Every page of the blog with the ``menu``; ``edited``: a post whose text gained a line;
    ``tagged``: one that gained a tag."""
    pages: Site = {}
    for path, (title, text, own_h1) in POSTS.items():
        text = f"{text} Then drink it slowly." if path == edited else text
        tags = ("tea", "green") if path == tagged else ("tea",)
        body = post(title, text, own_h1=own_h1, tags=tags)
        pages[path] = page(title, body, menu=menu, home=home)
    archive = "".join(
        f'<div class="archive-post"><a href="/{path}">{title}</a></div>'
        for path, (title, _, _) in POSTS.items()
    )
    pages["pages/archives.html"] = page(
        "all posts", f"<h2>All posts</h2>{archive}", menu=menu, home=home
    )
    latest = f'<div class="posts"><h1 class="content-subhead">Latest posts</h1>{archive}</div>'
    pages["index.html"] = page("Latest posts", latest, menu=menu, home=home)
    if "Links" in menu:
        pages["pages/links.html"] = page(
            "Links", '<h2>Links</h2><a href="https://tea.example/">Tea</a>', menu=menu, home=home
        )
    return pages


def sitemap_dates(tmp_path: Path, *states: tuple[Site, str]) -> dict[str, str]:
    """The sitemap's lastmod of each page after committing each state at its time."""
    repo = make_repo(tmp_path / "site")
    for files, when in states:
        commit(repo, files, when)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    text = sink.files["sitemap.xml"].decode()
    found: dict[str, str] = {}
    for entry in text.split("<url>")[1:]:
        loc = entry.split("<loc>", 1)[1].split("</loc>", 1)[0].removeprefix(BASE)
        found[loc] = entry.split("<lastmod>", 1)[1].split("</lastmod>", 1)[0]
    return found


# The brand's link: to the site's home, or (deadc0de6's blog until it rebuilt) to the home of
# the host the site moved from.
@pytest.mark.parametrize("home", ["/", "https://old.example.net/"])
def test_a_menu_item_added_beside_the_brand_dates_no_post(tmp_path: Path, home: str) -> None:
    menu = ("Tags", "Archives", "About")
    found = sitemap_dates(
        tmp_path,
        (site(menu, home), T1),
        (site((*menu, "Links"), home), T2),
        (site((*menu, "Links"), home, edited="articles/white.html"), T3),
        (site((*menu, "Links"), home, "articles/white.html", "articles/green.html"), T4),
    )
    # The new page is dated by the commit that made it, the edited posts by their edits (a tag
    # in a post's own header is the post's); the posts beside the brand (with an <h1> in their
    # text or not), the archive (whose only <h1> is the brand) and the home keep their first.
    assert found.pop("pages/links.html") == w3c(T2)
    assert found.pop("articles/white.html") == w3c(T3)
    assert found.pop("articles/green.html") == w3c(T4)
    kept = ("", "articles/black.html", "articles/oolong.html", "pages/archives.html")
    assert found == dict.fromkeys(kept, w3c(T1))
