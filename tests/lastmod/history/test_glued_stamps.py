"""A stamp printed right after a word (issue 79): inline markup is no word boundary, so a
render time in its own `<span>` after "< 1 s" reads "s2026-06-12 01:16:15"; it is still the
commit's day. Shaped like a Quarto blog post whose table's footer prints the render's time;
text our own."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history._dateforms import date_expressions, read_days
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

FIRST, SECOND, THIRD = "2026-06-10 01:59:06", "2026-06-11 23:33:38", "2026-06-12 01:28:37"


def lastmod(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def post(rendered: str, words: str = "Each row is one validation step.") -> str:
    """A post whose report table's footer prints the render's time twice, a duration between;
    its cell's id is new at each render (no reader sees it, but the bytes differ beyond the
    stamps, so the page's reductions are compared)."""
    cell = sum(map(ord, rendered)) % 65536
    span = '<span style="padding: 2px 10px">'
    footer = f"{span}{rendered} UTC</span>{span}&lt; 1 s</span>{span}{rendered} UTC</span>"
    return (
        "<html><head><title>Validating tables</title></head><body><main>"
        f'<h1>Validating tables</h1><p>{words}</p><div id="cell-{cell:04x}" class="cell">'
        "<table><tbody><tr><td>step</td></tr></tbody>"
        f'<tfoot><tr><td class="sourcenote">{footer}</td></tr></tfoot></table>'
        "</div></main></body></html>"
    )


def test_a_render_time_right_after_a_word_is_the_commits_stamp(tmp_path: Path) -> None:
    # Each deploy re-rendered the post: only the render times changed, each on its deploy's
    # day (the commit's own time: a stamp). Before: the second time, glued to the "s" of "< 1 s",
    # was no date (a date after a letter was none), so the post took the last deploy's date
    # (great-tables `blog/pointblank-intro/` at 3832b91b63: 's2026-06-11 23:21:11' ->
    # 's2026-06-12 01:16:15').
    repo = make_repo(tmp_path / "site")
    commit(repo, {"blog/post/index.html": post("2026-06-10 01:40:12")}, FIRST)
    commit(repo, {"blog/post/index.html": post("2026-06-11 23:21:11")}, SECOND)
    commit(repo, {"blog/post/index.html": post("2026-06-12 01:16:15")}, THIRD)
    found = built_lastmods(repo)
    assert found["blog/post"] == lastmod(FIRST), found


def test_a_render_time_beside_an_own_edit_still_dates_the_post(tmp_path: Path) -> None:
    # The same deploys, the second with an edit of the post's own words: it dates the post.
    repo = make_repo(tmp_path / "site")
    commit(repo, {"blog/post/index.html": post("2026-06-10 01:40:12")}, FIRST)
    reworded = post("2026-06-11 23:21:11", "Each row is one step of the validation.")
    commit(repo, {"blog/post/index.html": reworded}, SECOND)
    third = post("2026-06-12 01:16:15", "Each row is one step of the validation.")
    commit(repo, {"blog/post/index.html": third}, THIRD)
    found = built_lastmods(repo)
    assert found["blog/post"] == lastmod(SECOND), found


def test_a_date_glued_to_a_word_on_another_day_dates_the_post(tmp_path: Path) -> None:
    # A time glued to a word that is not the deploy's day (a result the post reports): content.
    repo = make_repo(tmp_path / "site")
    commit(repo, {"blog/post/index.html": post("2026-06-10 01:40:12")}, FIRST)
    commit(repo, {"blog/post/index.html": post("2026-05-02 10:00:00")}, SECOND)
    found = built_lastmods(repo)
    assert found["blog/post"] == lastmod(SECOND), found


def test_a_number_led_date_is_found_after_a_letter_a_month_name_is_not() -> None:
    # The grammar itself (history.dateforms): "s2026-06-12 01:16:15" holds a date with its time;
    # "Mar 9, 2024" at the end of a word ("SumMar 9, 2024") is none, as before.
    dates = date_expressions()[0]
    found = dates.search("< 1 s2026-06-12 01:16:15 UTC")
    assert found is not None and found[0] == "2026-06-12 01:16:15 UTC"
    assert list(read_days(found[0])) == [date(2026, 6, 12)]
    assert dates.search("SumMar 9, 2024") is None
    assert dates.search("v12026-06-12") is None  # (a digit before it: part of a longer number)
