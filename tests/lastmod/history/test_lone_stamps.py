"""A stamp on however few pages (issue 79): a deploy that changed one, two or three pages' stamps
(the deploy's own day, in any form) and nothing else dates none of them (history.lonestamps).
Shaped like a Jekyll guidance site (an FAQ's "Published: <the deploy's day>") and an Astro blog
whose tag pages print a listed post's date as the deploy's day (2024年3月9日); text our own."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history import stamps
from sitemill.lastmod.history.stamps import stamp_pattern
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

# The site's deploys: its first build, a guide's own edit, then a deploy of the stamps alone
# (a late one, whose UTC day is the commit's).
FIRST, EDIT, STAMPED = "2024-03-01 14:15:46", "2024-03-05 10:00:00", "2024-03-09 15:21:03"
GUIDES = ("deposit", "citation", "licensing", "step-by-step", "next", "index")
TAGS = ("nordic", "planning", "travel")
FAQS = ("guidance/FAQ.html", "guidance/LICENSE-template.html")


def lastmod(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def guidance(when: str, faq: Callable[[str], str], own: str = "Cite the data you used.") -> dict:
    """The guidance section as the deploy at ``when`` built it: two FAQs print the deploy's
    day (``faq`` spells it), the other guides their own words."""
    day = when[:10]
    pages = {
        f"guidance/{name}.html": (
            f"<html><head><title>{name} | Guidance</title></head><body><main><h1>{name}</h1>"
            f"<p>{own if name == 'citation' else f'How to {name} a replication package.'}</p>"
            "</main></body></html>"
        )
        for name in GUIDES
    }
    for name in ("FAQ", "LICENSE-template"):
        pages[f"guidance/{name}.html"] = (
            f"<html><head><title>{name} | Guidance</title>"
            f'<meta property="article:published_time" content="{day}T10:15:41-04:00">'
            f"</head><body><main><article><h1>{name}</h1>"
            f'<p class="page__date"><strong>Published:</strong> <time datetime='
            f'"{day}T10:15:41-04:00">{faq(day)}</time></p>'
            f"<p>Questions on the {name}, answered.</p></article></main></body></html>"
        )
    return pages


def english(day: str) -> str:
    """A day spelt as the FAQ's theme spells it: March 9, 2024."""
    months = ("January", "February", "March")
    return f"{months[int(day[5:7]) - 1]} {int(day[8:])}, {day[:4]}"


def test_two_pages_whose_deploy_changed_only_their_published_stamp_keep_their_dates(
    tmp_path: Path,
) -> None:
    # The stamped deploy changed 2 of the 8 pages of the section, in their stamps alone. Before:
    # fewer than MIN_SECTION pages stopped there, so no stop was named and both FAQs took the
    # deploy's date (aea's FAQ.html, `Published: April 18, 2026` made `April 22, 2026`).
    repo = make_repo(tmp_path / "site")
    commit(repo, guidance(FIRST, english), FIRST)
    # A guide's own edit, deployed with the FAQs of that build left as they stood.
    edited = guidance(FIRST, english, "Cite the data and the code you used.")
    commit(repo, {"guidance/citation.html": edited["guidance/citation.html"]}, EDIT)
    later = guidance(STAMPED, english)
    commit(repo, {path: later[path] for path in FAQS}, STAMPED)
    found = built_lastmods(repo)
    assert found["guidance/FAQ.html"] == lastmod(FIRST), found
    assert found["guidance/LICENSE-template.html"] == lastmod(FIRST), found
    assert found["guidance/citation.html"] == lastmod(EDIT), found
    assert found["guidance/deposit.html"] == lastmod(FIRST), found


def tags(when: str, listed: str = "A five-day Nordic route") -> dict[str, str]:
    """Three tag pages as the deploy at ``when`` built them, each listing one post with the
    deploy's day as its date (a CJK date form), among other tag pages that list other posts."""
    year, month, day = (int(part) for part in when[:10].split("-"))
    pages = {
        f"tags/{name}/index.html": (
            f"<html><head><title>#{name}</title></head><body><main><h1>#{name}</h1><ul><li>"
            f'<a href="/essay/nordic/"><h2>{listed}</h2><p>Stockholm, Oslo and Bergen.</p>'
            f'<time datetime="{year}年{month}月{day}日">{year}年{month}月{day}日</time></a>'
            "</li></ul></main></body></html>"
        )
        for name in TAGS
    }
    for name in ("rust", "cooking", "music", "books", "hiking"):
        pages[f"tags/{name}/index.html"] = (
            f"<html><head><title>#{name}</title></head><body><main><h1>#{name}</h1><ul><li>"
            f'<a href="/essay/{name}/">On {name}</a></li></ul></main></body></html>'
        )
    return pages


