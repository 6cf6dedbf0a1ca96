"""A badge removed from most pages of a commit is the template's edit (issue 79, cluster 6): a
hit counter's link to another site's root, with its image, taken out of every post moves no
post's date, though a link that goes is read as moved onto the page itself where the site moved
its host (history.targetmoves.self_links): the badge named no part of any page. A post whose
own words changed in that commit is dated by it. Shaped like a Gatsby blog whose posts each
stand in a folder of their own (text our own)."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

POSTS = ("installing-torrent", "using-tmux", "mac-address", "rust-lifetimes", "css-grid")
BADGE = (
    '<a href="https://hits.example.net" style="border:none"><img src="https://hits.example.net'
    '/api/count/incr/badge.svg?url=https%3A%2F%2Fexample.org&amp;title=hits"/></a>'
)


def blog(badge: bool, *, edited: str = "") -> dict[str, str]:
    """Each post's page, the hit counter's badge above its headline where ``badge``."""
    return {
        f"{post}/index.html": (
            f"<html><head><title>{post} | Dev blog</title></head><body><header><a href='/'>Dev "
            f"blog</a></header><main>{BADGE if badge else ''}<h1>{post}</h1><p>Notes on "
            f"{post}{', revised' if post == edited else ''}.</p></main></body></html>\n"
        )
        for post in POSTS
    }


def test_a_badge_removed_from_every_post_moves_only_the_post_with_its_own_edit(
    tmp_path: Path,
) -> None:
    found = dated(tmp_path, [blog(True), blog(False, edited="using-tmux")])
    assert found == {post: at(1 if post == "using-tmux" else 0) for post in POSTS}, found
