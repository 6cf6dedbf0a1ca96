"""lastmod by content: a page keeps the date the last run gave it while its fingerprint holds.

design.md, "lastmod": a page whose content fingerprint equals the one remembered in the state
keeps the remembered date; a new page, or one whose content changed, gets its plain date (the
file's mtime, the object's LastModified). git history, where there is some, gives the date
directly (sitemill.sources.gitcontent). Each decision has a reason, counted in the report:
``kept`` (the same date as the last run gave), ``new page``, ``content changed``, and
``no history`` (no state to compare with: a first run).

Dates are remembered at full precision (``YYYY-MM-DDThh:mm:ss+00:00``) and written at the
configured one, so switching ``lastmod_precision`` moves no date.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sitemill.protocol import Precision
from sitemill.state.model import PageRecord


class DateReason(Enum):
    KEPT = "kept"
    NEW = "new page"
    CHANGED = "content changed"
    NO_HISTORY = "no history"
    # A first run in a git tree: the date comes from the history, by content. Older than the
    # file's last commit (invisible re-renders since), or that commit's.
    HISTORY_OLDER = "older than the last commit"
    HISTORY_LAST = "the last commit"


@dataclass(frozen=True, slots=True)
class Dated:
    """A page's lastmod (full precision), why it is that, and what to remember."""

    lastmod: str | None
    reason: DateReason
    fingerprint: str | None


def content_date(
    record: PageRecord | None,
    fingerprint: str,
    plain: str | None,
    *,
    first_run: bool,
    earlier: str | None = None,
) -> Dated:
    """The remembered date while the fingerprint holds, else ``plain``. ``earlier``: the
    page's fingerprint in the version the record was made with, when that is another one
    (a state of an earlier sitemill: an upgrade is no content change)."""
    remembered = None if record is None else record.fingerprint
    if (
        record is not None
        and record.lastmod is not None
        and remembered is not None
        and remembered in (fingerprint, earlier)
    ):
        return Dated(record.lastmod, DateReason.KEPT, fingerprint)
    return Dated(plain, moved(record, first_run=first_run), fingerprint)


def history_date(
    record: PageRecord | None,
    fingerprint: str | None,
    lastmod: str,
    *,
    first_run: bool,
    older: bool = False,
) -> Dated:
    """A date from git history: kept when the last run gave the same one. ``older``: the
    content date is older than the file's last commit (on a first run, said so)."""
    if record is not None and record.lastmod == lastmod:
        return Dated(lastmod, DateReason.KEPT, fingerprint)
    if first_run:
        reason = DateReason.HISTORY_OLDER if older else DateReason.HISTORY_LAST
        return Dated(lastmod, reason, fingerprint)
    return Dated(lastmod, moved(record, first_run=first_run), fingerprint)


def moved(record: PageRecord | None, *, first_run: bool) -> DateReason:
    if first_run:
        return DateReason.NO_HISTORY
    return DateReason.NEW if record is None else DateReason.CHANGED


def at_precision(lastmod: str | None, precision: Precision) -> str | None:
    """A remembered full-precision lastmod as written (a date keeps its first 10 characters)."""
    if lastmod is None or precision is Precision.DATETIME:
        return lastmod
    return lastmod[:10]
