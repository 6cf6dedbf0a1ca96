"""A stamp put in where none stood (issue 79): a deploy that added its own day to a page, and
nothing else, moves no date; a date the page's own words give, added by hand, dates it. Shaped
like a Hugo Relearn docs page whose theme's new footer prints the deploy's day; text our own."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

FIRST, FOOTER = "2024-03-01 14:15:46", "2024-03-09 15:21:03"
PAGES = ("groups", "profiles", "schedules", "retention", "hooks", "variables")


def lastmod(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def reference(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The reference section, ``extra`` put at the end of a page's article (by its name)."""
    return {
        f"reference/{name}/index.html": (
            f"<html><head><title>{name} | Reference</title></head><body><main><article>"
            f"<h1>{name}</h1><p>The {name} section of the configuration file.</p>"
            f"{(extra or {}).get(name, '')}</article></main></body></html>"
        )
        for name in PAGES
    }


def test_a_footer_with_the_deploys_day_put_on_one_page_keeps_its_date(tmp_path: Path) -> None:
    # The deploy of March 9 put "Mar 9, 2024" (its own day, under a calendar icon) at the
    # article's foot of one page, and nothing else. Before: a date put in where none stood was
    # no stamp, so the page took the deploy's date (relearn `reference/groups/` at a2d3f2e609,
    # '' -> 'Apr 4, 2025').
    repo = make_repo(tmp_path / "site")
    commit(repo, reference(), FIRST)
    footer = '<footer class="footline"><i class="fa-calendar"></i> Mar 9, 2024</footer>'
    changed = reference({"groups": footer})
    commit(repo, {"reference/groups/index.html": changed["reference/groups/index.html"]}, FOOTER)
    found = built_lastmods(repo)
    assert found["reference/groups"] == lastmod(FIRST), found
    assert found["reference/hooks"] == lastmod(FIRST), found


def test_a_sentence_with_a_date_written_on_the_deploys_day_dates_the_page(tmp_path: Path) -> None:
    # The same day put in by hand, in a sentence of the page's own: its words are new, so the
    # edit is the page's and dates it.
    repo = make_repo(tmp_path / "site")
    commit(repo, reference(), FIRST)
    said = "<p>Groups run in order since Mar 9, 2024.</p>"
    changed = reference({"groups": said})
    commit(repo, {"reference/groups/index.html": changed["reference/groups/index.html"]}, FOOTER)
    found = built_lastmods(repo)
    assert found["reference/groups"] == lastmod(FOOTER), found
    assert found["reference/hooks"] == lastmod(FIRST), found


def test_a_date_alone_put_in_on_another_day_than_the_deploys_dates_the_page(
    tmp_path: Path,
) -> None:
    # A date alone put in, but not the deploy's day (a release date the author added): content.
    repo = make_repo(tmp_path / "site")
    commit(repo, reference(), FIRST)
    changed = reference({"groups": "<footer>Mar 20, 2024</footer>"})
    commit(repo, {"reference/groups/index.html": changed["reference/groups/index.html"]}, FOOTER)
    found = built_lastmods(repo)
    assert found["reference/groups"] == lastmod(FOOTER), found
