"""lastmod by content: a page keeps the date the last run gave it while its fingerprint holds.

docs/lastmod.md: a page whose content fingerprint equals the one remembered in the state
keeps the remembered date (or stays without one); one whose content changed, or that is new
since a run that saw the site, gets its plain date (the file's mtime, the object's
LastModified: the deploy that brought it). git history, where there is some, gives the date
directly (sitemill.sources.gitcontent). A page no run has seen takes the evidence ladder
(sitemill.lastmod.ladder): no evidence, no date. Each decision has a reason
(sitemill.lastmod.ladder.DateReason), counted in the report.

Dates are remembered at full precision (``YYYY-MM-DDThh:mm:ss+00:00``) and written at the
configured one, so switching ``lastmod_precision`` moves no date.
"""

from __future__ import annotations

from dataclasses import dataclass

from sitemill.lastmod.ladder import DateReason as DateReason
from sitemill.lastmod.ladder import Ladder
from sitemill.protocol import Precision
from sitemill.state.model import PageRecord


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
    unchanged: bool = False,
    ladder: Ladder | None = None,
    path: str = "",
) -> Dated:
    """The remembered date while the fingerprint holds, else ``plain``. ``earlier``: the
    page's fingerprint in the version the record was made with, when that is another one (a
    state of an earlier sitemill: an upgrade is no content change). ``unchanged``: the
    page's bytes are those the record was made of (its ETag): the same content, whatever
    the fingerprints. On a first run, and while an unchanged page has no remembered date,
    the page ``path`` takes ``ladder`` (none given: no date)."""
    remembered = None if record is None else record.fingerprint
    if record is not None and (
        unchanged or (remembered is not None and remembered in (fingerprint, earlier))
    ):
        if record.lastmod is not None:
            return Dated(record.lastmod, DateReason.KEPT, fingerprint)
        # Unchanged and never dated: the ladder once more (its file time may now be evidence).
        lastmod, reason = (ladder or Ladder()).first_date(path, plain)
        return Dated(lastmod, reason if lastmod else DateReason.NONE_KEPT, fingerprint)
    if first_run:
        lastmod, reason = (ladder or Ladder()).first_date(path, plain)
        return Dated(lastmod, reason, fingerprint)
    return Dated(plain, moved(record), fingerprint)


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
    return Dated(lastmod, moved(record), fingerprint)


def moved(record: PageRecord | None) -> DateReason:
    """Why a page of a site a run has seen gets the deploy's date: new, or changed since."""
    return DateReason.NEW if record is None else DateReason.CHANGED


def at_precision(lastmod: str | None, precision: Precision) -> str | None:
    """A remembered full-precision lastmod as written (a date keeps its first 10 characters)."""
    if lastmod is None or precision is Precision.DATETIME:
        return lastmod
    return lastmod[:10]
