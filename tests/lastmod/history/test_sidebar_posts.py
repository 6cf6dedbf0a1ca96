"""A link's target taken out is named as it is whether or not the page links it elsewhere too
(issue 79, principle 1; history.edits._by_kind, dating rules 18). A Hexo blog whose sidebar lists
the most recent posts on every page drops the oldest of them when a post is published: on a
post whose prev/next link leads to the dropped post, and on the category page that lists it,
the link's count fell 2 to 1, on the other pages 1 to 0. One edit, the sidebar's, on every
page: none of them is dated by the deploy. Shaped like a Hexo Maupassant blog (no landmark: the
body is the region, the sidebar in it); text our own, in a real repository with fixed dates."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

RECENT = 4  # (posts the sidebar lists)
TOPICS = ("gardens", "rivers", "bridges", "lanterns", "orchards", "harbours", "meadows", "kilns")


def _title(number: int) -> str:
    return f"Notes on {TOPICS[number - 1]}"


def _link(number: int, kind: str = "") -> str:
    place = f" class='{kind}'" if kind else ""
    return f"<a{place} href='/posts/{number}/'>{_title(number)}</a>"


def blog(published: int, own: dict[int, str] | None = None) -> dict[str, str]:
    """The blog with posts 1 to ``published``: each post's page (its prev/next links, its
    own words and ``own``'s), two category pages (posts 1 to 3, the others), the sidebar's
    RECENT most recent posts on every page."""
    recent = "".join(
        f"<li>{_link(n)}</li>" for n in range(published, max(0, published - RECENT), -1)
    )
    sidebar = f"<div id='sidebar'><h3>Recent posts</h3><ul>{recent}</ul></div>"

    def page(title: str, body: str) -> str:
        return (
            f"<html><head><title>{title} | Field Notes</title></head><body><div id='header'>"
            f"<a href='/'>Field Notes</a></div><div class='content'>{body}</div>{sidebar}"
            "<div id='footer'>Field Notes, by its author</div></body></html>\n"
        )

    pages = {}
    for n in range(1, published + 1):
        nav = (_link(n - 1, "pre") if n > 1 else "") + (
            _link(n + 1, "next") if n < published else ""
        )
        words = f"<p>What the {TOPICS[n - 1]} taught me this season, in words of its own.</p>"
        pages[f"posts/{n}/index.html"] = page(
            _title(n),
            f"<h1>{_title(n)}</h1>{words}{(own or {}).get(n, '')}<div class='post-nav'>{nav}</div>",
        )
    for name, numbers in (("early", range(1, 4)), ("late", range(4, published + 1))):
        listed = "".join(f"<li>{_link(n)}</li>" for n in numbers)
        pages[f"categories/{name}/index.html"] = page(
            f"Category {name}", f"<h1>Category {name}</h1><ul class='listing'>{listed}</ul>"
        )
    return pages


def test_the_sidebars_oldest_post_dropped_dates_no_page_that_links_it_twice(
    tmp_path: Path,
) -> None:
    # The second deploy published post 7: the sidebar lists 7 to 4 and drops 3 on every page.
    # Post 3's neighbours (2's next link, 4's pre link) and the early category's list link to
    # 3 too: their link to it fell 2 to 1. The third deploy gave post 5 a paragraph of its own.
    extra = {5: "<p>A postscript: the fifth season's kiln fired twice.</p>"}
    found = dated(tmp_path, [blog(6), blog(7), blog(7, extra)])
    expected = {f"posts/{n}": at(0) for n in range(1, 7)}
    expected |= {"categories/early": at(0), "categories/late": at(1), "posts/7": at(1)}
    expected["posts/5"] = at(2)  # (its own paragraph)
    # Left (other mechanisms): post 3's sidebar link led to itself, which its page reads as
    # no link (its words alone went); post 6's next link to post 7 came beside the sidebar's,
    # one link's end more than on the other pages.
    expected |= {"posts/3": at(1), "posts/6": at(1)}
    # (Before, posts 2 and 4 and the early category named the sidebar's edit apart, a link
    # repeated fewer times, and no name was most of the commit's: every page was dated by it.)
    assert found == expected, sorted(found.items())
