"""What `sitemill why` prints: one page's date and its evidence, in a few lines."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sitemill.cli._usage import EXIT_INVALID
from sitemill.lastmod.decide import DateReason

if TYPE_CHECKING:
    from sitemill.commands.why import PageWhy, Window
    from sitemill.lastmod.history.commits import NamedCommit


def why_code(why: PageWhy) -> int:
    """The exit code of ``sitemill why``: 0 for a page the sitemaps list."""
    return 0 if why.path is not None and why.skipped is None and not why.excluded else EXIT_INVALID


def why_lines(why: PageWhy, page: str) -> list[str]:
    """What ``sitemill why`` prints for ``why`` (``page``: as the user named it)."""
    if why.path is None:
        near = f"; did you mean {why.near}?" if why.near else ""
        return [f"{page}: no page of the site has this name{near}"]
    if why.excluded:
        return [f"{why.path}: not listed: excluded ({why.detail})"]
    if why.skipped is not None:
        detail = f" ({why.detail})" if why.detail else ""
        return [f"{why.path}: not listed: {why.skipped.value}{detail}"]
    written = "no <lastmod>" if why.lastmod is None else f"<lastmod>{why.lastmod}</lastmod>"
    return [f"{why.path}: {written}", *(f"  {line}" for line in _evidence(why))]


def _evidence(why: PageWhy) -> list[str]:
    from sitemill.config.model import LastmodMode

    R = DateReason

    reason = why.reason
    if why.mode is LastmodMode.NONE:
        return ["why: lastmod = none (no page gets a date)"]
    if reason is None:
        source = "the file's last commit" if why.mode is LastmodMode.GIT else "the file's time"
        return [f"why: content dates are off: the plain date, {source}"]
    if why.from_history:
        return _history(why)
    if reason is DateReason.SOURCE and why.source is not None:
        return [
            f"why: its source in the repository, {why.source}, as a reader sees it",
            f"text since: {_commit(why.source_commit)}",
        ]
    lines = {
        R.KEPT: f"why: kept: {_state(why)} remembers {_remembered(why)}",
        R.NEW: f"why: new since the last run ({_state(why)} has no record of it): {_moved(why)}",
        R.CHANGED: f"why: the content changed since {_state(why)}: {_moved(why)}",
        R.SOURCE: "why: its source in the repository",
        R.DECLARED: "why: its own declared modification date (after its publication, no stamp)",
        R.FILE_TIME: f"why: its {_clock(why)}, {_time(why.mtime)} (a first run; no other evidence)",
        R.NONE_KEPT: f"why: unchanged since {_state(why)}, which remembers no date for it",
        R.NONE_BUILD: f"why: {_no_rung(why)}; the file times are one build's",
        R.NONE_SYNC: f"why: {_no_rung(why)}; the upload times are one sync's",
        R.NONE_AFTER_RUN: f"why: {_no_rung(why)}; a {_clock(why)} is after the run",
    }.get(reason, f"why: {_no_rung(why)}")
    return [lines, *_kept(why), *_late(why), *_declared(why), *_times(why.window)]


def _kept(why: PageWhy) -> list[str]:
    """A kept date's root evidence, as the state recorded it (lastmod.proof)."""
    from sitemill.lastmod.proof import Rung

    remembered = why.remembered
    if why.reason is not DateReason.KEPT or remembered is None:
        return []
    proof = remembered.proof
    if proof is None:
        return [
            "evidence: not recorded (a state of an earlier sitemill; "
            "the next run that changes the page records it)"
        ]
    if proof.rung is Rung.SOURCE:
        source = "" if why.source is None else f", {why.source}"
        return [
            f"evidence: rung 2, its source in the repository{source}, as a reader sees it",
            f"text since: {_kept_commit(why, proof.commit)}",
        ]
    if proof.rung is Rung.GIT:
        since = (
            [] if proof.commit is None else [f"content since: {_kept_commit(why, proof.commit)}"]
        )
        return ["evidence: rung 1, its git history", *since]
    if proof.rung is Rung.DECLARED:
        kind = f" ({proof.kind})" if proof.kind in _declarations() else ""
        return [f"evidence: rung 3, its own declared modification date {remembered.lastmod}{kind}"]
    if proof.rung is Rung.FILE_TIME:
        return [f"evidence: its {_clock(why)} on a first run (the times were spread: no stamp)"]
    return [f"evidence: the deploy that brought or changed it, its {_clock(why)}"]


def _declarations() -> frozenset[str]:
    """The declarations a declared date is read from (a state's kind is shown if one)."""
    from sitemill.lastmod.declared import w3cdate as w

    return frozenset(
        {w.JSON_LD, w.ARTICLE_MODIFIED, w.OG_UPDATED, w.ITEMPROP_MODIFIED, w.LAST_UPDATED_LINE}
        | {w.REPLACED_SITEMAP}
    )


