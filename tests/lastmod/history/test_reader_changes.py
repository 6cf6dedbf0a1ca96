"""An edit on most pages of a commit, counted among the pages whose reading the commit changed
(history.readerchanges), not among the files it wrote: a deploy that renamed the stylesheet in
every file, with a theme's new label on every post. Shaped like a Jekyll Minimal Mistakes blog
(posts under life/, tech/ and research/ with a "Posted:" meta line, numbered list pages, tag and
year archives): text our own."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.fingerprint.digest import fingerprint_file, reduce_file
from sitemill.lastmod.history.contentdates import date_by_content, read_file_versions
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import BASE, built_lastmods

WHEN = ["2024-01-10 09:00:00", "2024-02-11 09:00:00", "2024-03-12 09:00:00"]
POSTS = (
    "life/sourdough",
    "life/racing-school",
    "life/demo-reel",
    "tech/ctags",
    "tech/new-site",
    "tech/reorder",
    "tech/moving",
    "research/review-paper",
    "research/thesis",
    "research/codesign",
)
PAGED = ("", "page/2", "page/3")
ARCHIVES = ("tags", "categories", "year-archive")
STATIC = ("about", "privacy", "publications", "cv", "research", "tech", "life", "search")
LISTS = (*PAGED, *ARCHIVES, *STATIC)
Build = dict[str, str]


def layout(title: str, body: str, css: str) -> str:
    return (
        f'<html><head><title>{title} - Blog</title><link rel="stylesheet" '
        f'href="/assets/css/main.{css}.css"></head><body><div class="masthead"><nav>'
        f'<a href="/">Blog</a></nav></div><div id="main" role="main">{body}</div>'
        '<div class="page__footer"><footer>Footer</footer></div></body></html>\n'
    )


def post(path: str, label: str, css: str, own: str = "") -> str:
    name = path.rsplit("/", 1)[-1].replace("-", " ")
    return layout(
        name,
        f'<article class="page"><div class="page__inner-wrap"><header><h1 class="page__title">'
        f'{name}</h1><p class="page__meta"><span class="page__meta-date">{label}: '
        f'<time datetime="2021-06-08">June 8, 2021</time></span></p></header>'
        f'<section class="page__content"><p>Notes on {name}{own}.</p></section></div></article>',
        css,
    )


def listing(path: str, css: str, newest: str = "", noted: bool = False) -> str:
    """A list page: the home page and its numbered pages show 3 entries each, newest first;
    the tag, category and year archives all of them; the STATIC pages none (``noted``: a
    sentence of its own added to each)."""
    entries = (newest, *POSTS) if newest else POSTS
    if path in PAGED:
        start = 3 * PAGED.index(path)
        entries = entries[start : start + 3]
    elif path not in ARCHIVES:
        return layout(
            path, f"<h1>{path}</h1><p>About {path}{'. ' + path if noted else ''}.</p>", css
        )
    teasers = "".join(
        f'<div class="list__item"><article class="archive__item"><h2 class="archive__item-title">'
        f'<a href="/{entry}/">{entry.rsplit("/", 1)[-1]}</a></h2></article></div>'
        for entry in entries
    )
    return layout(path or "home", f'<h1 class="page__title">{path or "Recent"}</h1>{teasers}', css)


def site(
    label: str,
    css: str,
    *,
    edited: tuple[str, ...] = POSTS,
    own: str = "",
    newest: str = "",
    noted: bool = False,
) -> Build:
    """Every post (those of ``edited`` with ``label``, the rest "Posted"), every list page;
    ``own``: the first post's own words changed too; ``newest``: a new post, listed;
    ``noted``: each STATIC page's own new sentence."""
    files = {
        f"{path}/index.html": post(
            path, label if path in edited else "Posted", css, own if path == POSTS[0] else ""
        )
        for path in POSTS
    }
    for path in LISTS:
        files[f"{path}/index.html".lstrip("/")] = listing(path, css, newest, noted)
    if newest:
        files[f"{newest}/index.html"] = post(newest, label, css)
    return files


