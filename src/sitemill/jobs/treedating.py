"""How the tree job dates its pages."""
# Git history, the remembered state, the evidence ladder of a first run (sitemill.lastmod.decide:
# the sources, the declared dates, the file times), or the plain mtime with content dates off.

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from sitemill.config.model import LastmodMode
from sitemill.entries import Page, SkipReason
from sitemill.jobs._treereads import PageReads
from sitemill.lastmod.decide import Dated, Ladder, at_precision, evidence_dates
from sitemill.lastmod.history.mode import SHALLOW_CLONE
from sitemill.lastmod.pagedate import PageSeen, TreeRungs, page_date, page_time, tree_ladder
from sitemill.protocol import Precision
from sitemill.sources.tree import TreeFile
from sitemill.state.model import PageRecord, State, kept_sketch

if TYPE_CHECKING:  # (a first run's only: a later run imports neither)
    from sitemill.lastmod.declared.w3cdate import DeclaredDate
    from sitemill.lastmod.sourcefiles.rung import SourceRung

log = logging.getLogger(__name__)


@dataclass
class PageWatch:
    """What the run decided for one page, for ``sitemill why``: seen by TreeDating while it
    dates (only when a watch is given: the build's own runs keep none)."""

    path: str
    paths: list[str] = field(default_factory=list)  # every page the run dated (a near miss)
    page: Page | None = None  # the watched page as dated
    mtime: float | None = None
    dated: Dated | None = None  # None: content dates off
    from_history: bool = False
    times: tuple[float, ...] = ()  # the first-seen file times the ladder judged
    plan: TreeDating | None = None
    skipped: SkipReason | None = None


