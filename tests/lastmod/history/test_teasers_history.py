"""Teasers in a git history (fingerprint version 6): a post's edit re-cuts its excerpt on every list
and "You may also enjoy" block that teases it; only the post itself is dated by it. Shaped like a
Jekyll Minimal Mistakes blog's built branch (structure copied, text our own)."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

BASE = "https://example.org/"
WHEN = ("2024-01-10 09:00:00", "2024-02-11 09:00:00", "2024-03-12 09:00:00")
WORDS = {
    "road": "We drove four thousand miles in nine days",
    "editor": "A tour of the plugins I use every day",
    "notes": "Slides of a talk I gave on keeping notes",
    "bread": "How a starter becomes a loaf in two days",
    "bikes": "Fixing an old bicycle with a few tools",
}


def teaser(name: str, texts: dict[str, str]) -> str:
    return (
        f'<div class="grid__item"><article class="archive__item">\n<h2 class="archive__item-title">'
        f'<a href="/posts/{name}/" rel="permalink">{name.title()}</a></h2>\n'
        f'<p class="page__meta"><span>{len(texts[name]) // 10} minute read</span></p>\n'
        f'<p class="archive__item-excerpt">{texts[name][:30]}...</p>\n</article></div>\n'
    )


def layout(title: str, inner: str) -> str:
    return (
        f"<html><head><title>{title} - Blog</title></head><body>\n<nav><a href=/>Blog</a></nav>\n"
        '<div id="main" role="main">\n<div class="sidebar"><h3>A. Writer</h3></div>\n'
        f"{inner}</div>\n<footer>2024</footer></body></html>\n"
    )


def build(texts: dict[str, str]) -> dict[str, str]:
    names = list(texts)
    site = {}
    for name in names:
        related = "".join(teaser(other, texts) for other in names if other != name)[:4000]
        site[f"posts/{name}/index.html"] = layout(
            name.title(),
            f'<article class="page">\n<h1 class="page__title">{name.title()}</h1>\n'
            f'<section class="page__content"><p>{texts[name]}.</p></section>\n</article>\n'
            f'<div class="page__related"><h2>You may also enjoy</h2>\n{related}</div>\n',
        )
    listed = "".join(teaser(name, texts) for name in names)
    site["tags/index.html"] = layout(
        "Posts by Tag", f'<div class="archive"><h1>Posts by Tag</h1>\n{listed}</div>\n'
    )
    site["index.html"] = layout(
        "Blog",
        f'<article class="splash"><p>Welcome.</p><h3>Recent posts</h3>\n{listed}</article>\n',
    )
    return site


def at(index: int) -> str:
    return lastmod_from_timestamp(unix(WHEN[index]), Precision.DATETIME)


def test_a_posts_edit_dates_the_post_not_its_teasers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    texts = dict(WORDS)
    commit(repo, build(texts), WHEN[0])
    # The road post's own words edited: its excerpt and reading time change on every page.
    texts["road"] = "Our fourth year on the road: we drove five thousand miles"
    commit(repo, build(texts), WHEN[1])
    # A new post: the list pages list it, and it takes a place beside every post.
    texts["boats"] = "Sailing a small boat across the bay"
    commit(repo, build(texts), WHEN[2])
    found = built_lastmods(repo)
    assert found == {
        "": at(2),  # (it lists the new post)
        "tags": at(2),
        "posts/road": at(1),
        "posts/boats": at(2),
        **{f"posts/{name}": at(0) for name in ("editor", "notes", "bread", "bikes")},
    }, found
