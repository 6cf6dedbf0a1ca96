"""A tree's history and pages, read side by side."""
# git log runs in another process while this one reads the pages; content dates then walk back
# through each file's versions, which needs the pages' fingerprints.

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final, TypeVar

from sitemill.config.model import Config, ContentScope, LastmodMode
from sitemill.jobs._treereads import PageReads, ReadOptions, read_pages, read_whole
from sitemill.jobs._treeseen import recall, remember_walk, remembered_prints
from sitemill.jobs._walkpool import log_then_workers, pool_for_walk, read_before_walk
from sitemill.lastmod.fingerprint.digest import (
    FINGERPRINT_VERSION,
    PageMemo,
    fingerprint_key,
    fingerprint_reduced,
    reduce_file,
)
from sitemill.lastmod.history.contentdates import (
    ContentHistory,
    FileVersions,
    Reducing,
    date_by_content,
    history_warnings,
)
from sitemill.lastmod.history.mode import LoggedHistory, read_history
from sitemill.progress import DATES, READING, Progress, Ticker
from sitemill.robots.rules import RobotsRules
from sitemill.safefs import Root
from sitemill.sources.tree import TreeFile
from sitemill.state.model import State
from sitemill.workers.workpool import (
    MIN_POOL_BYTES,
    WorkPool,
    interruptible_pool,
    page_work,
    pool_size,
)

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Below this mean size of the pages to read whole, they are read (and fingerprinted) while
# git log runs, not after it by the walk: their older versions share fewer lines with them
# than the wait costs (build-git-10k, 10,000 pages of 120 bytes: git log takes 0.4 s).
DEFER_MEAN_BYTES: Final = 8 * 1024


def earlier_fingerprints(config: Config, known: State) -> tuple[int, bool, str] | None:
    """The fingerprint version, scope and base URL of the state ``known``, when they are not
    the run's (a state of an earlier sitemill, of another content_scope, or written at another
    base URL, which links are resolved from): pages are compared in them. None too when this
    sitemill cannot compute the state's version (State.outdated: no page is compared by it)."""
    if known.outdated:
        return None
    base = known.base_url or config.base_url
    kind = (known.fingerprint_version, known.fingerprint_main, base)
    now = (FINGERPRINT_VERSION, config.content_scope is ContentScope.MAIN, config.base_url)
    return None if kind == now else kind


@dataclass(frozen=True, slots=True)
class TreeReading:
    """What read_pages_and_history reads: the ``files`` of the site in ``site_dir`` that
    ``robots`` lets it read, under ``config``; with ``declare``, the pages' declared dates too
    (read_pages)."""

    config: Config
    site_dir: Path
    files: list[TreeFile]
    robots: RobotsRules | None
    declare: bool = False


def read_pages_and_history(
    site: TreeReading,
    warnings: list[str],
    known: State | None,
    remember: State,
    stack: ExitStack,
    progress: Progress | None = None,
) -> tuple[LastmodMode, Mapping[str, int] | None, Mapping[str, int], PageReads]:
    """The pages' facts (and fingerprints), and git's dates, or (content dates: the last run's
    state ``known``) content dates from git with each file's last commit. The blob fingerprints
    ``known`` remembers under this run's key are not read again; ``remember`` gets this run's.
    The workers stay up until ``stack`` closes: without a walk through git history, the reads
    come in as the caller follows the files. ``progress`` is told the commits, pages, dates."""
    config, site_dir, files = site.config, site.site_dir, site.files
    by_content = known is not None
    earlier = None if known is None else earlier_fingerprints(config, known)
    key = _blobs_key(config)
    cached = known.blobs if known is not None and known.blob_key == key else {}
    remembered, dirty, record = remembered_prints(config, site_dir, files, cached, earlier, known)
    sizes = [file.size for file in files if file.path not in remembered]  # (to read whole)
    work, workers = _pages_pool(config, sizes, by_content, stack)
    with interruptible_pool(1, "sitemill-git") as pool:
        ahead = read_before_walk(config, site_dir, by_content)
        start = partial(log_then_workers, pool, config, files, cached, work, progress, ahead)
        paths = [file.path for file in files]
        resolve = partial(
            read_history, config.lastmod, site_dir, paths, warnings, dirty, by_content
        )
        logged = None if record else start(resolve)
        root = Root(site_dir)
        walked = _walked(logged, workers, by_content and earlier is None and _defers(work, sizes))
        pages = PageMemo()  # (the run's pages reduced: the walk's tips are the work tree's)
        streams = _streams(ahead, logged, workers)
        options = ReadOptions(by_content, earlier, remembered, walked, streams, site.declare, pages)
        ticker = Ticker(progress, READING, len(files))
        reads = read_pages(config, site.robots, root, files, options, workers, ticker)
        if record and (kept := recall(record, key, reads, cached, remember)):
            return LastmodMode.GIT, kept.dates, kept.newest, reads
        history, walking = logged or start(resolve)
        mode, found = history.result()
        if not isinstance(found, FileVersions):
            return mode, found, {}, reads
        walkers = pool_for_walk(walking, workers, stack)  # (the pages' or a wider one)
        dated = _dated(config, (found, pages), reads, cached, walkers, root, progress)
    log.debug("%d older blobs read, %d fingerprints remembered", dated.read, len(cached))
    remember_walk(remember, site_dir, (found, dated), key, reads.fingerprints)
    for message in history_warnings(found, dated):
        log.warning("%s", message)
        warnings.append(message)
    return mode, dated.dates, dated.newest, reads


