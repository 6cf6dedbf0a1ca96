"""Fingerprint version 9 (issue 79): a list page's content is which pages it lists, in which
order, under which titles; a listed page's date and the pager's count are not its words."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint import _listpages as listpages
from sitemill.lastmod.fingerprint.digest import fingerprint_html, reduce_html

BASE = "https://example.com/"
POSTS = (
    ("posts/kelly/", "Optimal Betting and the Kelly Criterion", "2015-11-15 16:13"),
    ("posts/normal/", "Sampling from a Normal Distribution", "2015-11-28 21:57"),
)


def entry(path: str, title: str, date: str, *, after: bool = False, empty: bool = False) -> str:
    """A Nikola tag page's entry: its date before the link (``after``: after it), and with
    ``empty`` the theme's empty ``<a></a>``."""
    shown = f'<time class="listdate" datetime="x">{date}</time>'
    link = f'<a href="../../{path}" class="listtitle">{title}</a>'
    return (
        f"<li>{link}{shown}</li>"
        if after
        else f"<li>{shown}{link}{'<a></a>' if empty else ''}</li>"
    )


def tag_page(entries: list[str], heading: str = "Posts about betting") -> bytes:
    """A Nikola category page: the list's title, its feed link, its entries."""
    return (
        "<!DOCTYPE html><html><head><title>Bounded Rationality | Posts about betting</title></head>"
        '<body><nav><a href="/">Home</a></nav><div class="container" role="main">'
        f'<article class="tagpage"><header><h1>{heading}</h1>'
        '<p class="feedlink"><a href="../betting.xml">RSS feed</a></p></header>'
        f'<ul class="postlist">{"".join(entries)}</ul></article></div></body></html>\n'
    ).encode()


URL = BASE + "categories/betting/index.html"


def fingerprint(page: bytes, url: str = URL) -> str:
    """The page's fingerprint (version 8, which read a listed post's date as the list page's
    words, is no longer computable: issue 80)."""
    return fingerprint_html(page, url=url)


def test_a_listed_posts_date_moved_moves_the_list_page_no_more() -> None:
    before = tag_page([entry(*POSTS[0]), entry(*POSTS[1])])
    after = tag_page([entry(POSTS[0][0], POSTS[0][1], "2016-01-02 10:00"), entry(*POSTS[1])])
    assert fingerprint(before) == fingerprint(after)
    assert "2015-11-15" not in reduce_html(before, url=URL)


def test_a_theme_that_moves_the_dates_before_the_links_moves_nothing() -> None:
    # (Nikola: the date after the link, then before it, and an empty <a></a> in each entry)
    before = tag_page([entry(*post, after=True) for post in POSTS])
    after = tag_page([entry(*post, empty=True) for post in POSTS])
    assert fingerprint(before) == fingerprint(after)


def test_a_single_entry_list_under_its_title_is_a_list_page() -> None:
    before = tag_page([entry(*POSTS[0], after=True)], heading="Posts about a first post at last")
    after = tag_page([entry(*POSTS[0], empty=True)], heading="Posts about a first post at last")
    assert fingerprint(before) == fingerprint(after)


@pytest.mark.parametrize(
    "entries",
    [
        [entry(*POSTS[0])],  # (a post removed)
        [entry(*POSTS[1]), entry(*POSTS[0])],  # (reordered)
        [entry(*POSTS[0]), entry(*POSTS[1]), entry("posts/mcmc/", "MCMC Methods", "2015-12-13")],
        [entry(POSTS[0][0], "Betting Strategies", POSTS[0][2]), entry(*POSTS[1])],  # (retitled)
        [entry("posts/elsewhere/", POSTS[0][1], POSTS[0][2]), entry(*POSTS[1])],  # (re-pointed)
    ],
)
def test_which_pages_a_list_lists_in_which_order_under_which_titles_still_moves_it(
    entries: list[str],
) -> None:
    before = fingerprint(tag_page([entry(*post) for post in POSTS]))
    assert fingerprint(tag_page(entries)) != before


def test_the_list_pages_own_title_still_moves_it() -> None:
    before = tag_page([entry(*post) for post in POSTS])
    after = tag_page([entry(*post) for post in POSTS], heading="Posts about gambling")
    assert fingerprint(before) != fingerprint(after)


def post(date: str) -> bytes:
    """A post whose own words hold a date beside a link to another page of the site."""
    return (
        "<!DOCTYPE html><html><head><title>Blog | Release notes</title></head><body><main>"
        "<article><h1>Release notes</h1><p>We shipped the new parser after a long winter of work "
        "on the grammar, the error messages and the speed of the whole pipeline.</p>"
        f'<ul><li>{date}</li><li><a href="/download/">Download</a></li></ul>'
        "</article></main></body></html>\n"
    ).encode()


def test_on_a_post_a_date_beside_a_link_stays_its_own_words() -> None:
    url = BASE + "posts/release/index.html"
    assert fingerprint(post("2015-10-03"), url) != fingerprint(post("2015-10-14"), url)


def test_a_date_in_a_sentence_of_a_list_page_stays() -> None:
    before = tag_page([entry(*post) for post in POSTS], heading="x")
    # (a sentence that says when the page changed, "Updated on <date>", is a self-date from
    # fingerprint version 13: fingerprint.selfdates)
    page = before.replace(b'<ul class="postlist">', b"<p>Odds set on 2015-11-30 by hand.</p><ul>")
    moved = page.replace(b"2015-11-30", b"2015-12-01")
    assert fingerprint(page) != fingerprint(moved)


def pager(count: int, listed: str = "One") -> bytes:
    """An Eleventy list page that titles itself with its number and how many pages follow."""
    return (
        f"<!DOCTYPE html><html><head><title>Page List 1/{count}</title></head><body>"
        f'<header><h1 class="site-title">Page List 1/{count}</h1></header>'
        f'<main role="main"><article><h2><a href="/posts/one/">{listed}</a></h2>'
        '<p>An excerpt.</p><a href="/posts/one/">Read more</a></article></main></body></html>\n'
    ).encode()


@pytest.mark.parametrize("path", ["page-list/1/index.html", "page-list/1/", "page/1.html"])
def test_the_pagers_count_moves_a_paginated_page_no_more(path: str) -> None:
    url = BASE + path
    old, new = fingerprint(pager(5), url), fingerprint(pager(6), url)
    assert old == new
    assert fingerprint(pager(5, "One retitled"), url) != old  # (what it lists)


def test_a_count_on_a_page_without_that_number_stays() -> None:
    for url in (BASE + "page-list/2/index.html", BASE + "about/index.html"):
        assert fingerprint(pager(5), url) != fingerprint(pager(6), url)


def test_a_link_repeated_on_every_version_of_a_page_is_followed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A list page's links are its template's: the census and the walk reduce the same page's
    # versions again and again, each holding the same links. Whether a link leads on is asked
    # of each (link, page) once, not once a link a version (same reduction either way).
    followed: list[tuple[str, str]] = []
    real = listpages.targets.follow

    def counted(value: str, url: str) -> str | None:
        followed.append((value, url))
        return real(value, url)

    monkeypatch.setattr(listpages.targets, "follow", counted)
    url = BASE + "categories/followed-once/index.html"
    entries = [entry(path, title, date) for path, title, date in POSTS]
    first = reduce_html(tag_page(entries * 20), url=url)
    again = reduce_html(tag_page(entries * 20), url=url)
    assert first == again
    assert 0 < len(followed) == len(set(followed)), followed
