"""Rung 2 of the evidence ladder: a first-seen page dated by the last change of its source."""
# The last change of its source's text in the repository that holds the site (docs/lastmod.md, "Rung
# 2: the page's source").

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sitemill.errors import GitError
from sitemill.lastmod.decide import DateReason, Evidence, evidence_lastmod
from sitemill.lastmod.history.commits import NamedCommit
from sitemill.lastmod.proof import Proof, Rung
from sitemill.lastmod.sourcefiles.repository import (
    BlobReader,
    Repository,
    find_repository,
    repo_view,
    tracked_paths,
)
from sitemill.lastmod.sourcefiles.sourcemap import source_map
from sitemill.lastmod.sourcefiles.textdates import TextDate, TextDates, read_text_dates

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PageSource:
    """A page's date from its source: the source file (repo-relative) and its last change."""

    source: str
    change: TextDate


@dataclass(slots=True)
class _Found:
    """What the rung found, once: each page's source date, and the pages whose sources are
    known (a page among them without a date: its sources' history could not tell)."""

    dates: dict[str, PageSource] = field(default_factory=dict)
    repository: Repository | None = None
    sourced: frozenset[str] = frozenset()


class SourceRung:
    """An EvidenceProvider (sitemill.lastmod.decide): a first-seen page's newest source text
    change, as a lastmod at full precision; None when it has no source in the repository or
    no date (the next rung answers).

    The sources of all the ``pages`` (the run's candidates, a superset of those the ladder
    will ask for) are dated in one ``git log`` pass over the repository holding the site.
    ``start()`` begins it in a thread while the run reads its pages, when some page is
    untracked at HEAD (so no history of its own can date it: the ladder will ask); otherwise
    it runs the first time a page is asked for, and never when none is."""

    def __init__(
        self,
        site_root: Path,
        pages: Iterable[str],
        run_time: datetime,
    ) -> None:
        self._site_root = site_root
        self._pages = tuple(pages)
        self._run_time = run_time  # aware: no change after it is evidence
        self._repository: Repository | None = None
        self._found: _Found | None = None
        self._reader: BlobReader | None = None
        self._thread: threading.Thread | None = None
        self._failed: BaseException | None = None
        self._undated: set[str] = set()  # pages asked for, with sources and no date

    def __call__(self, path: str) -> Evidence | None:
        found = self._findings()
        dated = found.dates.get(path)
        if dated is None:
            if path in found.sourced:
                self._undated.add(path)
            return None
        # A source's change after the run is no evidence (sitemill.lastmod.decide).
        lastmod = evidence_lastmod(dated.change.time, self._run_time)
        if lastmod is None:
            return None
        return Evidence(lastmod, DateReason.SOURCE, Proof(Rung.SOURCE, dated.change.sha))

    def explain(self, path: str) -> PageSource | None:
        """The source and the commit that dated the page at ``path``, if this rung did."""
        return None if self._found is None else self._found.dates.get(path)

    def commit(self, path: str) -> tuple[str, NamedCommit] | None:
        """The source that dated the page at ``path`` and its commit as a user names it (the
        subject asked of git here: for ``sitemill why``)."""
        found = self.explain(path)
        repository = None if self._found is None else self._found.repository
        if found is None or repository is None:
            return None
        done = repository.git().run(
            "log", "-1", "--no-show-signature", "--format=%s", found.change.sha, "--"
        )
        subject = done.stdout.decode("utf-8", "replace").strip() if done.returncode == 0 else ""
        return found.source, NamedCommit(found.change.sha, found.change.time, subject)

    def shallow_note(self) -> str | None:
        """The one line on a shallow clone whose cut left pages asked for undated though
        their sources are known (None: not shallow, or no such page)."""
        found = self._found
        if found is None or found.repository is None or not found.repository.shallow:
            return None
        if not self._undated:
            return None
        return (
            f"the checkout is shallow: {len(self._undated):,} page(s) could be dated by their "
            "sources' history: run `git fetch --unshallow` (actions/checkout: fetch-depth: 0) "
            "first"
        )

    def forget(self, path: str) -> None:
        """The run left the page at ``path`` out of its sitemaps: the shallow line does not
        count it."""
        self._undated.discard(path)

    @classmethod
    def started(cls, site_root: Path, pages: Iterable[str], run_time: datetime) -> SourceRung:
        """A rung over ``pages`` of the site in ``site_root``, started (``start()``), in a run
        started at ``run_time`` (aware)."""
        rung = cls(site_root, pages, run_time)
        rung.start()
        return rung

    def start(self) -> None:
        """Begin in a thread (daemon: an interrupted run waits for nothing), see above."""
        if self._found is None and self._thread is None and self._pages:
            self._thread = threading.Thread(target=self._find_early, name="sitemill-sources")
            self._thread.daemon = True
            self._thread.start()

    def _findings(self) -> _Found:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._found is None and self._failed is None:
            self._run()
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed
        assert self._found is not None
        return self._found

    def close(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _find_early(self) -> None:
        """The thread's work; whatever ends it, a Ctrl-C that ended its git too, is raised
        where the dates are asked for (_findings), never printed by the thread."""
        try:
            self._early()
        except BaseException as exc:
            self._failed = exc

    def _early(self) -> None:
        self._repository = repository = find_repository(self._site_root)
        if repository is None or not repository.site_dir:
            self._found = _Found(repository=repository)  # the site is the repository
            return
        prefix = repository.site_dir + "/"
        if any(prefix + page not in repository.blobs for page in self._pages):
            self._run()

    def _run(self) -> None:
        self._found = _Found()
        try:
            self._found = self._find()
        except GitError as exc:
            log.warning("the sources' history cannot be read: %s", exc)
        except Exception as exc:  # (raised where the dates are asked for)
            self._failed = exc

    def _find(self) -> _Found:
        repository = self._repository or find_repository(self._site_root)
        if repository is None or not repository.site_dir:
            return _Found(repository=repository)  # the site is the repository: no source
        self._reader = reader = BlobReader(repository)
        mapped = source_map(repo_view(repository, reader), repository.site_dir, self._site_root)
        sources = {page: tracked_paths(repository, mapped.sources(page)) for page in self._pages}
        sources = {page: found for page, found in sources.items() if found}
        if not sources:
            return _Found(repository=repository)
        wanted = {source for found in sources.values() for source in found}
        text = read_text_dates(repository, reader, wanted)
        dates = {}
        for page, found in sources.items():
            dated = _newest_change(found, text)
            if dated is not None:
                dates[page] = dated
        return _Found(dates, repository, frozenset(sources))


def _newest_change(sources: list[str], text: TextDates) -> PageSource | None:
    """The newest text change among a page's sources; None when one of them is unknown (its
    change may be the newest) or none is dated. A source whose change lies before a shallow
    clone's cut is older than every dated one."""
    if any(source in text.unknown for source in sources):
        return None
    dated = [PageSource(source, text.dates[source]) for source in sources if source in text.dates]
    return max(dated, key=lambda found: found.change.time, default=None)
