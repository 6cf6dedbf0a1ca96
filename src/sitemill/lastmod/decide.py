"""Where a page's lastmod is decided (kept, git history, the ladder), and what may be evidence."""

# The evidence ladder (docs/lastmod.md, "No date without evidence"): a page no run has seen is
# dated by the first rung that answers: (1) its git history (the callers'); the providers, in
# order (its source, its declared date); its file time or LastModified when the stamp rule
# (lastmod.filetimes.spread) says the run's times are no stamp; else no ``<lastmod>``. Once a run
# has seen the site, a page that changes or first appears takes the deploy's date.

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Protocol

from sitemill.lastmod.filetimes.spread import Stamp, judge_times
from sitemill.lastmod.proof import Proof, Rung
from sitemill.protocol import CLOCK_SKEW, Precision, format_lastmod


class DateReason(Enum):
    """Why a page's lastmod is what it is: the report's and the JSON summary's keys."""

    KEPT = "kept"  # the remembered state's date, the content unchanged
    NEW = "new page"  # a run saw the site before: the deploy that brought it
    CHANGED = "content changed"  # ... or that changed it
    # A first run in a git tree: the date comes from the history, by content. Older than the
    # file's last commit (invisible re-renders since), or that commit's.
    HISTORY_OLDER = "older than the last commit"
    HISTORY_LAST = "the last commit"
    SOURCE = "source"  # the page's source in the repository (rung 2)
    DECLARED = "declared"  # the page's own declared modification date (rung 3)
    FILE_TIME = "file time"  # a first run's file time or LastModified, no stamp
    # No <lastmod>, and why.
    NONE_BUILD = "no date (file times are one build's)"
    NONE_SYNC = "no date (upload times are one sync's)"
    NONE_AFTER_RUN = "no date (a time after the run)"
    NONE = "no date (no evidence)"
    # The content unchanged, and the state remembers no date for it (an earlier run found no
    # evidence, or the date it remembered was refused).
    NONE_KEPT = "no date (unchanged, none remembered)"


@dataclass(frozen=True, slots=True)
class Evidence:
    """A page's date from a rung between its history and its file time, and that rung."""

    lastmod: str  # full precision: YYYY-MM-DDThh:mm:ss+00:00
    reason: DateReason  # SOURCE or DECLARED
    proof: Proof | None = None  # what the state remembers of it (sitemill why)


class EvidenceProvider(Protocol):
    """A rung asked between the page's history and its file time (its source, its declared
    date): given a first-seen page's site-relative path, its evidence or None."""

    def __call__(self, path: str) -> Evidence | None: ...


@dataclass(frozen=True, slots=True)
class Ladder:
    """How this run dates a page no run has seen: the verdict on the run's first-seen file
    times (``uploads``: a bucket's LastModified) and the rungs asked before them."""

    times: Stamp = Stamp.UNJUDGED
    uploads: bool = False
    providers: tuple[EvidenceProvider, ...] = ()

    def first_evidence(self, path: str, file_time: str | None) -> Evidence | None:
        """The evidence of the first rung that answers for the page at ``path``, whose file time
        or LastModified is ``file_time`` (full precision); None: no rung answers (no date)."""
        for provider in self.providers:
            found = provider(path)
            if found is not None:
                return found
        if file_time is not None and self.times is Stamp.SPREAD:
            return Evidence(file_time, DateReason.FILE_TIME, Proof(Rung.FILE_TIME))
        return None

    def undated_reason(self) -> DateReason:
        if self.times is Stamp.ONE_DEPLOY:
            return DateReason.NONE_SYNC if self.uploads else DateReason.NONE_BUILD
        if self.times is Stamp.AFTER_RUN:
            return DateReason.NONE_AFTER_RUN
        return DateReason.NONE


def first_run_ladder(
    times: Iterable[float],
    *,
    uploads: bool = False,
    providers: Iterable[EvidenceProvider] = (),
    now: float | None = None,
) -> Ladder:
    """The ladder of a first run, whose first-seen pages have the POSIX ``times`` (their
    mtimes, or with ``uploads`` their LastModified): judged once, over all of them."""
    return Ladder(judge_times(times, now), uploads, tuple(providers))


class Remembered(Protocol):
    """What the last run remembered of a page (the state's record): the version of its bytes
    (an S3 ETag), its date and fingerprint, and that date's root evidence."""

    @property
    def version(self) -> str | None: ...

    @property
    def lastmod(self) -> str | None: ...

    @property
    def fingerprint(self) -> str | None: ...

    @property
    def proof(self) -> Proof | None: ...


# lastmod by content (docs/lastmod.md): a page keeps the date the last run gave it (or stays
# without one) while its fingerprint holds; one that changed, or is new since a run that saw the
# site, gets its plain date (mtime, LastModified: the deploy that brought it). Git history gives
# the date directly (lastmod.history.contentdates); a page no run has seen takes the ladder.
# Dates are remembered at full precision and written at the configured one, so switching
# ``lastmod_precision`` moves no date.
@dataclass(frozen=True, slots=True)
class Dated:
    """A page's lastmod (full precision), why it is that, and what to remember: its
    fingerprint, and the root evidence of its date (``proof``; None: no date, or a kept date
    whose state recorded none)."""

    lastmod: str | None
    reason: DateReason
    fingerprint: str | None
    proof: Proof | None = None


