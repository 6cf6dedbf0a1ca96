"""A date is its value, not its spelling, as a CJK locale spells it too (issue 79): a month
in Han numerals (十月) and a weekday beside a date (六, 周六, 星期六, 土曜日, 토요일, Sat) are
the date's spelling; and a commit's edit is counted against the pages whose change may be an
edit, not those whose change reduces to nothing (history.sectioncensus.census_of). Shaped like
a real site where the walk re-dated pages (heldout97's Pelican bootstrap3 blog, zh; structure
copied, text our own)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from sitemill.lastmod.history._dateforms import MONTHS as MONTHS_EN
from sitemill.lastmod.history.datevalues import RESPELLED, is_respelled, mark_date_values
from sitemill.lastmod.history.edits import edit_of
from treedates import at, dated

Build = dict[str, str]
PAGE = "Title\x01T\x01\x01D\x01 Words of the page, posted "


def test_a_date_as_zh_ja_and_ko_locales_spell_it_is_its_value() -> None:
    # glibc's zh_CN %a %d %B %Y against the C locale's; CLDR's long forms with a weekday.
    saturday = date(2013, 10, 19).isoformat()
    for spelled in (
        "六 19 十月 2013",
        "Sat 19 October 2013",
        "Saturday, October 19, 2013",
        "2013年10月19日 星期六",
        "2013年10月19日 周六",
        "2013年10月19日(土)",
        "2013年10月19日 土曜日",
        "2013년 10월 19일 토요일",
        "2013년 10월 19일 (토)",
        "19 十月 2013",
        "土 19 10月 2013",
        "토 19 10월 2013",
        "2013年10月19日 (週六)",
        "2013年10月19日星期六",
        "2013年10月19日土曜日",
    ):
        assert mark_date_values(f"posted {spelled} here") == f"posted  \x00{saturday}  here"
    assert edit_of(PAGE + "六 19 十月 2013", PAGE + "Sat 19 October 2013") == RESPELLED
    assert is_respelled(PAGE + "2013년 10월 19일 (토)", PAGE + "六 19 十月 2013")
    # 十一月 is November, not a numeral before 一月; 十二月 December.
    assert "2013-11-19" in mark_date_values("二 19 十一月 2013")
    assert "2013-12-03" in mark_date_values("二 03 十二月 2013")


def test_a_weekday_that_is_not_the_dates_own_is_no_part_of_its_spelling() -> None:
    # A weekday corrected beside the same date is an edit of the page's words.
    assert not is_respelled(PAGE + "Sat 19 October 2013", PAGE + "Fri 19 October 2013")
    assert not is_respelled(PAGE + "六 19 十月 2013", PAGE + "五 19 十月 2013")
    # A word that is no weekday stays a word; a weekday tells an ambiguous date's order.
    assert "Posted" in mark_date_values("Posted 19 October 2013")
    assert "2024-03-09" in mark_date_values("03/09/2024 (Sat)")
    assert "2024-09-03" in mark_date_values("Tue 03/09/2024")


WEEKDAYS_ZH = "一二三四五六日"
WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS_ZH: list[str] = ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月"]
MONTHS_ZH += ["九月", "十月", "十一月", "十二月"]


def pelican(english: bool, step: int) -> Build:
    """A Pelican bootstrap3 blog's posts, each printing its own date as the site's locale
    spells it (zh, then the C locale's English), and pages whose regenerate changed only what
    no reader sees (a heading's id); one post's own words changed in the second commit."""
    pages: Build = {}
    for n in range(9):
        day = date(2013, 1 + n, 4 + 3 * n)
        weekday, month = day.weekday(), day.month - 1
        spelled = (
            f"{WEEKDAYS_EN[weekday]} {day.day:02} {MONTHS_EN[month]} {day.year}"
            if english
            else f"{WEEKDAYS_ZH[weekday]} {day.day:02} {MONTHS_ZH[month]} {day.year}"
        )
        pages[f"blog/post-{n}/index.html"] = _page(f"Post {n}", f"<time>{spelled}</time>", n)
    for n in range(9, 17):  # (pages without a date, re-rendered: a heading's id alone)
        anchor = f' id="part-{n}"' if step else ""
        pages[f"blog/page-{n}/index.html"] = _page(f"Page {n}", "", n, anchor)
    for n in range(17, 19):  # (two pages each edited its own way)
        pages[f"blog/note-{n}/index.html"] = _page(f"Note {n}", "", n, own=("", " more")[step])
    return pages


def _page(title: str, when: str, n: int, anchor: str = "", own: str = "") -> str:
    return (
        f"<html><head><title>{title} | 胡桃</title></head><body><nav><a href='/'>胡桃</a></nav>"
        f"<article><h1>{title}</h1><p>{when}</p><h2{anchor}>Part</h2>"
        f"<p>Words {n} of the post{own}.</p></article><footer>Powered by Pelican</footer>"
        "</body></html>\n"
    )


def test_a_zh_date_re_spelled_in_english_on_most_pages_edited_moves_none(tmp_path: Path) -> None:
    # heldout97's hutaow: a regenerate re-spelled the date on most of the pages whose reading it
    # changed (六 19 十月 2013 -> Sat 19 October 2013) and re-rendered more in what no reader
    # sees: the re-spelling is the template's; the two pages edited their own way take its date.
    # (9 of the 19 pages the commit changed, of the 11 whose reading it changed: WORDED_LEAST.)
    found = dated(tmp_path, [pelican(False, 0), pelican(True, 1)])
    late = {f"blog/note-{n}": 1 for n in (17, 18)}
    assert found == {path: at(late.get(path, 0)) for path in found}, found
    assert len(found) == 19
