"""Named constants and value types of the sitemaps.org 0.9 protocol."""
# See https://www.sitemaps.org/protocol.html for every limit cited here.

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from typing import Final

# "Each Sitemap file ... must have no more than 50,000 URLs" (sitemaps.org protocol).
MAX_URLS_PER_SITEMAP: Final = 50_000
# A shard is cut after this many URLs (80 % of the above: room to grow before it must split;
# sitemill.shards, docs/output.md), unless the configuration's shard_fill says otherwise.
DEFAULT_SHARD_FILL: Final = 40_000
# S3's longest object key in UTF-8 bytes, and so the longest shard boundary, state key or
# inventory report key (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html).
MAX_KEY_BYTES: Final = 1024
# "... and must be no larger than 50MB (52,428,800 bytes)" uncompressed (sitemaps.org protocol).
MAX_BYTES_LIMIT: Final = 52_428_800
# Our default size (docs/configuration.md, max_bytes): the older 10 MB figure of the protocol text.
DEFAULT_MAX_BYTES: Final = 10_485_760
# "A Sitemap index file can include up to 50,000 Sitemaps" (sitemaps.org protocol).
MAX_SITEMAPS_PER_INDEX_LIMIT: Final = 50_000
# Our default (docs/configuration.md, max_sitemaps_per_index): index files small, quick to fetch.
DEFAULT_MAX_SITEMAPS_PER_INDEX: Final = 1_000
# "<loc> ... must be less than 2,048 characters" (sitemaps.org protocol).
MAX_URL_LENGTH: Final = 2_048

SITEMAP_NS: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
# The first web page went up on 6 August 1991: no page's content changed before that.
OLDEST_LASTMOD: Final = datetime(1991, 8, 6, tzinfo=UTC)
# Clocks differ a little between the machines that wrote and read a remembered date (an S3
# LastModified is the service's time): a date this far ahead of the run is still taken.
CLOCK_SKEW: Final = timedelta(minutes=5)
# A run's base URL as a state or manifest keeps it: absolute http(s), ending in "/".
_BASE_URL: Final = re.compile(r"https?://[\x21-\x7e]{1,2040}/")
_WRITTEN_LASTMOD: Final = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}\+00:00)?")


class ChangeFreq(Enum):
    """The seven values <changefreq> may take."""

    ALWAYS = "always"
    HOURLY = "hourly"
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"
    YEARLY = "yearly"
    NEVER = "never"


class Precision(Enum):
    """How <lastmod> is written: a W3C date, or a date-time with seconds and a zone."""

    DATETIME = "datetime"
    DATE = "date"


def format_lastmod(moment: datetime | date, precision: Precision) -> str:
    """W3C Datetime as the official XSD accepts it: YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+00:00.

    Datetimes are converted to UTC (naive ones are taken as UTC). A bare date stays a date:
    inventing a time of day would claim a precision the source never had.
    """
    if not isinstance(moment, datetime):
        return moment.isoformat()
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    if precision is Precision.DATE:
        return utc.date().isoformat()
    return utc.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def lastmod_from_timestamp(seconds: float, precision: Precision) -> str:
    """Format a POSIX timestamp (git commit time, file mtime) as a <lastmod> value."""
    return format_lastmod(datetime.fromtimestamp(int(seconds), UTC), precision)


_W3C_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CANONICAL_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00")


def is_canonical_datetime(text: str) -> bool:
    """Whether ``text`` is already a valid YYYY-MM-DDThh:mm:ss+00:00 (ValueError if not real)."""
    if _CANONICAL_DATETIME.fullmatch(text) is None:
        return False
    datetime.fromisoformat(text)  # the shape is right: check that the date and time exist
    return True


def parse_lastmod(text: str, precision: Precision) -> str:
    """Parse a W3C Datetime / ISO 8601 value given by a user and return its canonical form.

    Accepts YYYY-MM-DD, and date-times with or without seconds, fractions and a zone
    (``Z`` or ``±hh:mm``). Raises ValueError for anything else.
    """
    value = text.strip()
    if precision is Precision.DATETIME and is_canonical_datetime(value):
        return value
    if _W3C_DATE.fullmatch(value):
        return format_lastmod(date.fromisoformat(value), precision)
    if "T" not in value:
        raise ValueError(f"not a W3C datetime: {text!r}")
    return format_lastmod(datetime.fromisoformat(value), precision)


def format_priority(priority: float) -> str:
    """A <priority> value as a short decimal: 0.5, 0.85, 1.0."""
    text = f"{priority:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def trusted_lastmod(value: object, latest: datetime) -> bool:
    """Whether a remembered lastmod (a state's, a manifest's) may be published: ``YYYY-MM-DD``
    or ``YYYY-MM-DDThh:mm:ss+00:00``, a real date, from OLDEST_LASTMOD to ``latest``."""
    if not isinstance(value, str) or _WRITTEN_LASTMOD.fullmatch(value) is None:
        return False
    try:
        moment = datetime.fromisoformat(value if "T" in value else value + "T00:00:00+00:00")
    except ValueError:
        return False
    return OLDEST_LASTMOD <= moment <= latest


def kept_base_url(value: object) -> str | None:
    """The base URL a state or a manifest recorded (its run's: an absolute http(s) URL ending
    in "/", the form sitemill keeps), else None: a run then says nothing of a move."""
    if isinstance(value, str) and _BASE_URL.fullmatch(value):
        return value
    return None
