"""The worker of an incremental sharded bucket run: one shard, from its state."""
# See docs/s3-lambda.md, Sharded buckets. The same pass as a full rebuild over the shard's pages
# alone, from its state with each changed key of its range looked up (one LIST: what is there now);
# it writes nothing: the run publishes once every worker finished. A shard whose pages name other
# URLs of the site is a FullRebuildNeeded. pass_range is the distributed map step's too.

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final

from sitemill.bounded.inflate import inflate
from sitemill.config.model import Config, LastmodMode, OutputFormat, ShardsMode
from sitemill.entries import Page, SkipReason
from sitemill.errors import NoPagesError, SitemillError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, stored_digest
from sitemill.html.facts import PageFacts
from sitemill.jobs.bucketpass import Listing, PassOptions, pass_listing
from sitemill.jobs.bucketremoved import ListedBefore
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.report import Report, WriteResult
from sitemill.robots.rules import RobotsRules
from sitemill.rules import is_candidate
from sitemill.scaleout import ShardedRun
from sitemill.scaleout._membership import names_other_pages
from sitemill.scaleout._shardoutputs import found_by, shard_pass_config
from sitemill.shards.manifest import child_version
from sitemill.shards.partition import Part, Summary
from sitemill.shards.plan import Plan, key_order, shard_id
from sitemill.sinks.port import MemorySink
from sitemill.sources.s3 import Inventory, bucket_pages, head_reader, listed_object
from sitemill.state.model import State
from sitemill.state.shardstate import ShardState, part_states
from sitemill.state.start import Start
from sitemill.urls import UrlStyle
from sitemill.urlstyle import kept_style

if TYPE_CHECKING:
    pass


# A page left out for one of these stays in its shard's listing: a change elsewhere in the
# shard can bring it back (the first file of its URL deleted, its canonical's target gone).
# Any other page left out is not kept (a change to it, or to the configuration or robots.txt,
# which is a full rebuild, brings it back): the private state names few hidden pages.
# A redirect stub stays too: a canonical in another shard may name it (sitemill.listing.stubs,
# sitemill.scaleout._membership), and its shard's state remembers where it leads.
_RETURNING: Final = frozenset({SkipReason.DUPLICATE, SkipReason.CANONICAL, SkipReason.REDIRECT})


class FullRebuildNeeded(SitemillError):
    """A sharded bucket's incremental run cannot give what a full rebuild would: one runs."""


class KeptListing:
    """What a shard's listing keeps of a pass's pages (an OnSkip: told the pages left out).

    Candidates (include, exclude) not left out for good; with content dates, a page whose
    ETag did not change keeps the date its listing had (the date comes from the content
    then: a re-upload of the same bytes changes no byte of the state)."""

    def __init__(self, config: Config, previous: Mapping[str, Page] | None = None) -> None:
        self.config = config
        self.previous = previous or {}
        self.stable = config.content_dates and config.lastmod is not LastmodMode.NONE
        self.hidden: set[str] = set()

    def __call__(self, path: str, reason: SkipReason) -> None:
        if reason not in _RETURNING:
            self.hidden.add(path)

    def kept(self, pages: Iterable[Page]) -> Iterator[Page]:
        for page in pages:
            if page.path in self.hidden or not is_candidate(self.config, page.path):
                continue
            before = self.previous.get(page.path) if self.stable else None
            yield before if before is not None and before.version == page.version else page


@dataclass(frozen=True, slots=True)
class ShardJob(ShardedRun):
    """What every worker of one run shares (ShardedRun), with the plan and robots.txt's
    rules."""

    plan: Plan
    robots: RobotsRules | None


@dataclass
class Rendered:
    """A worker's result: the summary, each part's bytes as stored, the parts' states."""

    summary: Summary
    data: dict[str, bytes] = field(default_factory=dict)  # part name -> bytes
    states: list[ShardState] = field(default_factory=list)
    report: Report | None = None
    found: dict[str, str] = field(default_factory=dict)  # URL -> added, changed...: found_by
    seen: ListedBefore | None = None  # its state before, what it listed (scaleout.shardremoved)


