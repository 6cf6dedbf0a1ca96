"""Attach what the last run knew, or what a read finds, to a stream of pages, in order."""
# For each page the pipeline will look at: its head facts and, with content dates, its fingerprint
# and lastmod. An object whose version (S3 ETag) the state remembers costs nothing; another HTML
# page is read (many at a time, still in the source's order, at most ``window`` waiting); another
# file is fingerprinted by its version alone. Every page seen is recorded in ``remember``.

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sitemill.entries import Page, SkipReason
from sitemill.html.facts import PageFacts, wants_facts
from sitemill.lastmod.decide import Ladder, at_precision
from sitemill.lastmod.deploys.templateedits import DeployEdits
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.lastmod.pagedate import PageSeen, page_date, same_bytes
from sitemill.protocol import Precision
from sitemill.state._facts import lacks_titles, without_titles
from sitemill.state.model import PageRecord, State, kept_sketch
from sitemill.workers.workpool import generator_pool

if TYPE_CHECKING:  # (a first run's only)
    from sitemill.lastmod.declared.w3cdate import DeclaredDate

DEFAULT_WINDOW: Final = 1_024

# What a read gives: the page's facts and (with content dates) its fingerprint; None when
# the object is gone since it was listed.
Reading = tuple[PageFacts, str | None] | None


@dataclass
class HeadCounts:
    """How many heads a run read, and how many it took from the state instead."""

    read: int = 0
    reused: int = 0


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the run starts from: the last state, whether there was one, and the rules."""

    known: State
    remember: State
    precision: Precision
    content_dates: bool = False
    first_run: bool = True
    images: bool = False  # the facts must hold the page's images (read its body)
    titles: bool = False  # the facts must hold the page's title (config.reads_titles)
    # The remembered verdicts that still leave a page out (respect_noindex, ...).
    verdicts: frozenset[SkipReason] = frozenset()
    # How a page no run has seen is dated (a first run: sitemill.lastmod.decide).
    ladder: Ladder = dataclasses.field(default_factory=Ladder)
    # A first run: the modification dates each page read declares (filled by the reads; the
    # ladder's declared rung decides over all of them, so no page is dated before all are in).
    declared: dict[str, tuple[DeclaredDate, ...]] | None = None
    # With content dates, the deploy's edits (lastmod.deploys): each page's parts, kept
    # for the next run; a run after the first judges its changed pages once all are read.
    deploy: DeployEdits | None = None

    @property
    def judges(self) -> bool:
        """Whether this run judges its changed pages' edits (lastmod.deploys.templateedits)."""
        return self.deploy is not None and self.content_dates and not self.first_run


def attach_facts(
    pages: Iterable[Page],
    *,
    needs: Callable[[str], bool],
    read: Callable[[str], Reading],
    knowledge: Knowledge,
    counts: HeadCounts,
    workers: int,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Page]:
    """``pages`` in order, with facts (and content dates) for those ``needs`` says are looked
    at; ``page.lastmod`` comes in at full precision and goes out at ``knowledge.precision``.
    With ``knowledge.declared`` (a first run), or when the run judges its deploy's edits, every
    read is in before the first page goes."""
    hold = knowledge.declared is not None or knowledge.judges
    with generator_pool(workers, "sitemill-head") as pool:
        waiting: deque[tuple[Page, Future[Reading] | None]] = deque()
        for page in pages:
            future = None
            if not needs(page.path):
                page = _at_precision(page, knowledge)
            elif (known := _known(page, knowledge)) is not None:
                counts.reused += wants_facts(page.path)
                page = known
            elif wants_facts(page.path):
                if knowledge.deploy is not None:  # (its stamps: lastmod.deploys.templateedits)
                    knowledge.deploy.times[page.path] = page.lastmod
                future = pool.submit(read, page.path)
                counts.read += 1
            else:  # a PDF or the like: its version is its fingerprint, nothing to read
                page = _attach(page, None, _version_print(page), knowledge)
            waiting.append((page, future))
            while waiting and not hold and (len(waiting) > window or _ready(waiting[0][1])):
                yield _finish(waiting.popleft(), knowledge)
        wait([future for _, future in waiting if future is not None])
        if knowledge.deploy is not None and knowledge.judges:
            knowledge.deploy.judge(_changed(waiting, knowledge))
        while waiting:
            yield _finish(waiting.popleft(), knowledge)


def _changed(
    waiting: Iterable[tuple[Page, Future[Reading] | None]], knowledge: Knowledge
) -> Iterator[tuple[str, str | None, str]]:
    """The pages read whose fingerprint is not the one remembered: the path, the parts and
    the fingerprint their record holds (lastmod.deploys.templateedits.DeployEdits.judge)."""
    for page, future in waiting:
        if future is None or future.exception() is not None:
            continue  # (a failed read raises in order: _finish)
        reading = future.result()
        record = knowledge.known.record(page.path)
        if reading is None or reading[1] is None or record is None:
            continue
        if record.fingerprint is not None and record.fingerprint != reading[1]:
            yield page.path, record.parts, record.fingerprint


