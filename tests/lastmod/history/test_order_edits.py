"""Order is a list's content (issue 79, cluster 6): a tag page whose two posts of one day swapped
places in the commit that also changed the site's description on every page made an edit of its
own beside the site-wide one, and is dated by that commit; the pages that only took the new
description are not. Shaped like a Gatsby blog's tag pages (text our own)."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

TAGS = ("hacking", "javascript", "development", "books", "career", "aws")
POSTS = ("three-way-handshake", "md5-and-sha", "closures", "event-loop")


SHARE = '<p><a href="https://social.example.net/share">Share this list</a></p>'


def tags(description: str, *, swapped: str = "", share_first: bool = False) -> dict[str, str]:
    """Each tag's page lists the posts (the two of one day swapped on ``swapped``), a share
    link after the list (before it where ``share_first``)."""
    pages = {}
    for tag in TAGS:
        posts = list(POSTS)
        if tag == swapped:
            posts[0], posts[1] = posts[1], posts[0]
        items = "".join(f'<li><a href="/{post}/">{post.title()}</a></li>' for post in posts)
        pages[f"tags/{tag}/index.html"] = (
            f'<html><head><title>{tag} | Dev blog</title><meta name="description" '
            f'content="{description}"></head><body><main><h1>Posts tagged {tag}</h1>'
            f"{SHARE if share_first else ''}<ul>{items}</ul>{'' if share_first else SHARE}"
            "</main></body></html>\n"
        )
    return pages


def test_a_list_reordered_beside_a_site_wide_edit_dates_its_page(tmp_path: Path) -> None:
    found = dated(
        tmp_path,
        [
            tags("Dev blog on front end and hacking"),
            tags("Dev blog on blockchain, full-stack dev and books", swapped="hacking"),
        ],
    )
    assert found == {f"tags/{tag}": at(1 if tag == "hacking" else 0) for tag in TAGS}, found


def test_a_block_moved_on_every_page_beside_a_site_wide_edit_is_still_template(
    tmp_path: Path,
) -> None:
    found = dated(
        tmp_path,
        [tags("Dev blog on hacking"), tags("Dev blog on books", share_first=True)],
    )
    assert found == {f"tags/{tag}": at(0) for tag in TAGS}, found
