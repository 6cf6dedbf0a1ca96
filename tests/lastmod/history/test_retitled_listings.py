"""A list page's teaser retitled with the page it lists is the list page's own edit
(history.listings, dating rules 21, issue 79: jaeyeophan-aircloud, a post published and, twelve
minutes later, retitled on its own page and in its teaser on 39 list pages of 91): the pages a
commit retitled are read from their two versions (their title lost words and gained others),
and a list page whose edit swapped those words alone lists that page anew, however many list
pages made the swap alike, as a link to a page its commit created, deleted or moved is. Words
swapped alike on every list page that no page's retitle names are still the template's. Shaped
like a Hexo blog whose archive pages each list every post; text our own, in a real repository
with fixed dates."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo
from treedates import WHEN, at, built_lastmods

Build = dict[str | bytes, bytes | str | None]
ARCHIVES = 6  # archive pages, each listing every post (a list: fewer than half the pages)
POSTS = {f"p{n}": f"Notes on trees, part {n}" for n in range(10)}


def blog(posts: dict[str, str], label: str = "Archive") -> Build:
    """``posts`` (path segment: title), each a post page, and ARCHIVES archive pages headed
    ``label`` that list them all, each teaser headed by its post's title."""
    pages: Build = {}
    for n, (slug, title) in enumerate(posts.items()):
        said = f"<p>What post number {n} says, at length and in its own words.</p>\n" * 12
        pages[f"posts/{slug}/index.html"] = _page(title, f"<h1>{title}</h1>{said}")
    listed = "".join(
        f'<article><h3><a href="/posts/{slug}/">{title}</a></h3><p>A teaser.</p></article>'
        for slug, title in posts.items()
    )
    for n in range(ARCHIVES):
        pages[f"archives/{n}/index.html"] = _page(
            f"{label} {n}", f"<h1>{label} {n}</h1>{listed}<p>Our Blog, written with care.</p>"
        )
    return pages


def _page(title: str, main: str) -> str:
    head = f"<head><title>{title}</title></head>"
    return f"<html>{head}<body><main>{main}</main></body></html>\n"


def dated(tmp_path: Path, *builds: Build) -> dict[str, str]:
    """The lastmod of each page once ``builds`` are committed in turn, at WHEN's times."""
    repo = make_repo(tmp_path / "site")
    for build, when in zip(builds, WHEN, strict=False):
        commit(repo, build, when)
    return built_lastmods(repo)


def test_a_post_retitled_after_it_went_out_dates_every_list_that_retitled_its_teaser(
    tmp_path: Path,
) -> None:
    # The first deploy publishes post "c" (in every archive's list); the next retitles it, on
    # its own page and in the teaser of all 6 archive pages alike: the post's own edit and
    # each archive page's own list. The other posts keep their first date.
    published = {**POSTS, "c": "[Vuetorials 7. Vuex Best Practice]"}
    retitled = {**POSTS, "c": "[Vuetorials] 7. Vuex Best Practice로 가는 여정"}
    found = dated(tmp_path, blog(POSTS), blog(published), blog(retitled))
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c"}
    assert found == {path: at(2 if path in late else 0) for path in found}, sorted(found.items())
    assert len(found) == ARCHIVES + len(POSTS) + 1


def test_words_swapped_alike_on_every_list_and_no_page_retitled_stay_the_templates(
    tmp_path: Path,
) -> None:
    # The next deploy renames every archive's heading ("Archive" → "Archiv") on all 6 archive
    # pages and retitles no post: a word-only edit most of the commit's pages made, the
    # template's; the archives keep the date of the post the deploy before put in.
    published = {**POSTS, "c": "Contest notes"}
    found = dated(tmp_path, blog(POSTS), blog(published), blog(published, "Archiv"))
    late = {f"archives/{n}" for n in range(ARCHIVES)} | {"posts/c"}
    assert found == {path: at(1 if path in late else 0) for path in found}, sorted(found.items())