def render_shard(job: ShardJob, index: int, changed: Collection[str]) -> Rendered:
    """Shard ``index`` of the plan with the ``changed`` paths (of its range) read again."""
    after, last = job.plan.bounds(index)
    shard = shard_id(after)
    previous = job.store.read_shard(shard)
    if previous is None or previous.after != after:
        raise FullRebuildNeeded(f"shard {shard} has no state")
    if job.config.url_style is UrlStyle.AUTO and previous.state.url_style is None:
        raise FullRebuildNeeded("url_style = auto has not decided the style yet")
    # auto stays auto, the style the state keeps standing (with_style_kept); its URLs are in it
    config = shard_pass_config(job.config, job.outputs)
    job = replace(job, config=kept_style(job.config, previous.state))
    alone = len(job.plan.afters) == 1  # nothing lies outside the only shard
    if not alone and names_other_pages(job.config, previous.state.pages):
        raise FullRebuildNeeded(f"a page of shard {shard} names another page of the site")
    start, inventory = Start(previous.state.with_style_kept(), first_run=False), Inventory()
    pages = _patched(job, previous.listing, changed, inventory)
    seen = ListedBefore(start, inventory.empty)  # (for what the run removed)
    single = job.config.shards is ShardsMode.AUTO and len(job.plan.afters) == 1
    single = single and not job.store.manifest.users  # (an index names the user's: no single)
    try:
        done = pass_range(
            job, start, Listing(config, (), inventory, pages), (after,), last,
            PassOptions(robots=job.robots, on_dated=seen.note),
            previous={page.path: page for page in previous.listing}, single=single,
        )  # fmt: skip
    except NoPagesError:  # the shard emptied: it leaves the plan (the first one stays)
        found = found_by(job.config, job.outputs, previous.state, State())
        emptied = Rendered(Summary(shard, ()), found=found, seen=seen)
        emptied.states = [] if after else [ShardState(after)]
        return emptied
    # (the previous state's records were checked above: only new or changed ones now)
    before, remember = previous.state.pages, done.remember
    fresh = {p: r for p, r in remember.pages.items() if before.get(p) != r}
    if not alone and names_other_pages(job.config, fresh):
        raise FullRebuildNeeded(f"a page of shard {shard} names another page of the site")
    if not alone and _stub_changed(job.config, remember, previous, pages, changed):
        raise FullRebuildNeeded(
            f"a redirect stub of shard {shard} changed (a canonical may name it)"
        )
    if done.parts and done.parts[0].id != shard:
        raise FullRebuildNeeded(f"shard {shard} rendered no file of its own id")
    found = found_by(job.config, job.outputs, previous.state, remember)
    summary = Summary(shard, tuple(done.parts), sum(done.report.skipped.values()))
    return Rendered(summary, done.data, done.states, done.report, found, seen)


@dataclass(frozen=True, slots=True)
class RangePass:
    """One pass over shard ranges: its report, what it remembers, its parts (named by their
    content) with their bytes by name, and one state per shard of its parts."""

    report: Report
    remember: State
    parts: list[Part]
    data: dict[str, bytes]
    states: list[ShardState]


def pass_range(
    run: ShardedRun,
    start: Start,
    listing: Listing,
    afters: Sequence[str],
    last: str | None,
    options: PassOptions,
    *,
    previous: Mapping[str, Page],
    single: bool,
) -> RangePass:
    """The shards from ``afters`` up to ``last`` (a router's shard, a distributed item's), by
    one pass over ``listing`` (read by its config: shard_pass_config's) that writes nothing;
    ``previous``: their listing, by path; ``single``: one part stays the single sitemap.xml.
    NoPagesError when the ranges list no page."""
    config = listing.config
    kept, listed, sink = KeptListing(config, previous), list[Page](), MemorySink()
    told = listed.append if listing.pages is None else None  # (else its pages are the listing)
    plan = Plan(("", *(after for after in afters if after)))
    options = replace(
        options, plan=plan, on_page=told, on_skip=kept, raw_keys=True, outputs=run.outputs
    )
    report, knowledge = pass_listing(config, run.client, run.site, sink, start, listing, options)
    data: dict[str, bytes] = {}
    parts = rendered_parts(config, report, sink, single, data, run.store.manifest.retired)
    pages = listed if listing.pages is None else listing.pages
    states = part_states(parts, kept.kept(pages), knowledge.remember, last)
    return RangePass(report, knowledge.remember, parts, data, states)