@dataclass
class TreeDating:
    """How the tree's pages are dated: the mode, git dates, and (content dates) the state."""

    mode: LastmodMode
    precision: Precision
    git_dates: Mapping[str, int] | None = None
    newest: Mapping[str, int] = field(default_factory=dict)  # each file's last commit
    fingerprints: Mapping[str, str] | None = None  # None: content dates off
    known: State = field(default_factory=State)
    earlier: Mapping[str, str] = field(default_factory=dict)  # see PageReads.earlier
    sketches: Mapping[str, str] = field(default_factory=dict)  # see PageReads.sketches
    first_run: bool = True
    ladder: Ladder = field(default_factory=Ladder)  # a first run: pages history leaves undated
    # What the next run starts from: every page dated here; the pipeline makes it forget
    # those it leaves out (a state published with the site names no page the sitemaps hide).
    remember: State = field(default_factory=State)
    watch: PageWatch | None = None  # sitemill why: one page's decision, seen
    source: SourceRung | None = None  # rung 2 of a first run (close() ends its git)
    run_time: datetime = field(default_factory=lambda: datetime.now(UTC))
    late: dict[str, int] = field(default_factory=dict)  # git dates after the run, dropped
    # evidence_lastmod of each commit time seen: a commit dates many pages (10,000, 1,000).
    lastmods: dict[int, str | None] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # A commit after the run (a clock set to 2099, a time git keeps past the year 9999) is
        # no evidence (sitemill.lastmod.decide): its page takes the ladder.
        if self.git_dates is not None:
            self.git_dates, self.late = evidence_dates(self.git_dates, self.run_time)

    def start(
        self,
        known: State,
        first_run: bool,
        reads: PageReads,
        looked_at: Iterable[TreeFile],
        replaced: Callable[[str], DeclaredDate | None] | None = None,
        source: SourceRung | None = None,
    ) -> None:
        """Date from ``known`` (the state the run starts from) and what ``reads`` found. Where
        the ladder may date a page (a first run; a state that remembers pages undated), the
        mtimes of the pages ``looked_at`` (those the run reads) that history does not date
        are judged once, before the first page is dated. On a first run, those pages'
        declared dates are asked before their mtimes (``replaced``: the replaced generator
        sitemap's date of a page's path), checked for build stamps once over all of them;
        before those, ``source``: the pages' sources in the repository (rung 2). A state whose
        fingerprints this sitemill cannot compute (State.outdated) dates as a first run: a
        page whose blob is unchanged keeps its date (git history), any other takes the ladder."""
        first_run = first_run or known.outdated
        self.fingerprints, self.earlier = reads.fingerprints, reads.earlier
        self.sketches, self.known, self.first_run = reads.sketches, known, first_run
        if first_run or known.undated():
            dated = self.git_dates or {}
            domain = [file for file in looked_at if file.path not in dated]
            rungs = None
            if first_run:
                if source is not None:
                    self.source = source
                rungs = TreeRungs(source, reads.complete, partial(_declared, reads, replaced))
            first_seen = {file.path: file.mtime for file in domain}
            self.ladder = tree_ladder(first_seen, dated, self.run_time, rungs)
            if self.watch is not None:
                self.watch.times = tuple(f.mtime for f in domain)

    def note_sources(self, warnings: list[str]) -> None:
        """Add the one line on a shallow checkout that kept pages from their sources' dates
        to ``warnings``, unless the pages' own history said it is shallow already."""
        note = None if self.source is None else self.source.shallow_note()
        if note is not None and not any(line.startswith(SHALLOW_CLONE) for line in warnings):
            log.warning("%s", note)
            warnings.append(note)

    def close(self) -> None:
        """End what the rungs keep open (the sources' git)."""
        if self.source is not None:
            self.source.close()

    def skipped(self, path: str, reason: SkipReason) -> None:
        """The pipeline left the page at ``path`` out: the state forgets it."""
        self.remember.forget(path, reason)
        if self.source is not None:  # the shallow line counts only the pages listed
            self.source.forget(path)
        if self.watch is not None and path == self.watch.path:
            self.watch.skipped = reason

    def pages(self, files: Iterable[TreeFile]) -> Iterator[Page]:
        """The pages of ``files``, dated; what the rungs keep open ends with them."""
        if self.watch is not None:
            return self._closing(self._watched(files, self.watch))
        return self._closing(self._pages(files))

    def _closing(self, pages: Iterator[Page]) -> Iterator[Page]:
        try:
            yield from pages
        finally:
            self.close()

    def _pages(self, files: Iterable[TreeFile]) -> Iterator[Page]:
        for file in files:
            if self.mode is LastmodMode.NONE:
                yield Page(file.path)
                continue
            when = None if self.git_dates is None else self.git_dates.get(file.path)
            plain = page_time(when, file.mtime, self.run_time, self.lastmods)
            older = when is not None and when < self.newest.get(file.path, when)
            dated = self._date(file.path, plain, from_history=when is not None, older=older)
            if dated is None:
                yield Page(file.path, at_precision(plain, self.precision))
                continue
            yield Page(
                file.path,
                at_precision(dated.lastmod, self.precision),
                date_reason=dated.reason.value,
            )

    def _watched(self, files: Iterable[TreeFile], watch: PageWatch) -> Iterator[Page]:
        """pages(), telling ``watch`` every path and the watched page (_date: its decision)."""
        watch.plan = self
        for file in files:
            watch.paths.append(file.path)
            for page in self._pages((file,)):
                if file.path == watch.path:
                    watch.page, watch.mtime = page, file.mtime
                yield page

    def _date(
        self, path: str, plain: str | None, *, from_history: bool, older: bool
    ) -> Dated | None:
        if self.fingerprints is None:
            return None
        fingerprint = self.fingerprints.get(path)
        record = self.known.record(path)
        seen = PageSeen(path, fingerprint, plain, from_history, older, self.earlier.get(path))
        dated = page_date(record, seen, first_run=self.first_run, ladder=self.ladder)
        if dated is None:
            return None  # not read: a page the pipeline leaves out anyway
        self.remember.pages[path] = PageRecord(
            None, None, fingerprint, dated.lastmod, dated.proof if dated.lastmod else None,
            sketch=self.sketches.get(path) or kept_sketch(record, fingerprint),
        )  # fmt: skip
        if self.watch is not None and path == self.watch.path:
            self.watch.dated, self.watch.from_history = dated, from_history
        return dated


def _declared(
    reads: PageReads, replaced: Callable[[str], DeclaredDate | None] | None, path: str
) -> tuple[DeclaredDate, ...]:
    """The modification dates the page at ``path`` declares, then the ``replaced`` sitemap's
    date of it (rung 3's candidates, in order of preference)."""
    listed = None if replaced is None else replaced(path)
    return reads.declared.get(path, ()) + (() if listed is None else (listed,))