def test_tag_pages_whose_only_change_is_a_cjk_date_of_the_deploys_day_keep_their_dates(
    tmp_path: Path,
) -> None:
    # 3 of the section's 8 tag pages changed, each only in 2024年3月1日 made 2024年3月9日. Before:
    # no stop of them was named (6chhenry's tags/Nordic/, 2026年7月7日 made 2026年7月8日).
    repo = make_repo(tmp_path / "site")
    commit(repo, tags(FIRST), FIRST)
    later = tags(STAMPED)
    commit(repo, {path: later[path] for path in later if any(n in path for n in TAGS)}, STAMPED)
    found = built_lastmods(repo)
    for name in TAGS:
        assert found[f"tags/{name}"] == lastmod(FIRST), found


def test_a_tag_page_whose_listed_title_changed_beside_the_stamp_takes_the_deploy(
    tmp_path: Path,
) -> None:
    # The same deploy, and one tag page's listed post renamed: that page's own edit dates it.
    repo = make_repo(tmp_path / "site")
    commit(repo, tags(FIRST), FIRST)
    renamed = tags(STAMPED, "A five-day Nordic route, from Stockholm")
    later = tags(STAMPED)
    later["tags/nordic/index.html"] = renamed["tags/nordic/index.html"]
    commit(repo, {path: later[path] for path in later if any(n in path for n in TAGS)}, STAMPED)
    found = built_lastmods(repo)
    assert found["tags/nordic"] == lastmod(STAMPED), found
    assert found["tags/travel"] == lastmod(FIRST), found


def test_a_date_in_a_pages_own_prose_edited_on_the_deploys_day_dates_the_page(
    tmp_path: Path,
) -> None:
    # A date in a sentence, edited by hand to the deploy's own day: the older one was no stamp
    # of its commit (the meetup was to be on March 3, written on March 1), so the edit is the
    # page's own and dates it, on one page as on many.
    repo = make_repo(tmp_path / "site")
    site = {
        f"events/{name}.html": f"<html><head><title>{name}</title></head><body><main>"
        f"<p>The {name} meetup is on March 3, 2024, at the library.</p></main></body></html>"
        for name in ("rust", "go", "zig")
    }
    commit(repo, site, FIRST)
    moved = site["events/rust.html"].replace("March 3, 2024", "March 9, 2024")
    commit(repo, {"events/rust.html": moved}, STAMPED)
    found = built_lastmods(repo)
    assert found["events/rust.html"] == lastmod(STAMPED), found
    assert found["events/go.html"] == lastmod(FIRST), found


def test_a_stamp_printed_in_the_sites_own_zone_of_a_commit_made_in_utc_is_a_stamp(
    tmp_path: Path,
) -> None:
    # A CI bot commits in UTC at 01:32 on the 28th; the generator prints the build's day in the
    # site's zone (New York: the 27th), which the commit does not name. Before: only the
    # commit's zone's day and UTC's were stamps, so "February 27, 2024" made "March 11, 2024"
    # dated the FAQs (aea's FAQ.html at c5bf2b60ca).
    first, later = "2024-02-28 01:32:20", "2024-03-11 14:33:12"

    def new_york(day: str) -> str:
        return "February 27, 2024" if day == first[:10] else english(day)

    repo = make_repo(tmp_path / "site")
    commit(repo, guidance(first, new_york), first)
    stamped = guidance(later, new_york)
    commit(repo, {path: stamped[path] for path in FAQS}, later)
    found = built_lastmods(repo)
    assert found["guidance/FAQ.html"] == lastmod(first), found
    assert found["guidance/deposit.html"] == lastmod(first), found


def test_a_date_two_days_from_its_commit_is_no_stamp(tmp_path: Path) -> None:
    # No zone's day of a commit at 01:32 UTC on the 28th is the 26th: "February 26, 2024" made
    # the next deploy's day is the page's own edit.
    first, later = "2024-02-28 01:32:20", "2024-03-11 14:33:12"

    def two_days_off(day: str) -> str:
        return "February 26, 2024" if day == first[:10] else english(day)

    repo = make_repo(tmp_path / "site")
    commit(repo, guidance(first, two_days_off), first)
    stamped = guidance(later, two_days_off)
    commit(repo, {path: stamped[path] for path in FAQS}, later)
    found = built_lastmods(repo)
    assert found["guidance/FAQ.html"] == lastmod(later), found


def test_pages_edited_each_in_its_own_words_compile_no_stamp_expression(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each guide edited alone by its own commit, its words and a date beside them: the lone
    # stops differ beside their dates, told so without a stamps' expression (each costs
    # milliseconds to compile and to run over a whole page; lonestamps._undated).
    compiled: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> re.Pattern[str] | None:
        compiled.append(1)
        return stamp_pattern(*args, **kwargs)

    monkeypatch.setattr(stamps, "stamp_pattern", counted)
    repo = make_repo(tmp_path / "site")
    commit(repo, guidance(FIRST, english), FIRST)
    for number, name in enumerate(GUIDES):
        when = f"2024-03-{10 + number:02} 09:00:00"
        page = guidance(FIRST, english)[f"guidance/{name}.html"]
        edited = page.replace("</h1><p>", f"</h1><p>Revised for {name} on {english(when[:10])}: ")
        commit(repo, {f"guidance/{name}.html": edited}, when)
    found = built_lastmods(repo)
    assert found["guidance/deposit.html"] == lastmod("2024-03-10 09:00:00"), found
    assert compiled == []