def content_date(
    record: Remembered | None,
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
            return Dated(record.lastmod, DateReason.KEPT, fingerprint, record.proof)
        # Unchanged and never dated: the ladder once more (its file time may now be evidence).
        found = (ladder or Ladder()).first_evidence(path, plain)
        if found is None:
            return Dated(None, DateReason.NONE_KEPT, fingerprint)
        return Dated(found.lastmod, found.reason, fingerprint, found.proof)
    if first_run:
        ladder = ladder or Ladder()
        found = ladder.first_evidence(path, plain)
        if found is None:
            return Dated(None, ladder.undated_reason(), fingerprint)
        return Dated(found.lastmod, found.reason, fingerprint, found.proof)
    if plain is None:  # its time was after the run (evidence_time, below)
        return Dated(None, DateReason.NONE_AFTER_RUN, fingerprint)
    return Dated(plain, deploy_reason(record), fingerprint, Proof(Rung.DEPLOY))


def history_date(
    record: Remembered | None,
    fingerprint: str | None,
    lastmod: str,
    *,
    first_run: bool,
    older: bool = False,
) -> Dated:
    """A date from git history: kept when the last run gave the same one. ``older``: the
    content date is older than the file's last commit (on a first run, said so)."""
    proof = Proof(Rung.GIT)  # (the history is read again by each run: no commit kept)
    if record is not None and record.lastmod == lastmod:
        # A state that recorded no proof stays as it is until the page changes.
        kept = record.proof if record.proof is None or record.proof.rung is Rung.GIT else proof
        return Dated(lastmod, DateReason.KEPT, fingerprint, kept)
    if first_run:
        reason = DateReason.HISTORY_OLDER if older else DateReason.HISTORY_LAST
        return Dated(lastmod, reason, fingerprint, proof)
    return Dated(lastmod, deploy_reason(record), fingerprint, proof)


def deploy_reason(record: Remembered | None) -> DateReason:
    """Why a page of a site a run has seen gets the deploy's date: new, or changed since."""
    return DateReason.NEW if record is None else DateReason.CHANGED


def at_precision(lastmod: str | None, precision: Precision) -> str | None:
    """A remembered full-precision lastmod as written (a date keeps its first 10 characters)."""
    if lastmod is None or precision is Precision.DATETIME:
        return lastmod
    return lastmod[:10]


# Whether a moment may be evidence (docs/lastmod.md, "No date from the future"): every date a run
# may publish passes here. Git keeps commit times past the year 9999, which no datetime holds, and
# a page may declare 9999-12-31: neither may reach a sitemap, nor raise on its way. A time after
# the run (by more than two machines' clocks differ) is no time a page changed: the next rung
# answers.


def latest_evidence(run_time: datetime) -> datetime:
    """The latest moment that is evidence in a run started at ``run_time`` (aware)."""
    return run_time + CLOCK_SKEW


def evidence_ceiling(run_time: datetime) -> str:
    """The latest lastmod that is evidence in a run started at ``run_time``, as sitemill
    writes one (``YYYY-MM-DDThh:mm:ss+00:00``): a lastmod in that form, or a date
    (``YYYY-MM-DD``), is evidence when it sorts at or before it (one string comparison, for
    a listing of millions of objects)."""
    return format_lastmod(latest_evidence(run_time), Precision.DATETIME)


def evidence_time(moment: datetime | float, run_time: datetime) -> datetime | None:
    """``moment`` (an aware datetime, or POSIX seconds: a commit's, a file's) in UTC when it
    is evidence: a moment the calendar holds, not after ``run_time`` (aware; CLOCK_SKEW
    allowed); else None."""
    if not isinstance(moment, datetime):
        try:
            moment = datetime.fromtimestamp(int(moment), UTC)
        except (OverflowError, OSError, ValueError):  # past the year 9999, NaN, infinite
            return None
    if moment > latest_evidence(run_time):
        return None
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # (the year 1 in an offset east of UTC)
        return None


def evidence_lastmod(moment: datetime | float, run_time: datetime) -> str | None:
    """``moment`` as a full-precision lastmod (``YYYY-MM-DDThh:mm:ss+00:00``) when it is
    evidence (evidence_time), else None."""
    found = evidence_time(moment, run_time)
    return None if found is None else format_lastmod(found, Precision.DATETIME)


def evidence_dates(
    dates: Mapping[str, int], run_time: datetime
) -> tuple[dict[str, int], dict[str, int]]:
    """``dates`` (git's commit times, by page) split into those that are evidence and those
    after the run (a clock set to 2099, a time git keeps past the year 9999), which are not:
    such a page takes the ladder. Each commit time is judged once (a commit dates many pages)."""
    kept = {t for t in set(dates.values()) if evidence_time(t, run_time)}
    evidence = {p: t for p, t in dates.items() if t in kept}
    return evidence, {p: t for p, t in dates.items() if p not in evidence}
