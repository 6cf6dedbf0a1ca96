"""Hugo's ``[permalinks]`` setting: where a section's pages are built."""
# A section's pages at ``/:year/:month/:title/`` and the like, filled from a page's front matter
# (``date``, ``title``, ``slug``) and its place.

from __future__ import annotations

import datetime
import re
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import text_value

_TOKEN: Final = re.compile(r":([a-z]+)")
_DATE: Final = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
_NOT_IN_URL: Final = re.compile(r"[^\w\-./~]+")


def permalink_patterns(settings: dict[str, object]) -> dict[str, str]:
    """Section -> its pages' permalink pattern, from ``[permalinks]`` (or its ``page`` table)."""
    table = settings.get("permalinks")
    if not isinstance(table, dict):
        return {}
    pages = table.get("page")
    chosen = pages if isinstance(pages, dict) else table
    return {str(key): value for key, value in chosen.items() if isinstance(value, str)}


def permalink_url(pattern: str, meta: dict[str, object], folder: str, name: str) -> str | None:
    """The URL ``pattern`` gives a page (content folder ``folder``, file name ``name``
    without its extension; a bundle's own folder name); None when it names a token this
    reader does not know or the page lacks (a date, a title)."""
    values = _values(meta, folder, name)
    tokens = _TOKEN.findall(pattern)
    if any(values.get(token) is None for token in tokens):
        return None
    return _TOKEN.sub(lambda found: values[found[1]] or "", pattern)


def urlize(text: str) -> str:
    """A title as Hugo puts it in a URL: white space to hyphens, punctuation left out."""
    return _NOT_IN_URL.sub("", "-".join(text.split()))


def _values(meta: dict[str, object], folder: str, name: str) -> dict[str, str | None]:
    title = text_value(meta, "title")
    slug = text_value(meta, "slug")
    day = _date(meta.get("date"))
    values: dict[str, str | None] = {
        "section": folder.split("/", 1)[0] if folder else None,
        "sections": folder or None,
        "title": urlize(title) if title else None,
        "slug": urlize(slug) if slug else (urlize(title) if title else None),
        "filename": name,
        "contentbasename": name,
        "slugorfilename": urlize(slug) if slug else name,
        "slugorcontentbasename": urlize(slug) if slug else name,
    }
    if day is not None:
        values |= {
            "year": f"{day.year:04d}",
            "month": f"{day.month:02d}",
            "monthname": day.strftime("%B"),
            "day": f"{day.day:02d}",
            "weekday": str(day.isoweekday() % 7),
            "weekdayname": day.strftime("%A"),
            "yearday": str(day.timetuple().tm_yday),
        }
    return values


def _date(value: object) -> datetime.date | None:
    found = _DATE.match(str(value)) if value is not None else None
    if found is None:
        return None
    try:
        return datetime.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None
