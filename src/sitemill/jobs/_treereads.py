"""The tree job's reading of pages: head facts for the checks, fingerprints for content dates."""
# Each page's lastmod is sitemill.jobs.treedating's.

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from sitemill.config.model import Config, ContentScope, OutputFormat
from sitemill.errors import RefusedError, SourceError
from sitemill.html.facts import (
    ORDINARY_PAGE,
    PAGE_FACTS_BYTES,
    PageFacts,
    read_page_facts,
    wants_facts,
    with_images,
)
from sitemill.lastmod.fingerprint.digest import (
    MAX_FINGERPRINT_BYTES,
    PageMemo,
    file_url,
    fingerprint_bytes,
    fingerprint_html,
    fingerprint_html_reduced,
)
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.progress import Ticker
from sitemill.robots.rules import RobotsRules
from sitemill.rules import reads_candidate
from sitemill.safefs import Root
from sitemill.sources.tree import TreeFile
from sitemill.workers.workpool import PROGRESS_CHUNK, WorkPool, cut

if TYPE_CHECKING:  # (a first run's only: a later run imports it not)
    from sitemill.lastmod.declared.w3cdate import DeclaredDate

log = logging.getLogger(__name__)


@dataclass
class PageReads:
    """What reading the pages found: facts that are not an ordinary page's (None: could not
    be read) and, with content dates, each page's fingerprint. While workers still read (see
    read_pages), ``follow`` and ``complete`` take their chunks in."""

    facts: dict[str, PageFacts | None] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)
    # The resemblance sketches of the HTML pages fingerprinted (from the same reductions).
    sketches: dict[str, str] = field(default_factory=dict)
    # With a state of an earlier sitemill: each page's fingerprint in that state's version.
    earlier: dict[str, str] = field(default_factory=dict)
    # Pages whose fingerprint was left to the walk through git history (``defer``).
    deferred: set[str] = field(default_factory=set)
    # With ``declare`` (a first run): the modification dates each page declares, in order.
    declared: dict[str, tuple[DeclaredDate, ...]] = field(default_factory=dict)
    # The chunks still being read, in order, and how many files each covers.
    _pending: Iterator[PageReads] = field(default_factory=lambda: iter(()), repr=False)
    _sizes: deque[int] = field(default_factory=deque, repr=False)
    _taken: int = 0  # files whose chunk is in
    ticker: Ticker | None = field(default=None, repr=False)  # told the files taken in

    def add(self, part: PageReads) -> None:
        self.facts.update(part.facts)
        self.fingerprints.update(part.fingerprints)
        self.sketches.update(part.sketches)
        self.earlier.update(part.earlier)
        self.deferred |= part.deferred
        self.declared.update(part.declared)

    def follow(self, files: list[TreeFile]) -> Iterator[TreeFile]:
        """``files`` (those read_pages was given), each once what was read of it is in."""
        for index, file in enumerate(files):
            while index >= self._taken and self._sizes:
                self._take()
            yield file

    def complete(self) -> PageReads:
        """Take every chunk in; return self."""
        while self._sizes:
            self._take()
        return self

    def _take(self) -> None:
        self.add(next(self._pending))
        size = self._sizes.popleft()
        self._taken += size
        if self.ticker is not None:
            self.ticker.step(size)
            if not self._sizes:
                self.ticker.finish()


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How read_pages reads: ``whole`` pages (fingerprints), compared in the ``earlier``
    fingerprints too, those ``known`` not fingerprinted again, those the walk through git
    history fingerprints (``defer``), reads taken in as the caller follows (``stream``), the
    pages' declared dates read (``declare``), the run's pages reduced (``pages``: the walk's
    reductions find the work tree's there, in this process; None: the chunk's own)."""

    whole: bool
    earlier: tuple[int, bool, str] | None = None
    known: Mapping[str, str] | None = None
    defer: frozenset[str] = frozenset()
    stream: bool = False
    declare: bool = False
    pages: PageMemo | None = None


def read_pages(
    config: Config,
    robots: RobotsRules | None,
    site: Root,
    files: list[TreeFile],
    options: ReadOptions,
    pool: WorkPool | None = None,
    ticker: Ticker | None = None,
) -> PageReads:
    """Read every page the pipeline will look at: the head of an HTML page for its facts; with
    ``whole`` (``options``: ReadOptions), every such page up to MAX_FINGERPRINT_BYTES for its
    fingerprint too, and with ``images`` on, an HTML page's body for its images (in the same
    read). ``earlier``: the fingerprint version, scope (main or not) and base URL of the state
    to compare with, when they are not the run's. ``known``: the fingerprints of pages whose
    bytes an earlier run fingerprinted (their git blob): not computed again, and only the head
    is read unless images need the body. ``pool``: worker processes that read chunks of
    ``files`` (the result is the same with any number); with ``stream``, what they read is taken
    in as the caller follows the files (PageReads.follow), so that this process goes on with the
    first pages while the workers read the rest; ``ticker`` counts the pages read (by chunks of
    at most PROGRESS_CHUNK pages, when it tells a progress: without one, a pool's chunks are as
    few as its workers need, each one's set-up paid fewer times). With ``declare`` (a first
    run), an HTML page's declared modification dates are read from the bytes read
    (sitemill.lastmod.declared.inpage: up to its first 512 KiB, the head alone for a page left
    to the walk through git history or fingerprinted by an earlier run)."""
    known, told = options.known or {}, ticker is not None and ticker.progress is not None
    chunks = [
        (chunk, {file.path: known[file.path] for file in chunk if file.path in known})
        for chunk in cut(
            files, 1 if pool is None else pool.workers, PROGRESS_CHUNK if told else None
        )
    ]
    wants, earlier = (options.whole, options.declare), options.earlier
    work = partial(_read_chunk, config, robots, site, wants, earlier, options.defer, options.pages)
    parts = map(work, chunks) if pool is None else pool.imap(work, chunks)
    sizes = deque(len(chunk) for chunk, _ in chunks)
    reads = PageReads(_pending=parts, _sizes=sizes, ticker=ticker)
    return reads if options.stream and pool is not None else reads.complete()


def _read_chunk(
    config: Config,
    robots: RobotsRules | None,
    site: Root,
    wants: tuple[bool, bool],
    earlier: tuple[int, bool, str] | None,
    defer: frozenset[str],
    pages: PageMemo | None,
    chunk: tuple[Sequence[TreeFile], Mapping[str, str]],
) -> PageReads:
    """read_pages of one chunk of files (with the fingerprints known for them), the pages
    reduced held in ``pages`` (a worker's: its own)."""
    files, known = chunk
    (whole, declare), reads = wants, PageReads()
    images = config.images and config.format is OutputFormat.XML
    memo = PageMemo() if pages is None else pages
    declared = _declared_reader() if declare else None
    for file in files:
        path = file.path
        html = wants_facts(path)
        if not (html or whole) or not reads_candidate(config, robots, path):
            continue
        remembered = known.get(path)
        if remembered is not None and whole and not html:
            reads.fingerprints[path] = remembered  # nothing else is read of a PDF
            continue
        deferred = whole and remembered is None and path in defer
        body = (whole and remembered is None and not deferred) or (images and html)
        data = read_file(site, path, MAX_FINGERPRINT_BYTES if body else PAGE_FACTS_BYTES)
        if data is None:
            if html:
                reads.facts[path] = None
            continue
        if html:
            facts = read_page_facts(data[:PAGE_FACTS_BYTES], titles=config.reads_titles)
            if images and facts.document:
                facts = with_images(facts, data)
            if facts != ORDINARY_PAGE:
                reads.facts[path] = facts
            if declared is not None and (dates := tuple(declared(data))):
                reads.declared[path] = dates
        if whole and remembered is not None:
            reads.fingerprints[path] = remembered
        elif deferred:
            reads.deferred.add(path)
        elif whole:
            _fingerprint(reads, config, (path, data), memo, earlier)
    return reads


def _fingerprint(
    reads: PageReads,
    config: Config,
    read: tuple[str, bytes],
    memo: PageMemo,
    earlier: tuple[int, bool, str] | None,
) -> None:
    """Note in ``reads`` the fingerprint of the page ``read`` (its path and bytes): an HTML
    page's, with its resemblance sketch made from the reduction it hashed (one reduction for
    both) and, with ``earlier``, its fingerprint in that version; another file's bytes'."""
    path, data = read
    if not wants_facts(path):
        reads.fingerprints[path] = fingerprint_bytes(data)
        return
    ignore, main = config.fingerprint_ignore, config.content_scope is ContentScope.MAIN
    url = file_url(config.base_url, path)
    found = fingerprint_html_reduced(data, ignore, main=main, memo=memo, url=url)
    reads.fingerprints[path] = found[0]
    if (sketch := sketch_text(found[1])) is not None:
        reads.sketches[path] = sketch
    if earlier is not None:
        version, scope, base = earlier
        url = file_url(base, path)
        reads.earlier[path] = fingerprint_html(data, ignore, version, main=scope, url=url)


def _declared_reader() -> Callable[[bytes], Iterator[DeclaredDate]]:
    """sitemill.lastmod.declared.inpage.declared_dates, imported by a first run only: a later run
    reads no declared date, and neither it nor a worker imports what reads them."""
    from sitemill.lastmod.declared.inpage import declared_dates

    return declared_dates


def read_whole(site: Root, path: str) -> bytes | None:
    """A page's first MAX_FINGERPRINT_BYTES, read inside the site only (None: refused)."""
    return read_file(site, path, MAX_FINGERPRINT_BYTES)


def read_file(site: Root, path: str, limit: int) -> bytes | None:
    """The first ``limit`` bytes of a page, read inside the site only (None: refused)."""
    try:
        data = site.read(path, limit)
    except RefusedError as exc:
        # The walk only yields regular files inside the site: this one changed since.
        log.warning("not reading %s", exc)
        return None
    except OSError as exc:
        raise SourceError(f"cannot read {site.path / path}: {exc.strerror or exc}") from exc
    if data is None:
        raise SourceError(f"cannot read {site.path / path}: it was removed during the build")
    return data
