"""One page's date: what the tree job and the bucket job each ask for every page they date."""
# The order a date is reached in (docs/lastmod.md, "No date without evidence"): the page's own
# git history (rung 1, lastmod.history: the mode and its versions), else the date the state
# keeps while its content holds (an unchanged ETag too), else on a first run the ladder's
# rungs (lastmod.sourcefiles, lastmod.declared, lastmod.filetimes), else the deploy's time. The
# decisions are lastmod.decide's; this module says which one a page takes, and builds the
# ladder each job's first run asks.

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.lastmod.decide import (
    Dated,
    EvidenceProvider,
    Ladder,
    Remembered,
    content_date,
    evidence_lastmod,
    first_run_ladder,
    history_date,
)

if TYPE_CHECKING:  # (a first run's only: a later run imports neither)
    from sitemill.lastmod.declared.w3cdate import DeclaredDate
    from sitemill.lastmod.history.commits import NamedCommit
    from sitemill.lastmod.sourcefiles.rung import SourceRung


@dataclass(frozen=True, slots=True)
class PageSeen:
    """What a run saw of one page: its site-relative ``path``, its content ``fingerprint``
    (None: not read), and its time as a date (``plain``, full precision; None: no evidence):
    its commit's when ``from_history`` (``older``: its content is older than the file's last
    commit), else its file time or LastModified. ``earlier``: its fingerprint in the
    version of the state's; ``unchanged``: its bytes are those the state's record was made
    of (same_bytes), or its only edit is the deploy's template's (lastmod.deploys)."""

    path: str
    fingerprint: str | None
    plain: str | None
    from_history: bool = False
    older: bool = False
    earlier: str | None = None
    unchanged: bool = False


def page_date(
    record: Remembered | None, seen: PageSeen, *, first_run: bool, ladder: Ladder
) -> Dated | None:
    """The page's date, from the state's ``record`` of it and what the run ``seen``: by its
    history, else by its content (the ``ladder`` where no run has dated it); None when it
    was not read (a page the pipeline leaves out anyway)."""
    if seen.from_history and seen.plain is not None:
        return history_date(
            record, seen.fingerprint, seen.plain, first_run=first_run, older=seen.older
        )
    if seen.fingerprint is None:
        return None
    return content_date(
        record, seen.fingerprint, seen.plain, first_run=first_run, earlier=seen.earlier,
        unchanged=seen.unchanged, ladder=ladder, path=seen.path,
    )  # fmt: skip


def same_bytes(record: Remembered | None, version: str | None, outdated: bool) -> bool:
    """Whether the object's ``version`` (its ETag) is the one its ``record`` was made of: the
    same content, whatever the fingerprints (a record of an earlier sitemill's fingerprint, or
    of one it can no longer compute: the state is ``outdated``). An upgrade moves no date."""
    return (
        record is not None
        and version is not None
        and record.version == version
        and (record.fingerprint is not None or outdated)
    )


@dataclass(frozen=True, slots=True)
class TreeRungs:
    """The rungs a tree's first run asks before the file times: the pages' sources (rung 2;
    None: none started) and their declared dates (rung 3: each page's candidates, in order of
    preference, once ``ready`` has every page read)."""

    source: SourceRung | None
    ready: Callable[[], object]
    declared: Callable[[str], tuple[DeclaredDate, ...]]


def tree_ladder(
    first_seen: Mapping[str, float],
    history: Mapping[str, int],
    run_time: datetime,
    rungs: TreeRungs | None,
) -> Ladder:
    """The ladder of the pages ``first_seen`` (their mtimes) that ``history`` (git's commit
    times) does not date: their file times judged once, over all of them; on a first run
    (``rungs``), the pages' sources and declared dates asked before. The pages ``history``
    dates are what the site's declared dates are held against."""
    providers: tuple[EvidenceProvider, ...] = ()
    if rungs is not None:
        if rungs.source is not None:
            providers = (rungs.source,)
        providers += (_declared_rung(rungs, list(first_seen), history, run_time),)
    now = run_time.timestamp()
    return first_run_ladder(first_seen.values(), providers=providers, now=now)


def _declared_rung(
    rungs: TreeRungs, paths: Sequence[str], history: Mapping[str, int], run_time: datetime
) -> EvidenceProvider:
    """Rung 3 over the first-seen ``paths``: read once every page is in."""
    from sitemill.lastmod.declared.rung import DeclaredRung

    def candidates() -> dict[str, tuple[DeclaredDate, ...]]:
        rungs.ready()
        return {path: rungs.declared(path) for path in paths}

    def against_history() -> tuple[dict[str, tuple[DeclaredDate, ...]], dict[str, datetime]]:
        rungs.ready()
        return (
            {path: rungs.declared(path) for path in history},
            {path: datetime.fromtimestamp(when, UTC) for path, when in history.items()},
        )

    return DeclaredRung(candidates, run_time, against_history if history else None)


def bucket_ladder(
    uploads: Iterable[float],
    run_time: datetime,
    declared: Mapping[str, tuple[DeclaredDate, ...]] | None,
) -> Ladder:
    """The ladder of a bucket's pages no run has dated: their ``uploads`` (LastModified, POSIX
    seconds) judged once, over all of them; on a first run, the pages' ``declared`` dates
    (filled as the heads are read) asked before."""
    now = run_time.timestamp()
    if declared is None:
        return first_run_ladder(uploads, uploads=True, now=now)
    from sitemill.lastmod.declared.rung import DeclaredRung

    rung = DeclaredRung(lambda: declared, run_time)
    return first_run_ladder(uploads, uploads=True, providers=(rung,), now=now)


def first_run_sources(site_dir: Path, pages: Iterable[str]) -> SourceRung:
    """Rung 2 over the candidate ``pages`` of the site in ``site_dir``, started (it reads the
    repository while the pages are read); imported by a first run alone."""
    from sitemill.lastmod.sourcefiles.rung import SourceRung

    return SourceRung.started(site_dir, pages, datetime.now(UTC))


def page_time(
    when: int | None, mtime: float, run_time: datetime, made: dict[int, str | None]
) -> str | None:
    """A tree page's time as a date (full precision): its commit's (``when``, POSIX seconds;
    each commit's made once in ``made``: a commit dates many pages), else its ``mtime``;
    None when it is no evidence (after the run: lastmod.decide)."""
    if when is None:
        return evidence_lastmod(mtime, run_time)
    if (plain := made.get(when, "")) == "":
        plain = made[when] = evidence_lastmod(when, run_time)
    return plain


def source_again(site_dir: Path, path: str, sha: str) -> tuple[str, NamedCommit] | None:
    """The source (repo-relative) and the commit that dated the page at ``path`` by rung 2,
    found again as a first run finds it (for ``sitemill why``: a state keeps no file name),
    while the commit that last changed its text is still the one a state kept (``sha``)."""
    from sitemill.errors import SitemillError
    from sitemill.lastmod.sourcefiles.rung import SourceRung

    rung = SourceRung(site_dir, (path,), datetime.now(UTC))
    try:
        rung(path)
        found = rung.commit(path)
    except SitemillError:
        found = None
    finally:
        rung.close()
    return found if found is not None and found[1].sha == sha else None
