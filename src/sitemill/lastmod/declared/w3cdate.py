"""A declared modification date: a W3C datetime (ISO 8601) read into an aware UTC instant."""
# https://www.w3.org/TR/NOTE-datetime (the forms a sitemap's <lastmod> takes); also the space that
# some generators write for the "T" and an offset without its colon. A time without an offset is no
# instant (it may be any of 26 hours): it keeps its date only. A year or a month alone says too
# little to date a page; anything else is refused, never guessed.

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Final

# Where a declared date was read (DeclaredDate.source).
JSON_LD: Final = "JSON-LD dateModified"
ARTICLE_MODIFIED: Final = "meta article:modified_time"
OG_UPDATED: Final = "meta og:updated_time"
ITEMPROP_MODIFIED: Final = "itemprop dateModified"
LAST_UPDATED_LINE: Final = "<time> of a 'last updated' line"
REPLACED_SITEMAP: Final = "the replaced sitemap's <lastmod>"
# Publication dates, read only to hold the modification dates against (never a lastmod):
# a template that fills its modification date with the publication date says nothing.
JSON_LD_PUBLISHED: Final = "JSON-LD datePublished"
ARTICLE_PUBLISHED: Final = "meta article:published_time"
ITEMPROP_PUBLISHED: Final = "itemprop datePublished"
PUBLICATIONS: Final = frozenset({JSON_LD_PUBLISHED, ARTICLE_PUBLISHED, ITEMPROP_PUBLISHED})

_LONGEST: Final = 64  # characters: a longer value is no date
# The first web page went up in 1991: a page modified before that is a typo or a default.
EARLIEST: Final = datetime(1991, 1, 1, tzinfo=UTC)
_W3C: Final = re.compile(
    r"""(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})
    (?: [T\ ] (?P<hour>\d{2}):(?P<minute>\d{2})
        (?: :(?P<second>\d{2}) (?: [.,](?P<fraction>\d{1,9}) )? )?
        \ ?(?: (?P<utc>Z) | (?P<sign>[+-])(?P<oh>\d{2})(?: :?(?P<om>\d{2}) )? )? )?""",
    re.VERBOSE | re.ASCII,
)


class DeclaredPrecision(Enum):
    """How much of an instant a declared date says."""

    DAY = "day"  # a date (or a time without an offset): ``when`` is its midnight UTC
    TIME = "time"  # an instant


@dataclass(frozen=True, slots=True)
class DeclaredDate:
    """A modification date a page (or the sitemap sitemill replaces) declares, or the page's
    publication date (``published``: its source is one of PUBLICATIONS)."""

    when: datetime  # aware, UTC
    precision: DeclaredPrecision
    source: str  # where it was read: one of the names above

    @property
    def published(self) -> bool:
        """Whether it is a publication date (no modification date)."""
        return self.source in PUBLICATIONS

    def earliest(self) -> datetime:
        """The earliest instant it may mean: a date begins first at UTC+14."""
        return (
            self.when - timedelta(hours=14)
            if self.precision is DeclaredPrecision.DAY
            else self.when
        )

    def latest(self) -> datetime:
        """The latest instant it may mean: a date ends last at UTC-12."""
        if self.precision is DeclaredPrecision.DAY:
            return self.when + timedelta(hours=36)
        return self.when

    def w3c(self) -> str:
        """As a sitemap's <lastmod> writes it."""
        if self.precision is DeclaredPrecision.DAY:
            return self.when.strftime("%Y-%m-%d")
        return self.when.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_declared(text: str, source: str) -> DeclaredDate | None:
    """The date ``text`` declares, or None when it is no W3C datetime, no real date (a 31st
    of February, an hour 25), before 1991 or less than a day."""
    text = text.strip()
    found = _W3C.fullmatch(text) if len(text) <= _LONGEST else None
    if found is None:
        return None
    part = found.groupdict()
    try:
        day = datetime(int(part["year"]), int(part["month"]), int(part["day"]), tzinfo=UTC)
        if part["hour"] is None or (part["utc"] is None and part["sign"] is None):
            when, precision = day, DeclaredPrecision.DAY
        else:
            fraction = (part["fraction"] or "0")[:6].ljust(6, "0")
            offset = timedelta(hours=int(part["oh"] or 0), minutes=int(part["om"] or 0))
            if offset > timedelta(hours=14) or int(part["om"] or 0) >= 60:
                return None
            local = day.replace(
                hour=int(part["hour"]),
                minute=int(part["minute"]),
                second=int(part["second"] or 0),
                microsecond=int(fraction),
            )
            when = local - offset if part["sign"] == "+" else local + offset
            precision = DeclaredPrecision.TIME
    except (ValueError, OverflowError):
        return None
    if when < EARLIEST:
        return None
    return DeclaredDate(when, precision, source)
