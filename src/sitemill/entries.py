"""The data that flows through the pipeline: pages found by a source, entries rendered."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from sitemill.pages import PageFacts


@dataclass(frozen=True, slots=True)
class Page:
    """A file found by a source: its site-relative POSIX path and when it last changed.

    ``path`` has no leading slash; names that are not valid UTF-8 keep their raw bytes as
    surrogate escapes (``os.fsdecode``), so that they can be percent-encoded exactly.
    ``lastmod`` is already a formatted W3C value, or None. ``version`` identifies the
    file's bytes where the source can tell without reading them (an S3 ETag); ``facts`` are
    what its head says, when the source has read them already (else the pipeline reads).
    ``verdict`` says the page is left out, and why, as the last run found from these same
    bytes (the state remembers only that of an unlisted page, never its facts' URLs).
    """

    path: str
    lastmod: str | None = None
    version: str | None = None
    facts: PageFacts | None = None
    date_reason: str | None = None  # why ``lastmod`` is what it is (sitemill.dating), if known
    verdict: SkipReason | None = None


class Alternate(NamedTuple):
    """One ``<xhtml:link rel="alternate" hreflang href>`` of an entry: a version of the page
    in another language (or ``x-default``). ``href`` is a URL the same sitemap lists."""

    hreflang: str
    href: str


class Image(NamedTuple):
    """One ``<image:image>`` of an entry: an absolute, percent-encoded image URL."""

    loc: str


class Entry(NamedTuple):
    """One <url> of a sitemap. Every field is already formatted for output.

    ``loc`` is absolute and percent-encoded (XML escaping is the template's job);
    ``lastmod`` is a W3C datetime in UTC, so plain string comparison orders it.
    ``alternates`` (hreflang) and ``images`` are the sitemap extensions, empty for most runs.
    A NamedTuple rather than a frozen dataclass: a run can make millions of them, and a
    tuple is immutable data too, built at a third of the cost.
    """

    loc: str
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: tuple[Alternate, ...] = ()
    images: tuple[Image, ...] = ()


class SkipReason(Enum):
    """Why a page found by a source is not in the sitemap."""

    EXCLUDED = "excluded"
    NOT_A_PAGE = "not a page"
    ROBOTS_TXT = "robots.txt"
    NOINDEX = "noindex"
    REDIRECT = "redirect"
    CANONICAL = "canonical"
    DUPLICATE = "duplicate"
    TOO_LONG = "too long"
    OFF_SITE = "off site"


@dataclass(frozen=True, slots=True)
class Skip:
    """A page left out, with the reason, for reports (summaries, annotations, warnings)."""

    path: str
    reason: SkipReason
    detail: str = ""
