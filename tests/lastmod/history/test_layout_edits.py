"""A theme upgrade that re-renders the whole site changes each layout alike on the pages of its
sections: the post footer's label made another on every post is the template's, though the
posts are fewer than half of the pages the commit changed, the others each changed their own
way. Shaped like a Minimal Mistakes blog's upgrade (text our own)."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history.edits import edit_of, replaces_words
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

BASE = "https://example.org/"
WHEN = ("2021-05-10 09:00:00", "2022-03-07 20:41:22")
POSTS = {
    "tech": ("bob", "ctags", "reorder", "new-site", "moving"),
    "life": ("bread", "racing", "reel", "trip"),
}
OTHERS = (
    "about", "cv", "publications", "privacy", "year-archive", "tags", "categories", "blog",
    "blog/page/2", "page/2", "page/3", "page/4", "",
)  # fmt: skip
Build = dict[str, str]


def page(title: str, body: str) -> str:
    return (
        f"<html><head><title>{title}</title></head><body><header><nav>Menu</nav></header>"
        f"<main>{body}</main><footer>Footer</footer></body></html>\n"
    )


def post(name: str, upgraded: bool) -> str:
    label = "Updated:" if upgraded else "Posted:"
    profiles = '<li><a href="https://scholar.example/ay">Scholar</a></li>' if upgraded else ""
    return page(
        name,
        f'<div class="author"><ul><li>Knoxville</li>{profiles}</ul></div>'
        f"<article><h1>{name}</h1><p>All about {name}.</p>"
        f'<footer class="meta"><p>{label} <time>May 1, 2021</time></p></footer></article>',
    )


def site(upgraded: bool) -> Build:
    build = {
        f"{section}/{name}/index.html": post(name, upgraded)
        for section, names in POSTS.items()
        for name in names
    }
    for other in OTHERS:
        path = f"{other}/index.html" if other else "index.html"
        own = f"<p>Rendered anew for {other or 'home'}.</p>" if upgraded else ""
        build[path] = page(other or "home", f"<h1>{other or 'home'}</h1><p>Page.</p>{own}")
    return build


def test_a_post_footers_label_changed_on_every_post_by_a_site_upgrade_moves_none(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "site")
    for upgraded, when in zip((False, True), WHEN, strict=True):
        commit(repo, site(upgraded), when)
    found = built_lastmods(repo)
    posts = {f"{section}/{name}" for section, names in POSTS.items() for name in names}
    at = [lastmod_from_timestamp(unix(when), Precision.DATETIME) for when in WHEN]
    assert found == {path: at[0 if path in posts else 1] for path in found}, found
    assert len(found) == len(site(True))


def test_an_edit_that_replaces_words_says_so_one_that_only_adds_does_not() -> None:
    older = "Post \x01T\x01 All about it. Posted: May 1"
    assert replaces_words(edit_of(older.replace("Posted:", "Updated:"), older))
    assert not replaces_words(edit_of(older + " A note of its own.", older))
    assert not replaces_words(edit_of(older.replace("Posted:", "posted:"), older))
