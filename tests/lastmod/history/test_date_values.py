"""A date is its value, not its spelling, and a page's own date is no content of an edit's shape
(history.datevalues): a theme or a generator that prints each page's own date, or re-spells it,
on most pages of one commit made one edit on them. Each case is shaped like a real site where the
walk re-dated pages (structure copied, text our own)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from pytest import MonkeyPatch

from sitemill.lastmod.history import datevalues
from sitemill.lastmod.history.datevalues import RESPELLED, is_respelled, mark_date_values
from sitemill.lastmod.history.edits import edit_of, exact_of, names_of
from treedates import at, dated

Build = dict[str, str]
DAYS = ["Mar 22, 2018", "Jun 23, 2020", "Jan 5, 2019", "Oct 30, 2021", "Feb 14, 2017"]
DAYS += ["Jul 1, 2022", "Dec 9, 2016", "Apr 18, 2023"]


def expect(found: dict[str, str], late: dict[str, int]) -> None:
    """Every page dated by the first build but those of ``late`` (page: the build's index)."""
    assert found == {path: at(late.get(path, 0)) for path in found}, found
    assert len(found) >= 6


def relearn(footline: bool, edited: str = "") -> Build:
    """A Hugo documentation site (abstools: Learn, then Relearn, which prints each page's own
    date in a footline at its article's foot, an icon before it)."""
    topics = ("monty-hall", "watertank", "gis", "memory", "resources", "tutorial", "contact")
    pages = {}
    for n, topic in enumerate(topics):
        foot = (
            f"<footer class=\"footline\"><i class='fa-fw fas fa-calendar'></i> {DAYS[n]}</footer>"
            if footline
            else ""
        )
        fix = " (and a fix)" if topic == edited else ""
        body = f"<p>How the {topic} model reaches its goal{fix}.</p>"
        pages[f"documentation/{topic}/index.html"] = (
            f'<html><head><title>{topic} :: ABS</title></head><body><nav id="R-sidebar">'
            f'<a href="/">Home</a></nav><main id="R-body-inner"><article class="default">'
            f"<h1>{topic}</h1>{body}{foot}</article></main></body></html>\n"
        )
    return pages


def test_a_theme_that_prints_each_pages_own_date_at_its_foot_moves_no_page(tmp_path: Path) -> None:
    # abstools (Learn -> Relearn): '' -> 'Mar 22, 2018' on most pages, each its own date; one
    # page's own text changed beside it keeps the commit's date.
    found = dated(tmp_path, [relearn(False), relearn(True, edited="gis")])
    expect(found, {"documentation/gis": 1})


def astro(spelled: bool, edited: int = -1) -> Build:
    """An AstroPaper blog (llccing): each post's date and time, then in another language's
    format with a reading time after them."""
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")
    pages = {}
    for n, month in enumerate(months):
        when = f"Published:{month} {n + 10}, 2018 | at {n + 1}:14 PM"
        if spelled:
            when = f"Published:2018年{n + 1}月{n + 10}日 | at {n + 13}:14 | {3 + 2 * n} min read"
        text = f"<p>Post {n} says its words{' again' if n == edited else ''}.</p>"
        pages[f"posts/post-{n}/index.html"] = (
            f"<html><head><title>Post {n} | Blog</title></head><body><header><a href='/'>Blog</a>"
            f'</header><main id="main-content"><h1>Post {n}</h1><div class="flex">'
            f"<span>{when}</span></div><article>{text}</article></main>"
            "<footer>Copyright</footer></body></html>\n"
        )
    return pages


def test_a_date_and_time_re_spelled_and_a_reading_time_added_move_no_post(
    tmp_path: Path,
) -> None:
    # llccing (AstroPaper): 'Published:Jan 23, 2018' -> 'Published:2018年1月23日', '10:14 PM'
    # -> '22:14 | 13 min read' on every post; one post's own words changed beside them.
    found = dated(tmp_path, [astro(False), astro(True, edited=3)])
    expect(found, {"posts/post-3": 1})


def archive(spelled: bool, edited: int = -1) -> Build:
    """An AstroPaper blog's posts and list pages: each post prints its date, each list page
    its posts' titles and dates (teasers), then in another language's format."""

    def when(n: int) -> str:
        return f"2018年{n + 1}月{n + 10}日" if spelled else f"{MONTHS[n]} {n + 10}, 2018"

    pages = {
        f"posts/post-{n}/index.html": (
            f"<html><head><title>Post {n}</title></head><body><main><h1>Post {n}</h1>"
            f"<span>Published:{when(n)}</span><p>Words of post {n}"
            f"{' and more' if n == edited else ''}.</p></main></body></html>\n"
        )
        for n in range(8)
    }
    for n in range(3):
        teasers = "".join(
            f'<li><a href="/posts/post-{m}/">Post {m}</a> <span>Published:{when(m)}</span></li>'
            for m in range(n, n + 4)
        )
        pages[f"page/{n}/index.html"] = (
            f"<html><head><title>Page {n}</title></head><body><main><h1>Page {n}</h1>"
            f"<ul>{teasers}</ul></main></body></html>\n"
        )
    return pages


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")


def test_dates_re_spelled_alone_on_most_pages_of_a_commit_move_none(tmp_path: Path) -> None:
    # Every post's and list page's dates re-spelled, nothing else: one edit on every page.
    found = dated(tmp_path, [archive(False), archive(True, edited=5)])
    expect(found, {"posts/post-5": 1})


def test_teasers_dates_re_spelled_on_fewer_than_half_of_a_commits_pages_are_theirs(
    tmp_path: Path,
) -> None:
    # llccing's list pages: their teasers' dates re-spelled, while most pages the commit changed
    # changed each its own way (here: every post's words): the list pages take its date.
    def build(step: int) -> Build:
        pages = archive(bool(step))
        if step:
            for n in range(8):
                path = f"posts/post-{n}/index.html"
                pages[path] = pages[path].replace("Words of", f"The {WORDS[n] or 'new'} words of")
        return pages

    found = dated(tmp_path, [build(0), build(1)])
    expect(found, {path.removesuffix("/index.html"): 1 for path in build(0)})


def ananke(labelled: bool, edited: str = "") -> Build:
    """A Hugo Ananke blog's tag pages (dazwilkin): each lists its posts, the first one's date
    above its title, later replaced by a label ("Posts")."""
    pages = {}
    for n, tag in enumerate(("ackal", "acme", "azure", "crd", "dapr", "envoy", "gcp")):
        first = (
            '<span class="f6 db">Posts</span>' if labelled else f'<div class="f6">{DAYS[n]}</div>'
        )
        extra = " Also new." if tag == edited else ""
        pages[f"tags/{tag}/index.html"] = (
            f"<html><head><title>{tag} | Blog</title></head><body><header><nav><a href='/'>Blog"
            f"</a></nav></header><main><article><p>Below you will find pages that utilize the "
            f'taxonomy term “{tag}”{extra}</p></article><section><div class="mb3">{first}'
            f'<h1 class="f3"><a href="/posts/{n}/">Post {n}</a></h1></div>'
            f'<div class="mb3"><h1 class="f3"><a href="/posts/{n + 10}/">Post {n + 10}</a>'
            "</h1></div></section></main><footer>Footer</footer></body></html>\n"
        )
    return pages


def test_a_teasers_date_replaced_by_a_label_on_most_tag_pages_moves_none(tmp_path: Path) -> None:
    # dazwilkin (Ananke): 'April 21, 2022' -> 'Posts' on 184 tag pages, each its first
    # teaser's own date; one tag page's own text changed beside it.
    found = dated(tmp_path, [ananke(False), ananke(True, edited="crd")])
    expect(found, {"tags/crd": 1})


WORDS = ("", "first", "second", "next", "last", "own", "whole", "best")


def test_a_post_re_dated_among_pages_edited_each_its_own_way_is_its_own_edit(
    tmp_path: Path,
) -> None:
    # One post's date replaced by another in a commit whose other pages changed their own words:
    # "a date replaced" is made by one page of six, no template.
    def build(step: int) -> Build:
        pages = relearn(True)
        if step:
            pages = {
                path: html.replace("its goal", f"its {WORDS[n]} goal") if n else html
                for n, (path, html) in enumerate(sorted(pages.items()))
            }
            first = sorted(pages)[0]
            pages[first] = pages[first].replace(DAYS[6], "Dec 10, 2016")
        return pages

    found = dated(tmp_path, [build(0), build(1)])
    expect(found, {path.removesuffix("/index.html"): 1 for path in build(0)})


def figures(step: int) -> Build:
    """A data site: each country's page prints its figures."""
    return {
        f"data/c{n}/index.html": (
            f"<html><head><title>Country {n}</title></head><body><main><h1>Country {n}</h1>"
            f"<p>Population: {1000 + n * 7 + step * (n + 1)}</p><p>Area: {50 + n}</p>"
            "</main></body></html>\n"
        )
        for n in range(7)
    }


def test_a_figure_replaced_by_another_on_every_page_is_each_pages_content(tmp_path: Path) -> None:
    # One figure replaced by another is never named by its kind: a data site's update is content.
    found = dated(tmp_path, [figures(0), figures(1)])
    expect(found, {f"data/c{n}": 1 for n in range(7)})


def test_dates_are_their_values_and_numbers_put_in_are_named_by_their_kind() -> None:
    page = "Title\x01T\x01\x01D\x01 Words of the page."
    assert edit_of(page + " Mar 22, 2018", page) == edit_of(page + " 23/06/2020", page)
    assert exact_of(page + " Mar 22, 2018", page) == exact_of(page + " 2020年6月23日", page)
    assert edit_of(page + " 13 min read", page) == edit_of(page + " 4 min read", page)
    assert edit_of(page + " Score 13", page + " Score 4") != edit_of(
        page + " Score 12", page + " Score 4"
    )
    assert is_respelled(
        page + " Published: 2018年1月23日 22:14", page + " Published: Jan 23, 2018 10:14 PM"
    )
    assert edit_of(page + " 23.01.2018", page + " 2018-01-23") == RESPELLED
    assert not is_respelled(page + " Jan 24, 2018", page + " Jan 23, 2018")
    assert mark_date_values("at 12:05 AM, 2024-03-09T10:00:00Z") == mark_date_values(
        "at 0:05, 9 March 2024"
    )
    assert mark_date_values("25:70 and 2018-02-30") == "25:70 and 2018-02-30"


def test_the_expressions_of_any_date_are_compiled_when_a_text_first_holds_a_year() -> None:
    # Each takes tens of milliseconds to compile: a run whose edits print no date never pays
    # them (before, every import of the template-edit pass did, in the main process and in
    # the fork server). A fresh interpreter counts the compiles.
    script = (
        "from sitemill.lastmod.history import _dateforms as dateforms\n"
        "made = []\n"
        "for name in ('any_date', 'any_date_forms'):\n"
        "    call = getattr(dateforms, name)\n"
        "    setattr(dateforms, name, lambda _c=call, _n=name: made.append(_n) or _c())\n"
        "from sitemill.lastmod.history import datevalues, _templateedits as templateedits\n"
        "before = list(made)\n"
        "datevalues.mark_date_values('no date at all, 12:30')\n"
        "quiet = list(made)\n"
        "assert datevalues.mark_date_values('on 9 March 2024') == 'on  \\x002024-03-09 '\n"
        "datevalues.mark_date_values('and 2024-03-10')\n"
        "print(repr((before, quiet, made)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    compiled = ast.literal_eval(done.stdout)  # (on import; then no year; then two dates)
    assert compiled == ([], [], ["any_date", "any_date_forms"])


def test_a_stops_two_versions_value_their_shared_text_once(monkeypatch: MonkeyPatch) -> None:
    # Counting work: the older version of a stop shares most of its text parts with the newer;
    # each part is valued (its dates read) once, not once a version (datevalues._marked_parts).
    read: list[str] = []

    def counted(text: str) -> str:
        read.append(text)
        return mark_date_values(text)

    monkeypatch.setattr(datevalues, "mark_date_values", counted)
    datevalues.mark_reduction_dates.cache_clear()
    shared = [f"Post {n} of 3 March 2021, updated at 10:14 PM" for n in range(40)]
    mark = "\x01Hhttps://example.com/\x01"
    newer = mark.join([*shared, "Now on 4 March 2021"])
    older = mark.join([*shared, "Then on 2 March 2021"])
    names_of(newer, older, "/post/")
    assert len(read) == 2 + len(shared) + 2  # (each version's title, the shared parts once)
    parts = older.split("\x01")
    parts[::2] = [mark_date_values(part) for part in parts[::2]]
    assert datevalues.mark_reduction_dates(older) == "\x01".join(parts)
