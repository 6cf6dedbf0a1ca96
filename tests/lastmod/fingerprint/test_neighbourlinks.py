"""A post's neighbours (rel=prev/next links) are the neighbours' words (from version 6)."""
# Shaped like a Gatsby 2 blog's post (structure copied, text our own): no <main>, no <article>;
# the post's title, date and content in <div>s, share buttons, then a block of two links, each
# with rel=prev or rel=next, holding a label ("Previous post") and the neighbour's title.

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html, reduce_html

URL = "https://blog.example.org/notes/second-post/"


def neighbours(previous: str = "First post: a start", following: str = "") -> str:
    older = (
        "<div class=css-1pwr1ry><a rel=prev class=css-vl2eok href=/notes/first-post/>"
        f"<div class=css-19o7xeo><svg></svg></div><div class=css-v38or><p class=css-2m7hin>"
        f"Previous post</p><p>{previous}</p></div></a></div>"
    )
    newer = (
        "<div class=css-1pwr1ry><a rel=next class=css-xhvfnc href=/notes/third-post/>"
        f"<div class=css-v38or><p class=css-2m7hin>Next post</p><p>{following}</p></div></a></div>"
        if following
        else ""
    )
    return f"<div class=css-17t1oy1>{older}{newer}</div>"


def post(text: str = "Ctags make jumping to a symbol quick.", around: str = "") -> bytes:
    return (
        "<html><head><title>A Blog | Second post</title></head><body><div id=___gatsby>"
        "<div class=css-acifd><nav><a href=/>A Blog</a></nav><div class=blog-post-container>"
        "<div class=blog-post><div class=css-1bdwg0l><h1 class=blog-title>Second post</h1>"
        "<h2 class=blog-date>March 2, 2021</h2></div><div class=blog-content><div class=markdown>"
        f"<h2 id=tags><a href=#tags aria-label='tags permalink'></a>Tags</h2><p>{text}</p>"
        "<p>See <a href=/notes/first-post/>the first post</a> for more.</p></div></div>"
        "<div class=css-i1cgbm><button>Share with Twitter</button></div></div>"
        f"<div class=css-1bdwg0l>{around or neighbours()}</div>"
        "<div><span>Written by </span><p>@writer</p></div></div></div></div></body></html>"
    ).encode()


def fingerprint(page: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(page, version=version, url=URL)


@pytest.mark.parametrize(
    "around",
    [
        neighbours(following="Third post, just published"),  # a newer post was published
        neighbours(previous="First post: a start, retitled"),  # the older one was retitled
    ],
)
def test_a_posts_neighbours_move_it_no_more(around: str) -> None:
    assert fingerprint(post(around=around)) == fingerprint(post())


def test_a_posts_own_paragraph_and_its_own_links_still_move_it() -> None:
    assert fingerprint(post("Ctags make jumping to a symbol quicker.")) != fingerprint(post())
    assert "/notes/first-post" in reduce_html(post(), url=URL)
    assert "Previous post" not in reduce_html(post(), url=URL)
