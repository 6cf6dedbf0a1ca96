"""The commits of one second are one commit (history.versions.one_a_second, issue 79): sitemill
names a commit by its committer time, and a rebase gives every commit it replays one time.
Shaped like an Eleventy blog whose maintainer rebased two commits onto the branch at once: the
first gave every post the site's new name as its description, the second rewrote the footer's
links (outside the article: nothing a reader of the post sees), and one post was edited later
in its own words. Each post is a folder of its own (``post-a/index.html``). Text our own."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo
from treedates import WHEN, at, built_lastmods

POSTS = tuple(f"post-{name}" for name in "abcdefgh")
Build = dict[str, str]


def post(name: str, *, team: str, host: str, own: str = "") -> str:
    return (
        f"<html><head><title>{name}</title><meta name='description' content='New ideas from "
        f"the {team}.'></head><body><nav><a href='/'>Blog</a></nav><main><article><h1>{name}"
        f"</h1><p>What {name} is about{own}.</p></article></main><footer><a href='https://"
        f"{host}/'>Home</a></footer></body></html>\n"
    )


def blog(*, team: str, host: str, own: tuple[str, ...] = ()) -> Build:
    return {
        f"{name}/index.html": post(
            name, team=team, host=host, own=", revised" if name in own else ""
        )
        for name in POSTS
    }


def rebased(
    tmp_path: Path, *, own: tuple[str, ...] = (), later: tuple[str, ...] = ()
) -> dict[str, str]:
    """The lastmods after a first build at WHEN[0], the rebased pair at WHEN[1] (the posts of
    ``own`` revised in the second commit of the pair) and, where ``later`` names posts, their
    own revision at WHEN[2]."""
    repo = make_repo(tmp_path / "site")
    commit(repo, dict(blog(team="Dat team", host="old.example")), WHEN[0])
    commit(repo, dict(blog(team="Dat Ecosystem", host="old.example")), WHEN[1])
    commit(repo, dict(blog(team="Dat Ecosystem", host="new.example", own=own)), WHEN[1])
    if later:
        commit(repo, dict(blog(team="Dat Ecosystem", host="new.example", own=later)), WHEN[2])
    return built_lastmods(repo)


def test_a_description_given_every_post_in_a_rebased_pair_dates_no_post(tmp_path: Path) -> None:
    # WHEN[1] holds two commits: the description on all eight posts, then the footer's links
    # on all eight (each post changed twice in that second: 16 versions, 8 pages). Before, the
    # commit's census counted 16 pages and the description, made on 8 of them, was no longer
    # the template's. WHEN[2] edits one post's own words.
    found = rebased(tmp_path, later=(POSTS[0],))
    assert found == {name: at(2 if name == POSTS[0] else 0) for name in POSTS}, found


def test_a_post_edited_in_its_own_words_in_the_rebased_pair_takes_its_date(
    tmp_path: Path,
) -> None:
    # The same pair of one second, where the second commit also revised one post's own words:
    # that post's edit of the second is its own (the description beside it), dated by it.
    found = rebased(tmp_path, own=(POSTS[3],))
    assert found == {name: at(1 if name == POSTS[3] else 0) for name in POSTS}, found
