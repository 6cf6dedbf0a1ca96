"""The pool that walks a tree's files back through git: the pages' own, or one that the older
versions git log names call for (history.walkwork)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

from sitemill.config.model import Config, LastmodMode
from sitemill.git.trust import find_top
from sitemill.lastmod.history.files import FileVersions
from sitemill.lastmod.history.mode import LoggedHistory
from sitemill.lastmod.history.walkwork import EXPECTED_READS, walk_workers
from sitemill.progress import Progress
from sitemill.sources.tree import TreeFile
from sitemill.workers.workpool import WorkPool, pool_size, start_fork_server


def log_then_workers(
    pool: ThreadPoolExecutor,
    config: Config,
    files: list[TreeFile],
    cached: Mapping[str, str],
    work: int,
    progress: Progress | None,
    ahead: bool,
    resolve: Callable[[Progress | None], LoggedHistory],
) -> tuple[Future[LoggedHistory], Future[int]]:
    """git log (``resolve``) in the git thread of ``pool``, and after it the workers the walk
    it names calls for (workers_after_log), while this thread reads the pages; when they are
    read ``ahead`` of a walk (read_before_walk), their fork server perhaps at once (start_ahead)."""
    history = pool.submit(resolve, progress)
    if ahead:
        start_ahead(config, cached, work)
    return history, pool.submit(workers_after_log, config, history, files, cached, work)


def workers_after_log(
    config: Config,
    history: Future[LoggedHistory],
    files: list[TreeFile],
    known: Mapping[str, str],
    work: int,
) -> int:
    """In git's thread, once git log is read: how many workers walk the files back, the
    pages' ``work`` with their older versions (walkwork.walk_workers; ``known``: the blob
    fingerprints an earlier run remembered). A site of few pages with a long history gets a
    pool here, its fork server started while this process reads the pages."""
    found, sizes = history.result()[1], {file.path: file.size for file in files}
    if not isinstance(found, FileVersions):
        return 1
    return walk_workers(config.workers, found, sizes, known, work)


def pool_for_walk(workers: Future[int], pages: WorkPool, stack: ExitStack) -> WorkPool:
    """The pool of ``workers`` for the walk: the pages' own if it has as many, else a new one
    that lasts as long as ``stack``."""
    wanted = workers.result()
    return pages if wanted == pages.workers else stack.enter_context(WorkPool(wanted))


def read_before_walk(config: Config, site_dir: Path, by_content: bool) -> bool:
    """Whether the pages are read whole while git log runs, not as the caller follows them:
    with content dates from git, whose walk wants every page first (one process would else
    read them after git log; a pool's workers read them at once either way)."""
    auto = config.lastmod in (None, LastmodMode.GIT)  # (None: git where there is a git tree)
    return by_content and auto and find_top(site_dir) is not None


def start_ahead(config: Config, cached: Mapping[str, str], work: int) -> None:
    """Start the workers' fork server now, as git log starts, on a first run through git
    (no blob fingerprint ``cached``) whose pages' ``work`` is below a pool's but whose older
    versions may call for one: each walked file counts for up to EXPECTED_READS of them
    (walkwork.older_work, once git log has named them). Its start and imports then overlap
    git log, not the walk's first chunks (archcraft: 14.5 MB of pages, 126 MB counted)."""
    if cached:
        return
    if pool_size(config.workers, work) == 1 < pool_size(config.workers, work * EXPECTED_READS):
        start_fork_server()
