"""An edit on most pages of a section in one commit is the template, also where the walk of most
of those pages stopped at a later edit of their own (history.sectioncensus). Each case is shaped
like a site where a page was re-dated so (text our own)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from test_template_principles import BASE, WHEN, Build, at, dated, expect, on, page, stamped

from gitutil import commit, make_repo, unix
from sitemill.lastmod.fingerprint.digest import fingerprint_file, reduce_file, reduce_html
from sitemill.lastmod.history import _templateedits as templateedits
from sitemill.lastmod.history._probes import PROBE, section_of
from sitemill.lastmod.history._respacing import RECASED, RESPACED
from sitemill.lastmod.history._sectioncensus import census_templates, section_changes
from sitemill.lastmod.history._stopedits import STAMP_EDIT
from sitemill.lastmod.history.contentdates import Reducing, date_by_content, read_file_versions
from sitemill.lastmod.history.edits import edit_of, rewords
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.versions import Version
from sitemill.lastmod.history.walk import Run

NAMES = ("one", "two", "three", "four", "five", "six")


def posts(tag: str, own: tuple[str, ...] = ()) -> Build:
    """Posts of one section, each with its tags in the post's header (a Gatsby blog's "c",
    "ft_printf", "42seoul"); those of ``own`` also edited in their own words."""
    return {
        f"c/{name}/index.html": page(
            f"{name} | Blog",
            f"<article><header><h1>{name}</h1><div class=tags><button>c</button>"
            f"<button>{tag}</button></div></header><p>Post {name}."
            f"{f' A note on {name}s.' if name in own else ''}</p></article>",
        )
        for name in NAMES
    }


def test_a_tag_renamed_on_most_posts_moves_none_whose_later_edits_stopped_the_others(
    tmp_path: Path,
) -> None:
    # A commit renamed one tag on every post ("42seoul" made "42Seoul"); the next one edited
    # four posts, each in its own words: only "one" and "two" reach the rename, too few to be
    # most of the section, and were dated by it.
    later = ("three", "four", "five", "six")
    builds = [posts("42seoul"), posts("42Seoul"), posts("42Seoul", later)]
    expect(dated(tmp_path, builds), {f"c/{name}": 2 for name in later})


def tag_pages(head: Callable[[str], tuple[str, str]], listed: dict[str, int]) -> Build:
    """Tag pages, each with the title and heading ``head`` gives its tag's name, over the
    posts it lists (``listed``: how many)."""
    pages = {}
    for name in NAMES:
        title, heading = head(name)
        posts = "".join(
            f'<article><h2><a href="/posts/{name}-{n}/">{name} {n}</a></h2></article>'
            for n in range(listed.get(name, 1))
        )
        pages[f"tags/{name}/index.html"] = page(title, heading + posts)
    return pages


def tags(label: str, listed: dict[str, int]) -> Build:
    """Tag pages of a Hexo NexT blog: the tag's name beside its label (``label`` joins them:
    a theme that put them on one line)."""
    return tag_pages(
        lambda name: (f"Tag: {name} | Blog", f"<h1>{name}{label}<small>Tag</small></h1>"), listed
    )


def test_a_label_respaced_on_most_tag_pages_moves_none(tmp_path: Path) -> None:
    # The upgrade wrote "cache\n<small>Tag</small>" as "cache<small>Tag</small>" on every tag
    # page (a reader sees "cache Tag" become "cacheTag"); new posts were listed since on four.
    later = {name: 2 for name in ("three", "four", "five", "six")}
    builds = [tags("\n  ", {}), tags("", {}), tags("", later)]
    expect(dated(tmp_path, builds), {f"tags/{name}": 2 for name in later})


def test_a_respacing_is_named_alike_on_every_page_and_rewords_nothing() -> None:
    def edit(name: str, before: str, after: str) -> str:
        def reduced(label: str) -> str:
            html = f"<title>Tag: {name} | Blog</title><main><h1>{name}{label}<small>Tag</small>"
            return reduce_html(f"{html}</h1><p>Posts.</p></main>".encode())

        return edit_of(reduced(after), reduced(before))

    assert edit("cache", "\n  ", "") == edit("git", " ", "") == RESPACED
    assert not rewords(RESPACED)
    # Words joined where the page's own text changed as well are the page's own edit.
    assert rewords(edit("cache", " ", "s"))


def named_tags(spell: Callable[[str], str], listed: dict[str, int]) -> Build:
    """Tag pages of a Hugo Congo site: the tag's name (spelled by ``spell``) as the page's
    title, its heading and its breadcrumb's last crumb."""
    crumbs = '<ol><li><a href="/tags/">Tags</a></li><li>{}</li></ol><h1>{}</h1>'
    return tag_pages(
        lambda name: (f"{spell(name)} · Blog", crumbs.format(spell(name), spell(name))), listed
    )


