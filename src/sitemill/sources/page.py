"""A page as a source finds it: its path, its date, its version, what is known of its bytes."""
# What is known of its bytes already: the facts of its head, or the verdict the state remembers.

from __future__ import annotations

from dataclasses import dataclass

from sitemill.entries import SkipReason
from sitemill.html.facts import PageFacts


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
    date_reason: str | None = (
        None  # why ``lastmod`` is what it is (sitemill.lastmod.decide), if known
    )
    verdict: SkipReason | None = None
