"""A link's query rewritten the same way on most pages of a commit is one edit
(history.targetmoves), as a move of its path is: a deploy that drops ``via=<account>&`` from
every page's button (each page's own title after it) moves no date, and a page whose own words
changed in that commit is dated by it (issue 79, cluster 3). Shaped like a Jekyll blog whose
posts each carry a "cite this" link to another site that names the post (text our own)."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

POSTS = ("licensing", "deposits", "citations", "codebooks", "archives", "workflows")


def blog(via: str, *, edited: str = "") -> dict[str, str]:
    """Each post's page, its "cite this" link naming the post by its title after ``via``."""
    pages = {}
    for post in POSTS:
        words = f"How {post} are handled{' from this year on' if post == edited else ''}."
        cite = f"https://cite.example.net/new?{via}title=About+{post}&kind=post"
        pages[f"posts/{post}.html"] = (
            f"<html><head><title>About {post}</title></head><body><main><h1>About {post}</h1>"
            f'<p>{words}</p><p><a href="{cite}">Cite this</a></p></main></body></html>\n'
        )
    return pages


def test_a_query_edit_made_on_most_pages_moves_only_the_page_with_its_own_edit(
    tmp_path: Path,
) -> None:
    found = dated(tmp_path, [blog("via=Editor&"), blog("", edited="citations")])
    expected = {f"posts/{post}.html": at(1 if post == "citations" else 0) for post in POSTS}
    assert found == expected, found
