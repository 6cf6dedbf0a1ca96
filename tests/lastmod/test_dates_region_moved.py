"""A skip link and the <main> it leads to put in every page of a commit date no page (issue 79,
a Pelican notmyidea blog, sapphirecat at ``152ee253b1``, "Skip-to-content link": the list pages,
with no main region before, were read whole, the sidebar's links with them; the <main> left the
sidebar out of their region, and 4 list pages were dated by a commit that changed, on every page,
only the skip link). An edit on most pages of a commit is the template, whatever it touches: a
page whose whole body made only the edit most of the commit's pages made in theirs made no edit
of its own, whatever its region came to read, where most of the commit's pages (the posts) read
alike in their region (history.blockcensus). A real git history: commit 1
at T1, commit 2 at T2 (the skip link and <main> on every page, one more author on their page),
commit 3 at T3 (a featured line on the home's pages). Structure copied from the theme's built
pages, text our own."""

from __future__ import annotations

from pathlib import Path

from test_dates_base_move import POSTS as TEAS
from test_dates_brand_header import sitemap_dates
from test_dates_on_untuned_themes import T1, T2, Site, w3c

T3 = "2024-03-30 11:00:00"

# The posts (four teas and five blends), each under 2024/.
POSTS = {f"2024/{slug}/index.html": (title, text) for slug, (title, text) in TEAS.items()} | {
    f"2024/blend-{n}/index.html": (f"Blend {n}", f"A house blend, steeped {n + 2} minutes.")
    for n in range(5)
}
HOMES = ("index.html", "page/2/index.html", "page/3/index.html")
# (each list page in a folder of its own: no section's census of its own decides)
LISTS = (
    *HOMES,
    "archives/index.html",
    "category/tea/index.html",
    "tags/index.html",
    "authors/index.html",
)


def page(title: str, body: str, *, skip: bool) -> str:
    """A page of the theme: the banner, ``body``, then the sidebar's links; ``skip``: with a
    skip link before the banner and ``body`` inside <main>."""
    link = '<a href="#main" id="skipnav">Skip to main content</a>' if skip else ""
    main = f'<main id="main">{body}</main>' if skip else body
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title} - leaf'
        f'</title></head><body>{link}<header id="banner"><h1><a href="/">leaf: <em>notes on'
        f' tea</em></a></h1><nav><ul><li><a href="/category/tea.html">Tea</a></li></ul></nav>'
        f'</header>{main}<section id="extras"><div class="social"><h2>leaf elsewhere</h2><ul>'
        f'<li><a href="/feeds/all.atom.xml">atom feed</a></li><li><a href="https://code.example'
        f'/leaf">code</a></li><li><a href="https://older.example/">ye olde site</a></li></ul>'
        f'</div></section><footer id="contentinfo"><p>Powered by a generator</p></footer>'
        f"</body></html>\n"
    )


def site(*, skip: bool, authors: int = 1, featured: bool = False) -> Site:
    """Every post (each an <article>) and list page (``authors``: how many the authors' page
    lists; ``featured``: the home's pages with a featured line)."""
    pages: Site = {}
    for path, (title, text) in POSTS.items():
        body = (
            f'<section id="content"><article><header><h1>{title}</h1></header><div class="entry-'
            f'content"><p>{text}</p></div></article></section>'
        )
        pages[path] = page(title, body, skip=skip)
    for path in LISTS:
        entries = "".join(
            f'<li><a href="/{post[: -len("index.html")]}">{title}</a> {text}</li>'
            for post, (title, text) in POSTS.items()
        )
        if path == "authors/index.html":
            entries = "".join(f"<li>Author number {n + 1}</li>" for n in range(authors))
        if featured and path in HOMES:
            entries += "<li>Featured this week: the matcha whisk.</li>"
        name = path.removesuffix("index.html").replace("/", " ")
        body = f'<section id="content"><h1>All of {name}</h1><ol>{entries}</ol></section>'
        pages[path] = page(name, body, skip=skip)
    return pages


def test_a_skip_link_and_main_put_in_every_page_date_no_list_page(tmp_path: Path) -> None:
    found = sitemap_dates(
        tmp_path,
        (site(skip=False), T1),
        (site(skip=True, authors=2), T2),
        (site(skip=True, authors=2, featured=True), T3),
    )
    # The authors' page listing one more author beside the skip link made an edit of its own,
    # and so did the home's pages at T3; the others changed only what every page changed (the
    # sidebar's links left the list pages' region with it).
    assert found.pop("authors/") == w3c(T2)
    for home in HOMES:
        assert found.pop(home.removesuffix("index.html")) == w3c(T3)
    paths = [path.removesuffix("index.html") for path in (*POSTS, *LISTS[3:-1])]
    assert found == dict.fromkeys(paths, w3c(T1))