def test_each_tag_capitalised_on_its_own_page_moves_none(tmp_path: Path) -> None:
    # Congo 2.8 capitalised each tag's name where its own page shows it ("users" made "Users"
    # on tags/users/ alone): one edit on every tag page, though each recased its own word;
    # new posts were listed since on four, which stops their walks before the recasing.
    later = {name: 2 for name in ("three", "four", "five", "six")}
    builds = [named_tags(str, {}), named_tags(str.capitalize, {})]
    expect(
        dated(tmp_path, [*builds, named_tags(str.capitalize, later)]),
        {f"tags/{name}": 2 for name in later},
    )


CATEGORIES = ("bash", "clojure", "emacs", "go", "ruby", "vim")


def categories(spell: Callable[[str], str], listed: dict[str, int]) -> Build:
    """Category pages of a Hugo Hyde blog: the category's name (spelled by ``spell``) before
    the site's name in the title, over the posts it lists (``listed``: how many)."""
    return {
        f"categories/{name}/index.html": page(
            f"{spell(name)} · Max Blog",
            f"<h1>{spell(name)}</h1>"
            + "".join(
                f'<article><h2><a href="/posts/{name}-{n}/">{name} {n}</a></h2></article>'
                for n in range(listed.get(name, 1))
            ),
        )
        for name in CATEGORIES
    }


def test_term_titles_lower_cased_on_most_pages_move_none_whatever_their_parts_order(
    tmp_path: Path,
) -> None:
    # Hugo 0.55 stopped title-casing taxonomy terms ("Bash · Max Blog" made "bash · Max
    # Blog"): a title's parts are read in sorted order (fingerprint.titleparts), so "Bash"
    # went from before "Max Blog" to after it on four of the six pages, and the recasing is
    # still one edit on every page; new posts were listed since on three.
    later = {name: 2 for name in ("bash", "go", "vim")}
    builds = [categories(str.capitalize, {}), categories(str, {}), categories(str, later)]
    expect(dated(tmp_path, builds), {f"categories/{name}": 2 for name in later})


def test_a_title_recased_is_recased_whichever_place_its_part_sorts_to() -> None:
    def edit(before: str, after: str) -> str:
        def reduced(shown: str) -> str:
            html = f"<title>{shown} · Max Blog</title><main><h1>{shown}</h1><p>Posts.</p></main>"
            return reduce_html(html.encode())

        return edit_of(reduced(after), reduced(before))

    assert edit("Bash", "bash") == edit("Vim", "vim") == RECASED
    # A part reworded, or parts that only swap places by the letters they hold, are no
    # recasing: "Bash" made "Zsh" is the page's own edit.
    assert edit("Bash", "zsh") != RECASED
    assert rewords(edit("Bash", "bashes"))


def with_stubs(build: Build, lang: str = "en") -> Build:
    """``build`` with Hugo's redirect stub beside each of its pages (``x/page/1/``, where a
    paginated list's first page sends the reader on to the list itself), in ``lang``."""
    stubs = {
        path.replace("index.html", "page/1/index.html"): (
            f'<!DOCTYPE html><html lang="{lang}"><head><title>{BASE}{path[:-10]}</title>'
            f'<link rel="canonical" href="{BASE}{path[:-10]}"><meta name="robots" content='
            f'"noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url='
            f'{BASE}{path[:-10]}"></head></html>\n'
        )
        for path in build
    }
    return {**build, **stubs}


def test_redirect_stubs_beside_a_section_are_no_pages_of_its_census(tmp_path: Path) -> None:
    # Congo's tag pages, each beside its stub (42 and 42, the stubs re-rendered once before),
    # recased in a release that also reworded more docs pages, each its own way, than there
    # are tag pages: the recasing is most of the tag pages the commit changed, not of all it
    # changed, and the stubs, unchanged, would halve the section.
    later = {name: 3 for name in ("three", "four", "five", "six")}
    before, after = named_tags(str, {}), named_tags(str.capitalize, {})
    builds = [
        {**with_stubs(before, "en-AU"), **reworded(False)},
        {**with_stubs(before), **reworded(False)},
        {**with_stubs(after), **reworded(True)},
        {**with_stubs(named_tags(str.capitalize, later)), **reworded(True)},
    ]
    late = {f"tags/{name}": 3 for name in later} | {f"docs/{word}": 2 for word in WORDS}
    expect(dated(tmp_path, builds), late)


WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")


def reworded(edited: bool) -> Build:
    """Guides of a docs section, each given a note in its own words when ``edited``."""
    return {
        f"docs/{word}/index.html": page(
            f"{word} | Docs", f"<h1>{word}</h1><p>About {word}.{f' See {word}s.' * edited}</p>"
        )
        for word in WORDS
    }


def test_a_recasing_is_named_alike_on_every_page_and_rewords_nothing() -> None:
    def edit(name: str, before: str, after: str) -> str:
        def reduced(shown: str) -> str:
            html = f"<title>{shown} · Blog</title><main><h1>{shown}</h1><p>Posts.</p></main>"
            return reduce_html(html.encode())

        return edit_of(reduced(after), reduced(before))

    assert edit("users", "users", "Users") == edit("html", "html", "HTML") == RECASED
    assert not rewords(RECASED)
    # A word recased beside another changed is the page's own edit; so is a word's case
    # changed into another word.
    assert edit("users", "users", "Users!") != RECASED
    assert rewords(edit("users", "users", "Uses"))


def listing(order: tuple[str, ...], build: int) -> Build:
    """Category pages listing posts; every page re-rendered by each build (its build number
    in a comment, which no reader sees)."""
    return {
        f"cat/{name}/index.html": page(
            f"{name} | Blog",
            f"<!-- build {build} --><h1>{name}</h1>"
            + "".join(
                f'<article><h2><a href="/posts/{post}/">{post}</a></h2></article>'
                for post in (order if name == "one" else ("a", "b"))
            ),
        )
        for name in NAMES
    }


def test_a_list_reordered_where_the_others_changed_nothing_a_reader_sees_is_its_own(
    tmp_path: Path,
) -> None:
    # The commit changed every page's bytes, and one page's order: no edit of most pages.
    builds = [listing(("a", "b"), 0), listing(("b", "a"), 1)]
    expect(dated(tmp_path, builds), {"cat/one": 1})


def rerendered(count: int, build: int, edited: int = 1, link: int = 0) -> Build:
    """A section of ``count`` pages that every build re-renders (its number in a comment); at
    build 1 page ``link``'s link points elsewhere, its own edit, which rewords no text, and
    the other of the first ``edited`` pages are reworded, each in its own words (a word of
    its own: a number put in would be named "a number" on every page, one edit)."""
    return {
        f"docs/p{n:03}/index.html": page(
            f"Page {n}",
            f"<!-- build {build} --><h1>Page {n}</h1><p>Text {n}"
            f"{f' and note {_own_word(n)}' if n != link and n < edited and build else ''}.</p>"
            f'<a href="/{"new" if n == link and build else "old"}/">See</a>',
        )
        for n in range(count)
    }


def _own_word(n: int) -> str:
    """A word of page ``n``'s own, of letters alone ("bc" for 12)."""
    return "".join(chr(ord("a") + int(digit)) for digit in str(n))


def census_reads(tmp_path: Path, count: int, edited: int = 1, link: int = 0) -> int:
    """The older blobs read to date a re-rendered section of ``count`` pages, less the walk's
    own (one older version a page)."""
    repo = make_repo(tmp_path / f"site{count}")
    commit(repo, rerendered(count, 0), WHEN[0])
    commit(repo, rerendered(count, 1, edited, link), WHEN[1])
    paths = sorted(rerendered(count, 0))
    fingerprint, reduce = partial(fingerprint_file, base=BASE), partial(reduce_file, base=BASE)
    current = {path: fingerprint(path, (repo / path).read_bytes()) for path in paths}
    found = date_by_content(
        read_file_versions(repo, paths), fingerprint, current, reducing=Reducing(reduce)
    )
    moved = {*paths[:edited], *paths[link : link + 1]}  # (link -1: no link moved)
    assert {found.dates[path] for path in moved} == {unix(WHEN[1])}
    assert {found.dates[path] for path in paths if path not in moved} == {unix(WHEN[0])}
    return found.read - count


def test_a_section_re_rendered_whole_costs_a_few_pages_for_one_pages_own_edit(
    tmp_path: Path,
) -> None:
    # The stop's two versions and the first PROBE other pages' (two each), however large the
    # section: their edits (none a reader sees) show the stop's is its own.
    assert census_reads(tmp_path, 8) == census_reads(tmp_path, 32) == 2 + 2 * PROBE


