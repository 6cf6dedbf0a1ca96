"""A list page's content is which pages it lists (history.listings, issue 79): an edit that
put in, took out or re-pointed a link to a page its commit created, deleted or moved is the
list page's own, however many list pages made it, and so is the edit of the moved page itself;
what else those pages made alike (the footer's year) is still the template's on the others.
Shaped like a Hexo Sakura blog whose archive pages each list every post (lawrencesivan: 28 of
a deploy's 34 pages), and like a post retitled and moved in the deploy that re-pointed its
listings (lanrendev). Text our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitutil import clock, commit, make_repo, unix
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import WHEN, at, built_lastmods

Build = dict[str, str | None]
ARCHIVES = 6  # archive pages, each listing every post
# The posts before the deploy (a list page is one of few: a link on most of the site's pages
# is its navigation, the template's).
POSTS = {f"p{n}": f"Notes on trees, part {n}" for n in range(10)}


def blog(posts: dict[str, str], year: str) -> Build:
    """``posts`` (path segment: title), each a post page, and ARCHIVES archive pages that list
    them all; every page's content ends with the footer's ``year``."""
    footer = f"<p>© {year} Our Blog. Written with care.</p>"
    pages: Build = {}
    for n, (slug, title) in enumerate(posts.items()):
        said = f"<p>What post number {n} says, at length and in its own words.</p>\n" * 12
        main = f"<h1>{title}</h1>{said}"
        pages[f"posts/{slug}/index.html"] = _page(title, main + footer)
    listed = "".join(
        f'<li><a href="/posts/{slug}/">{title}</a></li>' for slug, title in posts.items()
    )
    for n in range(ARCHIVES):
        pages[f"archives/{n}/index.html"] = _page(
            f"Archive {n}", f"<h1>Archive {n}</h1><ul>{listed}</ul>{footer}"
        )
    return pages


def _page(title: str, main: str) -> str:
    return f"<html><head><title>{title}</title></head><body><main>{main}</main></body></html>\n"


def dated(tmp_path: Path, builds: list[Build]) -> dict[str, str]:
    repo = make_repo(tmp_path / "site")
    for n, build in enumerate(builds):
        gone = {path: None for path in builds[n - 1] if path not in build} if n else {}
        commit(repo, {**build, **gone}, WHEN[n])
    return built_lastmods(repo)


@pytest.mark.parametrize("year", ["2024", "2025"])
def test_a_post_added_to_every_archive_page_dates_them_and_the_year_beside_it_does_not(
    tmp_path: Path, year: str
) -> None:
    # The deploy adds post "c" to all 6 archive pages: 6 of the 7 pages it changed made that
    # edit alike, yet each archive page lists a new page, so it is dated by the deploy. Where
    # the deploy also bumps the footer's year on every page ("2025"), the 10 posts, whose only
    # change is the year, are not: what the archive pages made beside their entry still
    # counts for the others.
    found = dated(tmp_path, [blog(POSTS, "2024"), blog({**POSTS, "c": "Contest notes"}, year)])
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c"}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == ARCHIVES + len(POSTS) + 1


def test_a_post_retitled_and_moved_is_dated_by_its_headline_and_so_are_its_listings(
    tmp_path: Path,
) -> None:
    # The deploy moves post "c" to "c2" and retitles it (its <title> and <h1>); every archive
    # page re-points its link and swaps the same title words: the post's own edit, and each
    # archive page's own list, however many of the deploy's pages made that swap alike.
    first = blog({**POSTS, "c": "微信公众号问题记录（一）"}, "2024")
    second = blog({**POSTS, "c2": "微信公众号支付和H5支付问题记录（一）"}, "2024")
    found = dated(tmp_path, [first, second])
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c2"}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == ARCHIVES + len(POSTS) + 1


def reference(module: str) -> Build:
    """Twelve API pages that each link the module's index in their own text (a package list
    in every page's content, as Scaladoc writes it), and the module's index page."""
    pages: Build = {}
    for n in range(12):
        main = f"<h1>Type{n}</h1><p>What Type{n} does.</p><a href='/{module}/'>{module}</a>"
        pages[f"api/type{n}.html"] = _page(f"Type{n}", main)
    said = "<p>The module's own introduction, at length.</p>\n" * 12
    pages[f"{module}/index.html"] = _page(module, f"<h1>{module}</h1>{said}")
    return pages


def test_a_module_moved_in_the_links_of_most_pages_is_their_navigation(tmp_path: Path) -> None:
    # The deploy moves the module "akkahttp" to "pekkohttp" and every API page's link to it
    # with it: a link on most of the site's pages is its navigation, the template's; the
    # module's own index, renamed and retitled, is dated by it.
    found = dated(tmp_path, [reference("akkahttp"), reference("pekkohttp")])
    assert found == {path: at(1 if path == "pekkohttp" else 0) for path in found}, found
    assert len(found) == 13


def sidebar_blog(posts: int) -> Build:
    """``posts`` posts, each page (the posts and the home page) with a sidebar that links
    every post by its title (a Hexo theme's recent posts on a young blog: lbinin-maupassant)."""
    titles = {f"p{n}": f"Notes on trees, part {n}" for n in range(posts)}
    sidebar = "".join(
        f'<li><a href="/posts/{slug}/">{title}</a></li>' for slug, title in titles.items()
    )
    aside = f"<ul class=post-list>{sidebar}</ul>"
    pages: Build = {}
    for n, (slug, title) in enumerate(titles.items()):
        said = f"<p>What post number {n} says, in its own words.</p>\n" * 3
        pages[f"posts/{slug}/index.html"] = _body(title, f"<h1>{title}</h1>{said}", aside)
    pages["index.html"] = _body("Our Blog", "<h1>Our Blog</h1><p>Trees, mostly.</p>", aside)
    return pages


def _body(title: str, article: str, aside: str) -> str:
    header = "<div id=header><div class=site-name><a href='/'>Our Blog</a></div></div>"
    return (
        f"<html><head><title>Our Blog | {title}</title></head><body>{header}<div id=layout>"
        f"<div class='pure-u-1 pure-u-md-3-4'><div class=post>{article}</div></div>"
        "<div class='pure-u-1 pure-u-md-1-4'><div id=sidebar><div class=widget>"
        f"<div class=widget-title>Recent posts</div>{aside}</div></div></div></div></body></html>\n"
    )


def test_a_new_post_in_the_sidebar_of_every_page_the_blog_had_then_is_its_navigation(
    tmp_path: Path,
) -> None:
    # Four posts, then ten deploys each adding a post and its link to every page's sidebar.
    # The third deploy changed 7 of the 8 pages the blog had then (the eighth its new post):
    # its navigation, though 7 is not more than half of the 15 pages the blog has now. Each
    # post is dated by the commit that made it, the home page by the first (main's code dated
    # the first four posts and the home page by the third deploy).
    repo = make_repo(tmp_path / "site")
    times = clock("2024-01-10T09:00:00+00:00", 86400)
    stamps = [next(times) for _ in range(11)]
    for n, when in enumerate(stamps):
        commit(repo, dict(sidebar_blog(4 + n)), when)
    found = built_lastmods(repo)
    made = {f"posts/p{n}": max(0, n - 3) for n in range(14)}
    expected = {path: made.get(path, 0) for path in found}
    assert found == {
        path: lastmod_from_timestamp(unix(stamps[index]), Precision.DATETIME)
        for path, index in expected.items()
    }, found
    assert len(found) == 15
