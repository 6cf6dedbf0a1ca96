"""An <h1> inside a link to another page is no headline of the page (fingerprint version 13,
amended: issue 79, principle 10): a card that stands for another page, such as an author card
whose name links to the site's home, does not keep the main region from narrowing to the
post's article, so the "related posts" cards and the sidebar beside the article stay furniture.
Pages shaped like Hexo AnZhiYu's posts (structure copied, text our own): ``<main>`` holds the
post (its ``<article>``, then the related posts' cards, each one link) and the sidebar (the
author card, its name an ``<h1>`` in a link to the home, and a tag cloud)."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo
from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)
from treedates import WHEN, at, built_lastmods

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/posts/18.html"


# A related post's card: one link holding its cover, date and title.
CARD = (
    '<div><a href="/posts/{n}.html" title="{title}"><img class="cover" src="/c{n}.png">'
    '<div class="content"><div class="date">2024-01-0{n}</div><div>{title}</div></div></a></div>'
)


def post(
    *,
    text: str = "Steep green tea for three minutes.",
    cards: tuple[tuple[int, str], ...] = ((4, "Black tea"), (6, "Oolong")),
    tags: str = "Tea<sup>11</sup>",
    home: str = "/",
    title: str = "Green tea",
) -> bytes:
    """A post: its article, the related posts' ``cards``, and the sidebar with the author card
    (its name linked to ``home``) and the tag cloud (``tags``, one tag's link)."""
    article = (
        f'<article class="post-content"><header><h1 id="CrawlerTitle">{title}</h1></header>'
        f"<p>{text}</p></article>"
    )
    listed = "".join(CARD.format(n=n, title=t) for n, t in cards)
    related = (
        '<div class="relatedPosts"><div class="headline"><span>Readers also read</span></div>'
        f'<div class="relatedPosts-list">{listed}</div></div>'
    )
    sidebar = (
        '<div class="aside-content"><div class="card-info">'
        f'<a href="{home}"><h1 class="author-info__name">Ann</h1><div>Writes about tea</div></a>'
        '</div><div class="card-tag-cloud">'
        f'<a href="/tags/tea/">{tags}</a><a href="/tags/cups/">Cups<sup>2</sup></a></div></div>'
    )
    inner = f'<div id="content-inner"><div id="post">{article}{related}</div>{sidebar}</div>'
    main = f"<main>{inner}</main>"
    return f"<html><head><title>{title} | Ann</title></head><body>{main}</body></html>".encode()


def printed(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
    """The page's fingerprint at URL, by ``version``."""
    return fingerprint_html(data, url=URL, version=version)


def test_a_card_whose_h1_links_elsewhere_leaves_the_post_its_article() -> None:
    assert text_of(reduce_html(post(), url=URL)) == (
        "Ann | Green tea Green tea Steep green tea for three minutes."
    )
    # Another post among the cards, a card re-pointed, a tag's count: none is the post's.
    assert printed(post()) == printed(post(cards=((4, "Hexo notes"), (6, "Oolong"), (2, "Hi"))))
    assert printed(post()) == printed(post(cards=((1, "Black tea"), (6, "Oolong"))))
    assert printed(post()) == printed(post(tags="Tea<sup>12</sup>"))
    # Its own words and its headline still are.
    assert printed(post()) != printed(post(text="Steep green tea for two minutes."))
    assert printed(post()) != printed(post(title="Green teas"))


def test_an_h1_outside_the_article_and_in_no_link_keeps_the_region_whole() -> None:
    # An <h1> beside the article that links nowhere (or to the page itself) is text of the
    # page: the region counts whole, the cards with it, as before.
    for home in ("#top", URL):
        bare = post(home=home)
        assert "Readers also read" in reduce_html(bare, url=URL)
        assert printed(bare) != printed(post(home=home, tags="Tea<sup>12</sup>"))


def test_version_12_counted_the_cards_and_the_sidebar() -> None:
    # A state of version 12 is compared by 12's bytes: the author card's <h1> stood outside
    # the article, and the region counted whole.
    assert printed(post(), PREVIOUS) != printed(post(tags="Tea<sup>12</sup>"), PREVIOUS)
    assert "Readers also read" in reduce_html(post(), version=PREVIOUS, url=URL)


def test_a_deploy_that_changes_the_cards_beside_some_posts_dates_none_of_them(
    tmp_path: Path,
) -> None:
    # A deploy publishes post 9 and puts it among the cards of three older posts, each beside
    # other cards (no one edit most pages made alike), and bumps the tag counts on every page:
    # only post 9 is dated by it; a later fix of post 2's own text dates post 2.
    older = {n: f"Tea notes, part {n}" for n in range(1, 7)}

    def site(cards_of: dict[int, tuple[tuple[int, str], ...]], count: str) -> dict[str, str]:
        pages = {}
        for n, title in older.items():
            cards = cards_of.get(n, ((n % 6 + 1, older[n % 6 + 1]),))
            text = f"What part {n} of the tea notes says, in its own words."
            pages[f"posts/{n}.html"] = post(
                text=text, cards=cards, tags=f"Tea<sup>{count}</sup>", title=title
            ).decode()
        return pages

    repo = make_repo(tmp_path / "site")
    commit(repo, site({}, "11"), WHEN[0])
    new = (9, "Tea notes, part 9")
    moved = {1: (new, (2, older[2])), 3: ((5, older[5]), new), 5: (new,)}
    second = site(moved, "12")
    second["posts/9.html"] = post(text="A new post.", title=new[1]).decode()
    commit(repo, second, WHEN[1])
    third = dict(second)
    third["posts/2.html"] = second["posts/2.html"].replace("own words", "own, fixed words")
    commit(repo, third, WHEN[2])
    found = built_lastmods(repo)
    expected = {f"posts/{n}.html": at(0) for n in older}
    expected |= {"posts/9.html": at(1), "posts/2.html": at(2)}
    assert found == expected, found