def _streams(ahead: bool, logged: object, pool: WorkPool) -> bool:
    """Whether read_pages streams the pages as the caller follows them: not while git log runs
    (``logged``) and this process would read them (a ``pool`` of one) after it, once the pipeline
    has git's dates (build-git-10k, --no-content-dates: 10,000 heads read in git log's 0.2 s,
    an idle wait before), nor when they are read ``ahead`` of content dates' walk through git
    (walkpool.read_before_walk)."""
    in_log_wait = logged is not None and pool.workers <= 1
    return not (in_log_wait or ahead)


def _blobs_key(config: Config) -> str:
    """The key the state's blob fingerprints are remembered under for this run (fingerprint_key)."""
    main, ignore = config.content_scope is ContentScope.MAIN, config.fingerprint_ignore
    return fingerprint_key(FINGERPRINT_VERSION, main, ignore, config.base_url)


def _dated(
    config: Config,
    walking: tuple[FileVersions, PageMemo],
    reads: PageReads,
    cached: Mapping[str, str],
    workers: WorkPool,
    root: Root,
    progress: Progress | None,
) -> ContentHistory:
    """The files' content dates, once every page is read (and fingerprinted), ``walking``
    their versions with the run's pages reduced (digest.PageMemo)."""
    found, pages = walking
    reads.complete()  # (the walk wants them all; each worker fills its own PageMemo)
    unread = (reads.deferred, partial(read_whole, root))
    stubs = frozenset(path for path, facts in reads.facts.items() if facts and facts.refresh)
    hidden = config.respect_noindex  # (a page no sitemap lists by its own head: Reducing)
    unlisted = stubs | {
        path for path, facts in reads.facts.items() if facts and facts.noindex and hidden
    }
    told = Ticker(progress, DATES, start=False)
    dated = date_by_content(
        found,
        _fingerprint(config, fingerprint_reduced, pages),
        reads.fingerprints,
        cached,
        workers,
        unread,
        told,
        Reducing(_fingerprint(config, reduce_file, pages), config.base_url, stubs, unlisted),
    )
    reads.fingerprints.update(dated.fingerprints)
    reads.sketches.update(dated.sketches)
    return dated


def _fingerprint(config: Config, function: Callable[..., _T], pages: PageMemo) -> partial[_T]:
    """The fingerprint of a file of the site and of its older versions with the reduction it
    hashed (fingerprint_reduced: the walk names edits from it), or that reduction alone
    (reduce_file: what template edits are judged on, history.templateedits), the pages it
    reduced held in ``pages``; its links resolve from the site's base URL."""
    return partial(
        function,
        ignore=config.fingerprint_ignore,
        main=config.content_scope is ContentScope.MAIN,
        memo=pages,
        base=config.base_url,
    )


def _walked(
    logged: tuple[Future[LoggedHistory], Future[int]] | None, workers: WorkPool, defer: bool
) -> frozenset[str]:
    """The files that content dates walk back (more than one version in git), from git log
    (``logged``), while the ``workers`` start: none unless their reads ``defer`` to the walk."""
    if not defer or logged is None:
        return frozenset()
    workers.warm()
    found = logged[0].result()[1]
    if not isinstance(found, FileVersions):
        return frozenset()
    return frozenset(path for path, chain in found.versions.items() if len(chain) > 1)


def _defers(work: int, sizes: list[int]) -> bool:
    """Whether the walk through git fingerprints the current version of each file it walks,
    just before its older ones, the reads waiting for git log: with many
    pages (``work``: a pool's) whose ``sizes`` are DEFER_MEAN_BYTES or more on average."""
    return work >= MIN_POOL_BYTES and bool(sizes) and sum(sizes) / len(sizes) >= DEFER_MEAN_BYTES


def _pages_pool(
    config: Config, sizes: list[int], by_content: bool, stack: ExitStack
) -> tuple[int, WorkPool]:
    """The work of the pages to read whole (fingerprints, images), of these ``sizes``, in bytes
    (page_work), and the pool it sizes, which lasts as long as ``stack``."""
    work = sum(map(page_work, sizes)) if by_content or config.images else 0
    return work, stack.enter_context(WorkPool(pool_size(config.workers, work)))