def _kept_commit(why: PageWhy, sha: str | None) -> str:
    if why.source_commit is not None:
        return _commit(why.source_commit)
    if sha is None:
        return "(no commit recorded)"
    return f"{sha[:10]} (not in this repository: a shallow clone, or another checkout)"


def _late(why: PageWhy) -> list[str]:
    """The page's git date, dropped: after the run's time (sitemill.lastmod.decide)."""
    if why.late is None:
        return []
    return [f"git history: its content's commit, {_time(why.late)}, is after the run: no evidence"]


def _clock(why: PageWhy) -> str:
    """What a first run's plain time is: a bucket object's LastModified, a file's mtime."""
    return "LastModified" if why.uploads else "file time"


def _declared(why: PageWhy) -> list[str]:
    """The page's declared date rung 3 accepted (which declaration), or refused and why."""
    if why.declared is not None and why.reason is DateReason.DECLARED:
        return [f"declared: {why.declared.w3c()} ({why.declared.source}), accepted"]
    if why.refused is None or why.lastmod is not None:
        return []
    declared, reason = why.refused
    return [f"declared: {declared.w3c()} ({declared.source}), refused: {reason}"]


def _history(why: PageWhy) -> list[str]:
    content, last = why.content_commit, why.last_commit
    head = "why: its git history: the oldest commit with today's content"
    if why.reason is DateReason.KEPT:
        head = f"why: kept: {_state(why)} remembers this date, from the git history"
    elif why.reason in (DateReason.NEW, DateReason.CHANGED):
        head += f" ({why.reason.value} since {_state(why)})"
    lines = [head]
    lines.append(f"content since: {_commit(content)}")
    if last is not None and content is not None and last.sha != content.sha:
        lines.append(f"last commit:   {_commit(last)} (changed nothing a reader sees)")
    return lines


def _commit(commit: NamedCommit | None) -> str:
    if commit is None:
        return "(its commit is not in the file's log)"
    # The subject is the repository's text: its first line, cut (a 1 MB subject is no line).
    from sitemill.validate.violation import short

    subject = short(commit.subject.strip().partition("\n")[0])
    return f'{commit.sha[:10]} {_time(commit.when)} "{subject}"'


def _state(why: PageWhy) -> str:
    return "the state" if why.state_from is None else f"the state at {why.state_from}"


def _remembered(why: PageWhy) -> str:
    remembered = why.remembered
    date = "this date" if remembered is None else remembered.lastmod
    was = None if remembered is None or remembered.parts is None else remembered.fingerprint
    if was is not None and why.fingerprint is not None and was != why.fingerprint:
        # (a bucket deploy's template edit, or its own date alone: lastmod.deploys.templateedits; a
        # record with parts is a bucket's of this fingerprint version)
        return (
            f"{date}; the content fingerprint changed only by an edit this deploy made alike"
            " on most of the pages it changed, or by its own date (no content)"
        )
    return f"{date} and the same content fingerprint (unchanged)"


def _moved(why: PageWhy) -> str:
    remembered = why.remembered
    was = ""
    if remembered is not None and remembered.lastmod is not None:
        was = f" (it remembered {remembered.lastmod})"
    return f"dated by this deploy, its {_clock(why)} {_time(why.mtime)}{was}"


def _no_rung(why: PageWhy) -> str:
    if why.uploads:  # a bucket has no repository: rungs 1 (the state), 3 and 4
        return "no evidence: no remembered date, no declared date"
    history = "no git history" if why.late is None else "its git history is after the run"
    return f"no evidence: {history}, no remembered date, no source or declared date"


def _times(window: Window | None) -> list[str]:
    from sitemill.lastmod.filetimes.spread import STAMP_WINDOW, Stamp

    if window is None:
        return []
    minutes = int(STAMP_WINDOW // 60)
    times = "objects' LastModified" if window.uploads else "pages' times"
    share = f"{window.busiest:,} of {window.of:,} {times} fall within {minutes} minutes"
    deploy = "one sync's" if window.uploads else "one build's or one sync's"
    verdict = {
        Stamp.ONE_DEPLOY: f"{deploy}: no evidence",
        Stamp.SPREAD: "spread: evidence",
        Stamp.AFTER_RUN: "one is after the run: no evidence",
    }.get(window.verdict, "not judged")
    return [f"{'upload times' if window.uploads else 'file times'}: {share} ({verdict})"]


def _time(seconds: float | None) -> str:
    if seconds is None:
        return "(unknown)"
    try:
        return datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError):  # (git keeps times past the year 9999)
        return f"(no date: {int(seconds):,} s since 1970)"