def dated(tmp_path: Path, builds: list[Build]) -> dict[str, str]:
    repo = make_repo(tmp_path / "site")
    for build, when in zip(builds, WHEN, strict=False):
        commit(repo, build, when)
    return built_lastmods(repo)


def at(index: int) -> str:
    return lastmod_from_timestamp(unix(WHEN[index]), Precision.DATETIME)


def test_a_label_on_every_post_of_a_deploy_that_rewrote_every_file_moves_no_post(
    tmp_path: Path,
) -> None:
    # 'Posted:' made 'Updated:' on the 10 posts, the stylesheet renamed in all 24 files: the
    # commit changed the reading of the 10 posts alone. Before: 10 of 24 files, no template.
    found = dated(tmp_path, [site("Posted", "a1b2"), site("Updated", "c3d4")])
    assert found == {path: at(0) for path in found}, found
    assert len(found) == 24


def test_a_post_s_own_words_and_a_list_s_new_entry_keep_the_commit_s_date(
    tmp_path: Path,
) -> None:
    # The same deploy, and the first post's own words changed, a new post listed (a list's
    # entries are its content): those pages take the commit's date.
    builds = [
        site("Posted", "a1b2"),
        site("Updated", "c3d4", own=" and starters", newest="tech/utterances"),
    ]
    found = dated(tmp_path, builds)
    late = {POSTS[0], "tech/utterances", *PAGED, *ARCHIVES}
    expected = {path: at(1 if path in late else 0) for path in found}
    assert found == expected, found


def test_list_pages_whose_walk_stops_later_leave_the_count_where_they_read_alike(
    tmp_path: Path,
) -> None:
    # A later commit lists a new post on the list pages and adds its own sentence to each
    # other page: their walks stop there and never reach the deploy. Their versions there are
    # compared (the stylesheet's name alone changed): the deploy changed the 10 posts' reading
    # alone. Before: 10 of 24 files, no template.
    builds = [
        site("Posted", "a1b2"),
        site("Updated", "c3d4"),
        site("Updated", "c3d4", newest="tech/utterances", noted=True),
    ]
    found = dated(tmp_path, builds)
    late = {"tech/utterances", *LISTS}
    assert found == {path: at(2 if path in late else 0) for path in found}, found


def test_a_label_on_three_posts_is_never_template(tmp_path: Path) -> None:
    # The same deploy where only 3 posts changed their label: fewer than 4 pages, each dated
    # by the commit, however few pages it changed for a reader.
    edited = POSTS[:3]
    found = dated(tmp_path, [site("Posted", "a1b2"), site("Updated", "c3d4", edited=edited)])
    assert found == {path: at(1 if path in edited else 0) for path in found}, found


def test_versions_compared_are_remembered_and_a_later_run_reads_none(tmp_path: Path) -> None:
    # What the comparison found is kept in the blob table (32 hex digits, as a state holds
    # it): a second run of the same history reads no blob.
    repo = make_repo(tmp_path / "site")
    last = site("Updated", "c3d4", newest="tech/utterances", noted=True)
    for build, when in zip(
        [site("Posted", "a1b2"), site("Updated", "c3d4"), last], WHEN, strict=True
    ):
        commit(repo, build, when)
    paths = sorted(last)
    fingerprint = partial(fingerprint_file, base=BASE)
    reduce = partial(reduce_file, base=BASE)
    current = {path: fingerprint(path, (repo / path).read_bytes()) for path in paths}
    first = date_by_content(read_file_versions(repo, paths), fingerprint, current, reduce=reduce)
    assert first.dates[f"{POSTS[1]}/index.html"] == unix(WHEN[0])
    assert all(re.fullmatch("[0-9a-f]{32}", value) for value in first.blobs.values())
    found = read_file_versions(repo, paths)
    second = date_by_content(found, fingerprint, current, first.blobs, reduce=reduce)
    assert second.dates == first.dates and second.read == 0