def _stub_changed(
    config: Config,
    remember: State,
    previous: ShardState,
    pages: list[Page],
    changed: Collection[str],
) -> bool:
    """Whether a changed path's bytes are a redirect stub now, or were one (the shard's state
    remembers each stub's refresh): a canonical in another shard may name it, and it leads
    elsewhere now (sitemill.listing.stubs)."""
    if not (config.respect_canonical and config.respect_redirects):
        return False
    before = {page.path: page.version for page in previous.listing}
    now = {page.path: page.version for page in pages}
    unlisted = previous.state.unlisted
    for path in changed:
        if before.get(path) == now.get(path):
            continue  # the same bytes again (or still none)
        if path in remember.stub_ends:
            return True
        version = before.get(path)
        facts = None if version is None else unlisted.get(version)
        if isinstance(facts, PageFacts) and facts.refresh is not None:
            return True
    return False


def _patched(
    job: ShardJob, listing: list[Page], changed: Collection[str], inventory: Inventory
) -> list[Page]:
    """The shard's listing with each changed path as a LIST of it finds it now (a HEAD's
    facts, within the function's s3:ListBucket: it may read HTML pages only; the empty
    objects among them in ``inventory``)."""
    pages = {page.path: page for page in listing}
    root = job.site.root
    heads = head_reader(job.client, job.site.bucket, root)  # (a sitemap.html's)
    for path in sorted(changed):
        pages.pop(path, None)
        found = listed_object(job.client, job.site.bucket, root + path)
        if found is not None:
            pages.update(
                (page.path, page)
                for page in bucket_pages(job.config, [found], root, inventory, heads)
            )
    return [pages[path] for path in sorted(pages, key=key_order)]


def rendered_parts(
    config: Config,
    report: Report,
    sink: MemorySink,
    single: bool,
    data: dict[str, bytes],
    retired: Container[str],
) -> list[Part]:
    """The parts a pass rendered, each under the name its content gives (past the names
    being ``retired``: sitemill.shards.manifest), their bytes put in ``data`` by that name
    (``single``: a site of one part keeps the single sitemap.xml)."""
    parts = parts_in(report.result)
    if single and len(parts) == 1 and not config.groups:  # (groups: always an index)
        data[parts[0].name] = sink.files[parts[0].name]
        return [_single_part(config, parts[0], data)]
    named = [replace(part, name=child_version(part.name, part.digest, retired)) for part in parts]
    data.update((new.name, sink.files[old.name]) for old, new in zip(parts, named, strict=True))
    return named


def _single_part(config: Config, part: Part, data: dict[str, bytes]) -> Part:
    """The one sitemap.xml a small site keeps, never gzip: ``part``'s bytes move in ``data``
    to that name."""
    raw = data.pop(part.name)
    raw = inflate(raw, MAX_BYTES_LIMIT, what=part.name) if config.gzip else raw
    name = ENTRY_TXT if config.format is OutputFormat.TXT else ENTRY_XML
    data[name] = raw
    return replace(part, name=name, digest=stored_digest(raw))


def parts_in(result: WriteResult) -> list[Part]:
    """The shard files a writer wrote (WriteResult.boundaries, .sitemaps), in its order; a
    single sitemap.xml is the first shard's."""
    if not result.boundaries and result.entry_files:
        name = result.entry_files[0]
        urls, lastmod, digest = result.sitemaps[name]
        return [Part(shard_id(""), "", name, urls, lastmod, digest)]
    parts: list[Part] = []
    for name, after in result.boundaries.items():
        urls, lastmod, digest = result.sitemaps[name]
        parts.append(Part(shard_id(after), after, name, urls, lastmod, digest))
    return parts