def _known(page: Page, knowledge: Knowledge) -> Page | None:
    """The page with what the state knows of its bytes, or None when it must be read: its
    own record (facts, fingerprint, date), else what is remembered by its ETag of an object
    the sitemaps left out (a verdict the current switches still give, or its facts)."""
    reused = _remembered(page, knowledge)
    if reused is not None:
        return _attach(page, reused[0], reused[1], knowledge)
    version = page.version
    unlisted = None if version is None else knowledge.known.unlisted.get(version)
    if version is None or unlisted is None or not wants_facts(page.path):
        return None
    if isinstance(unlisted, PageFacts):  # left out by its canonical, or a duplicate
        return _attach(page, unlisted, None, knowledge)
    if unlisted not in knowledge.verdicts:
        return None  # the switch that left it out is off now: read what it says
    knowledge.remember.unlisted[version] = unlisted
    return dataclasses.replace(_at_precision(page, knowledge), verdict=unlisted)


def _remembered(page: Page, knowledge: Knowledge) -> tuple[PageFacts | None, str | None] | None:
    """The facts and fingerprint the state holds for this version of the page, if complete."""
    record = knowledge.known.record(page.path)
    if record is None or page.version is None or record.version != page.version:
        return None
    html = wants_facts(page.path)
    facts = record.facts
    if html and facts is None:
        return None
    if html and knowledge.images and facts is not None and facts.document and facts.images is None:
        return None  # remembered before images were on: read once more
    if html and knowledge.titles and facts is not None and facts.document and lacks_titles(facts):
        return None  # remembered without its title (html_sitemap was off): read once more
    if knowledge.content_dates and (
        record.fingerprint is None  # (a lastmod of None: a page an earlier run left undated)
        or knowledge.known.fingerprint_version != FINGERPRINT_VERSION  # (or none: outdated)
        or knowledge.known.fingerprint_main != knowledge.remember.fingerprint_main
    ):
        return None  # (an earlier sitemill's fingerprint: read once, fingerprinted anew)
    if html and knowledge.content_dates and knowledge.deploy is not None and record.parts is None:
        return None  # (a record of an earlier sitemill keeps no parts: read once)
    return record.facts if html else None, record.fingerprint


def _version_print(page: Page) -> str | None:
    return None if page.version is None else f"version:{page.version}"


def _ready(future: Future[Reading] | None) -> bool:
    return future is None or future.done()


def _finish(item: tuple[Page, Future[Reading] | None], knowledge: Knowledge) -> Page:
    page, future = item
    if future is None:
        return page
    reading = future.result()  # a failed read raises here, in order
    if reading is None:  # gone since listed: its deletion brings another rebuild
        return _at_precision(page, knowledge)
    return _attach(page, reading[0], reading[1], knowledge)


def _at_precision(page: Page, knowledge: Knowledge) -> Page:
    return dataclasses.replace(page, lastmod=at_precision(page.lastmod, knowledge.precision))


def _attach(
    page: Page, facts: PageFacts | None, fingerprint: str | None, knowledge: Knowledge
) -> Page:
    """The page with its facts and date; what it was is remembered for the next run."""
    if facts is not None and not knowledge.titles:
        facts = without_titles(facts)  # no title kept that nothing shows
    record = knowledge.known.record(page.path)
    dated = None
    if knowledge.content_dates and fingerprint is not None:
        deploy = knowledge.deploy
        unchanged = same_bytes(record, page.version, knowledge.known.outdated) or (
            deploy is not None and deploy.unchanged(page.path)
        )
        seen = PageSeen(page.path, fingerprint, page.lastmod, unchanged=unchanged)
        dated = page_date(record, seen, first_run=knowledge.first_run, ladder=knowledge.ladder)
    lastmod = page.lastmod if dated is None else dated.lastmod
    if page.version is not None and (facts is not None or knowledge.content_dates):
        knowledge.remember.pages[page.path] = PageRecord(
            page.version,
            facts,
            fingerprint if knowledge.content_dates else None,
            lastmod if knowledge.content_dates else None,
            None if dated is None or not knowledge.content_dates else dated.proof,
            *_kept(page, record, fingerprint, knowledge),
        )
    return dataclasses.replace(
        page,
        facts=facts,
        lastmod=at_precision(lastmod, knowledge.precision),
        date_reason=None if dated is None else dated.reason.value,
    )


def _kept(
    page: Page, record: PageRecord | None, fingerprint: str | None, knowledge: Knowledge
) -> tuple[str | None, str | None]:
    """With content dates, the page's parts (lastmod.deploys.templateedits) and sketch as read now,
    else as remembered of these bytes (parts) or of this ``fingerprint`` (the sketch)."""
    if not knowledge.content_dates:
        return None, None
    deploy = knowledge.deploy
    sketch = (deploy and deploy.sketches.get(page.path)) or kept_sketch(record, fingerprint)
    if deploy is not None and page.path in deploy.parts:
        return deploy.parts[page.path], sketch
    if record is not None and page.version is not None and record.version == page.version:
        return record.parts, sketch
    return None, sketch


def still_leaving_out(*, noindex: bool, redirects: bool) -> frozenset[SkipReason]:
    """The remembered verdicts that still leave a page out under the switches
    (respect_noindex, respect_redirects): a page that is not a page, always."""
    found = {SkipReason.NOT_A_PAGE}
    if noindex:
        found.add(SkipReason.NOINDEX)
    if redirects:
        found.add(SkipReason.REDIRECT)
    return frozenset(found)