def test_a_commit_that_edited_many_pages_in_their_own_words_costs_the_census_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A third of the section's pages stop at the commit, each reworded (too few for its
    # section's census of stops, enough for a commit's probes): the first stops, which the
    # probes named, show them the pages' own, and the census names none of the others.
    reads: list[int] = []

    def counted(*args: Any) -> tuple[list[tuple[str, int]], int]:
        found = census_templates(*args)
        reads.append(found[1])
        return found

    monkeypatch.setattr(templateedits, "census_templates", counted)
    census_reads(tmp_path, 30, edited=10, link=-1)
    census_reads(tmp_path, 90, edited=30, link=-1)
    assert sum(reads) == 0


def test_a_stamp_on_the_few_pages_no_later_edit_stopped_moves_none(tmp_path: Path) -> None:
    # Every deploy re-renders every post with its own date at each post's foot; the second
    # edited four posts' text too, each in its own words: "one" and "two" reach the first's
    # stamps alone, too few for a commit's census, and were dated by it.
    def line(build: int) -> str:
        return f"<p>Built {on(build, '%Y-%m-%d')}</p>"

    later = ("three", "four", "five", "six")
    edited = {
        path: html.replace("Story of ", f"A {path.split('/')[1]}-told story of ")
        if path.split("/")[1] in later
        else html
        for path, html in stamped(dict.fromkeys(NAMES, 2), line).items()
    }
    builds = [
        stamped(dict.fromkeys(NAMES, 0), line),
        stamped(dict.fromkeys(NAMES, 1), line),
        edited,
    ]
    found = dated(tmp_path, builds)
    assert found == {f"posts/{name}": at(2 if name in later else 0) for name in NAMES}, found


class _Looked(dict[str, Run]):
    """Pages that count how often a page's versions are looked up."""

    looked = 0

    def __getitem__(self, path: str) -> Run:
        self.looked += 1
        return super().__getitem__(path)


def test_a_commit_that_changed_a_few_pages_of_a_big_section_looks_at_a_few_of_them() -> None:
    # A section of 1,000 pages, of which one commit changed 3 (each its own words): no census
    # can make its edit template (3 of 1,000), so counting the pages that stood at it stops
    # after 6 of them. Before: all 1,000 pages' versions were looked at, for each such place.
    section = [f"docs/page-{n}.html" for n in range(1_000)]
    old, new = Version(100, b"a" * 20, False), Version(200, b"b" * 20, False)
    pages = _Looked({path: Run([new, old] if n < 3 else [old]) for n, path in enumerate(section)})
    changes = section_changes(pages, section_of)
    census = ({"docs": section}, changes, section_of, MIN_SECTION)
    named: list[list[tuple[str, int]]] = []

    def name(stops: list[tuple[str, int]]) -> int:
        named.append(stops)
        return 0

    pages.looked = 0
    found, _ = census_templates([(path, 1) for path in section[:3]], pages, census, name, ({}, {}))
    assert (found, named) == ([], [])
    assert pages.looked <= 3 + 2 * 3


def test_the_census_names_the_stops_of_every_section_in_one_batch_a_step() -> None:
    # Three sections of 8 posts, each re-stamped by one commit, four of whose posts a later
    # edit of their own stopped: the census names each section's stops, then its other pages
    # (the first PROBE, then all), in three batches however many sections (a pool's workers
    # get the stops of every section at once); before, each section had its own three (and
    # an empty fourth), one section at a time: 12 batches.
    sections = [f"{name}/post-{n}.html" for name in ("a", "b", "c") for n in range(8)]
    old, new = Version(100, b"a" * 20, False), Version(200, b"b" * 20, False)
    pages = {path: Run([new, old]) for path in sections}
    members: dict[str, list[str]] = {}
    for path in sections:
        members.setdefault(section_of(path), []).append(path)
    census = (members, section_changes(pages, section_of), section_of, MIN_SECTION)
    names: dict[tuple[str, int], str] = {}
    batches: list[list[tuple[str, int]]] = []

    def name(stops: list[tuple[str, int]]) -> int:
        batches.append(stops)
        fresh = [stop for stop in stops if stop not in names]
        names.update(dict.fromkeys(fresh, STAMP_EDIT))
        return len(fresh)

    found = [(path, 1) for path in sections if int(path[-6]) < 4]
    chosen, read = census_templates(found, pages, census, name, (names, {}))
    assert chosen == found and read == len(sections)
    assert len(batches) == 3, [len(batch) for batch in batches]
