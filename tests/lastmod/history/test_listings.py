"""A list page's content is which pages it lists (history.listings, issue 79): an edit that
put in, took out or re-pointed a link to a page its commit created, deleted or moved is the
list page's own, however many list pages made it, and so is the edit of the moved page itself;
what else those pages made alike (the footer's year) is still the template's on the others.
Shaped like a Hexo Sakura blog whose archive pages each list every post (lawrencesivan: 28 of
a deploy's 34 pages), and like a post retitled and moved in the deploy that re-pointed its
listings (lanrendev). Text our own."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo
from treedates import WHEN, at, built_lastmods

Build = dict[str, str | None]
ARCHIVES = 6  # archive pages, each listing every post


def blog(posts: dict[str, str], year: str) -> Build:
    """``posts`` (path segment: title), each a post page, and ARCHIVES archive pages that list
    them all; every page's content ends with the footer's ``year``."""
    footer = f"<p>© {year} Our Blog. Written with care.</p>"
    pages: Build = {}
    for n, (slug, title) in enumerate(posts.items()):
        said = f"<p>What post number {n} says, at length and in its own words.</p>\n" * 12
        main = f"<h1>{title}</h1>{said}"
        pages[f"posts/{slug}/index.html"] = _page(title, main + footer)
    listed = "".join(
        f'<li><a href="/posts/{slug}/">{title}</a></li>' for slug, title in posts.items()
    )
    for n in range(ARCHIVES):
        pages[f"archives/{n}/index.html"] = _page(
            f"Archive {n}", f"<h1>Archive {n}</h1><ul>{listed}</ul>{footer}"
        )
    return pages


def _page(title: str, main: str) -> str:
    return f"<html><head><title>{title}</title></head><body><main>{main}</main></body></html>\n"


def dated(tmp_path: Path, builds: list[Build]) -> dict[str, str]:
    repo = make_repo(tmp_path / "site")
    for n, build in enumerate(builds):
        gone = {path: None for path in builds[n - 1] if path not in build} if n else {}
        commit(repo, {**build, **gone}, WHEN[n])
    return built_lastmods(repo)


def test_a_post_added_to_every_archive_page_dates_them_and_the_year_beside_it_does_not(
    tmp_path: Path,
) -> None:
    # The deploy adds post "c" to all 6 archive pages (6 of the 9 pages it changed made that
    # edit alike) and bumps the footer's year on every page: the archive pages list a new
    # page, so they are dated by it; posts "a" and "b" only changed the year, the template's.
    posts = {"a": "Notes on trees", "b": "A walk by the river"}
    first = blog(posts, "2024")
    second = blog({**posts, "c": "Contest travel notes"}, "2025")
    found = dated(tmp_path, [first, second])
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c"}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == ARCHIVES + 3


def test_a_post_retitled_and_moved_is_dated_by_its_headline_and_so_are_its_listings(
    tmp_path: Path,
) -> None:
    # The deploy moves post "c" to "c2" and retitles it (its <title> and <h1>); every archive
    # page re-points its link and swaps the same title words: the post's own edit, and each
    # archive page's own list, however many of the deploy's pages made that swap alike.
    posts = {"a": "Notes on trees", "b": "A walk by the river"}
    first = blog({**posts, "c": "微信公众号问题记录（一）"}, "2024")
    second = blog({**posts, "c2": "微信公众号支付和H5支付问题记录（一）"}, "2024")
    found = dated(tmp_path, [first, second])
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c2"}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == ARCHIVES + 3
