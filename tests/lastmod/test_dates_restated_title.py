"""A theme that put each page's own headline in its <title> dates no page, and a page-level header
that holds a page's one <h1> is its title block, whatever its <title> (issue 79, a Pelican group
site's own Bootstrap theme, grupy-sao-marcos at ``5ea05a7a9f``, "Publish site on 2026-08-18":
its sponsor pages, whose article is empty and whose name, byline and blurb stand in a page-level
header before it, were titled by the site's name alone; the redesign titled each "<name> - site"
and gave every page one description, and 7 sponsor pages were dated by it).

Two principles decide it. What only this page says is content, wherever it stands: the header
holds the page's one <h1>, so it is the page's title block though the <title> does not name it
(fingerprint version 13, amended: as on a page without a main region, the region holding no
heading). What restates the page says nothing new: a title's words that open a run of the page's
text (its headline) before and after are named by their kind (dating rules 26), so each page's
own name put in its title is one edit on all of them. A real git history: commit 1 at T1, commit
2 at T2 (the redesign, beside one sponsor's blurb repaired), commit 3 at T3 (one sponsor's blurb
repaired alone), commit 4 at T4 (one page retitled with its headline). Structure copied from the
theme's built pages, text our own."""

from __future__ import annotations

from pathlib import Path

from test_dates_brand_header import sitemap_dates
from test_dates_on_untuned_themes import T1, T2, Site, w3c

T3 = "2024-03-30 11:00:00"
T4 = "2024-04-18 16:00:00"
SITE = "Grupo Tea"
NAMES = ("Activa", "Lepton", "Quartz Labs", "Infox", "Hapolo")
BLURBS = (
    "Software for tea shops",
    "Weighing scales",
    "Kettles made to last",
    "A school",
    "Lorries",
)
# Each sponsor's page (named by its name's first word) with its name and blurb.
SPONSORS = {
    f"{name.split()[0].lower()}.html": (name, blurb)
    for name, blurb in zip(NAMES, BLURBS, strict=True)
}


def page(name: str, blurb: str, *, redesigned: bool) -> str:
    """A sponsor's page: its name, byline and ``blurb`` in the page-level header, an empty
    article; ``redesigned``: titled "<name> - site" with the site's description and a new
    footer, else titled by the site's name alone."""
    title = f"{name} - {SITE}" if redesigned else SITE
    said = '<meta name="description" content="A tea club that meets monthly.">'
    footer = (
        '<div class="footer-main"><h4>Club</h4><a href="/about.html">About</a></div>'
        if redesigned
        else '<p class="site-info">Theme by Someone</p>'
    )
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'{said if redesigned else ""}</head><body><nav id="site-nav"><ul><li><a href="/">'
        f'Home</a></li><li><a href="/blog.html">Blog</a></li></ul></nav><header id="site-header'
        f'" class="site-article"><div class="intro"><h1>{name}<br><small><a href="/author/'
        f'sponsor.html">Sponsor</a> - 23/01/2024</small></h1><br><blockquote><p>{blurb}</p>'
        f'</blockquote></div></header><section id="article-content"><article class="container"'
        f'><div class="entry-content"><p> </p></div></article></section><footer class="site-'
        f'footer">{footer}</footer></body></html>\n'
    )


def categories(*, redesigned: bool, posts: int) -> str:
    """The list of categories, its first with ``posts`` posts, no main region; ``redesigned``:
    as page's."""
    title = f"{SITE} - Categories" if redesigned else SITE
    said = '<meta name="description" content="A tea club that meets monthly.">'
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'{said if redesigned else ""}</head><body><nav id="site-nav"><ul><li><a href="/">'
        f'Home</a></li></ul></nav><section id="content"><h1>Categories for {SITE}</h1><ul><li>'
        f'<a href="/category/blog.html">Blog</a> ({posts})</li><li><a href="/category/event'
        f'.html">Event</a> (9)</li></ul></section></body></html>\n'
    )


def site(
    *, redesigned: bool, repaired: tuple[str, ...] = (), renamed: str = "", posts: int = 11
) -> Site:
    """Every sponsor's page and the list of categories (``posts``: its first's count);
    ``repaired``: those whose blurb gained a word; ``renamed``: one renamed in its header and
    its title alike."""
    pages: Site = {"categories.html": categories(redesigned=redesigned, posts=posts)}
    for path, (name, blurb) in SPONSORS.items():
        blurb = f"{blurb} since 1999" if path in repaired else blurb
        name = f"{name} Tea" if path == renamed else name
        pages[path] = page(name, blurb, redesigned=redesigned)
    return pages


def test_a_page_level_header_is_the_title_block_of_a_page_titled_by_the_site_alone(
    tmp_path: Path,
) -> None:
    found = sitemap_dates(
        tmp_path,
        (site(redesigned=False), T1),
        (site(redesigned=False, repaired=("lepton.html",)), T2),
    )
    # The blurb stands in the page-level header beside the page's one <h1>: the page's own.
    assert found.pop("lepton.html") == w3c(T2)
    kept = ("activa.html", "quartz.html", "infox.html", "hapolo.html", "categories.html")
    assert found == dict.fromkeys(kept, w3c(T1))


def test_each_page_titled_by_its_own_headline_in_one_commit_dates_none(tmp_path: Path) -> None:
    repaired = ("infox.html", "hapolo.html")
    found = sitemap_dates(
        tmp_path,
        (site(redesigned=False), T1),
        (site(redesigned=True, repaired=repaired[:1], posts=14), T2),
        (site(redesigned=True, repaired=repaired, posts=14), T3),
        (site(redesigned=True, repaired=repaired, renamed="lepton.html", posts=14), T4),
    )
    # Infox's blurb repaired beside the redesign is its own edit, and so is the list's count
    # beside the description every page gained (its blocks left out, what it kept is read as
    # it stands: history.blockcensus); Hapolo's blurb alone too; Lepton renamed in its header
    # and title alike is its own (the word is new to its text); the others were only titled by
    # the name their header held.
    assert found.pop("infox.html") == w3c(T2)
    assert found.pop("categories.html") == w3c(T2)
    assert found.pop("hapolo.html") == w3c(T3)
    assert found.pop("lepton.html") == w3c(T4)
    assert found == dict.fromkeys(("activa.html", "quartz.html"), w3c(T1))
