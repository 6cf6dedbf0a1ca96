"""The job summary's charts, in Mermaid (GitHub renders it in a summary): the listed pages by
the month of their lastmod, so that a site stamped on one day stands out, and the pages left
out by reason."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Final

from sitemill.entries import SkipReason

_MONTH: Final = re.compile(r"\d{4}-\d{2}")


def dates_chart(months: Mapping[str, int]) -> list[str]:
    """A bar a month for this year and the last, a bar a year before them; none when no
    listed page has a date. ``months``: listed URLs by their lastmod's month ("" none)."""
    dated = {month: count for month, count in months.items() if _MONTH.fullmatch(month)}
    if not dated:
        return []
    bars = _bars(dated)
    title = "Listed pages by the month of their lastmod"
    undated = months.get("", 0)
    apart = [f"{undated:,} without one"] if undated else []
    if year_only := sum(months.values()) - sum(dated.values()) - undated:  # (a URL list's)
        apart.append(f"{year_only:,} with a year only")
    if apart:
        title += f" ({', '.join(apart)})"
    labels = [f'"{label}"' for label, _ in bars]  # (digits and a dash: nothing to escape)
    return [
        "",
        "```mermaid",
        "xychart-beta",
        f'    title "{title}"',
        f"    x-axis [{', '.join(labels)}]",
        '    y-axis "pages"',
        f"    bar [{', '.join(str(count) for _, count in bars)}]",
        "```",
    ]


def skips_chart(skipped: Counter[SkipReason]) -> list[str]:
    """A pie of the pages left out by reason (in the README's order); none when none was."""
    slices = [(reason.value, skipped[reason]) for reason in SkipReason if skipped[reason]]
    if not slices:
        return []
    lines = ["", "```mermaid", "pie title Pages left out, by reason"]
    return [*lines, *(f'    "{reason}" : {count}' for reason, count in slices), "```"]


def _bars(dated: dict[str, int]) -> list[tuple[str, int]]:
    """(label, pages) from the oldest dated month to the newest: months from January of the
    year before the newest date's, years before that (every one between, empty or not)."""
    first, last = min(dated), max(dated)
    since = f"{int(last[:4]) - 1:04d}-01"
    years: Counter[str] = Counter()
    for month, count in dated.items():
        if month < since:
            years[month[:4]] += count
    bars = [(str(year), years[str(year)]) for year in range(int(first[:4]), int(since[:4]))]
    start = max(first, since)
    return bars + [(month, dated.get(month, 0)) for month in _months(start, last)]


def _months(first: str, last: str) -> Iterator[str]:
    """Every month from ``first`` to ``last`` (``YYYY-MM``), both included."""
    year, month = int(first[:4]), int(first[5:])
    while (label := f"{year:04d}-{month:02d}") <= last:
        yield label
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
