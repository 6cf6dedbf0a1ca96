"""The job summary's charts (issue 82: a site stamped on one day stands out at a glance)."""

from __future__ import annotations

from collections import Counter

from sitemill.entries import SkipReason
from sitemill.github.summary import dates_chart, skips_chart


def bars(months: dict[str, int]) -> tuple[str, str, str]:
    """The chart's title, x axis and bars lines."""
    lines = dates_chart(Counter(months))
    assert lines[:3] == ["", "```mermaid", "xychart-beta"] and lines[-1] == "```"
    return lines[3].strip(), lines[4].strip(), lines[6].strip()


def test_each_month_has_a_bar_empty_months_included() -> None:
    title, axis, counts = bars({"2025-11": 3, "2026-02": 40, "": 2})
    assert title == 'title "Listed pages by the month of their lastmod (2 without one)"'
    assert axis == 'x-axis ["2025-11", "2025-12", "2026-01", "2026-02"]'
    assert counts == "bar [3, 0, 0, 40]"


def test_years_before_last_year_are_a_bar_each() -> None:
    # The newest date in 2026: months from January 2025; 2021 to 2024 a bar a year, 2022 empty.
    months = {"2021-03": 5, "2021-09": 1, "2023-06": 7, "2024-12": 2, "2025-01": 4, "2026-03": 9}
    title, axis, counts = bars(months)
    assert title == 'title "Listed pages by the month of their lastmod"'
    labels = [f'"{year}"' for year in range(2021, 2025)]
    labels += [f'"2025-{month:02d}"' for month in range(1, 13)] + ['"2026-01"', '"2026-02"']
    assert axis == f"x-axis [{', '.join([*labels, chr(34) + '2026-03' + chr(34)])}]"
    assert counts == "bar [6, 0, 7, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9]"


def test_a_stamped_site_is_one_bar() -> None:
    assert bars({"2026-11": 388}) == (
        'title "Listed pages by the month of their lastmod"',
        'x-axis ["2026-11"]',
        "bar [388]",
    )


def test_no_chart_without_a_date_and_none_of_a_date_it_cannot_place() -> None:
    assert dates_chart(Counter({"": 12})) == []
    assert dates_chart(Counter()) == []
    # A URL list's year-only lastmod ("2024"): counted apart in the title, never a bar.
    title = bars({"2024": 2, "2024-05": 1, "": 1})[0]
    assert title.endswith('(1 without one, 2 with a year only)"')


def test_the_skips_pie_follows_the_readmes_order() -> None:
    skipped = Counter({SkipReason.NOINDEX: 2, SkipReason.EXCLUDED: 1, SkipReason.REDIRECT: 45})
    assert skips_chart(skipped) == [
        "",
        "```mermaid",
        "pie title Pages left out, by reason",
        '    "excluded" : 1',
        '    "noindex" : 2',
        '    "redirect" : 45',
        "```",
    ]
    assert skips_chart(Counter()) == []
