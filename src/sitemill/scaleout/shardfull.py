"""The full rebuild of a sharded bucket with a partitioned state (scaleout.partitioned)."""
# The whole listing, its shards' key ranges each listed by its own thread, through one pass that
# decides canonicals, duplicates and hreflang clusters over the whole site; then every shard's
# state, and the commit (sitemill.scaleout.shardcommit). It starts from every shard's remembered
# pages (no unchanged head is read again), or from the one state object of earlier runs.

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.entries import Page
from sitemill.filenames.outputs import ROBOTS_TXT, is_recorded_child, stored_digest
from sitemill.jobs.bucketpass import Listing, PassOptions, pass_listing
from sitemill.jobs.bucketremoved import ListedBefore
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report, WriteResult
from sitemill.robots.rules import RobotsRules
from sitemill.scaleout import ShardedRun
from sitemill.scaleout._runcommit import RunCommit, commit_run
from sitemill.scaleout._shardoutputs import found_by, keep_found
from sitemill.scaleout._shardusers import full_users, pass_config
from sitemill.scaleout._shardworker import KeptListing, parts_in
from sitemill.scaleout.shardcommit import (
    Live,
    delete_after_commit,
    entry_of,
    publish_after_commit,
    put_child,
)
from sitemill.shards.manifest import IndexState, child_version
from sitemill.shards.partition import Part
from sitemill.shards.plan import Plan
from sitemill.sinks import Sink
from sitemill.sinks.s3 import S3Sink, holds
from sitemill.sources.s3 import Inventory, list_objects, list_range
from sitemill.state.shardstate import first_parts, split_states
from sitemill.urlstyle import keep_style
from sitemill.workers.workpool import generator_pool
from sitemill.writing.usersitemaps import UserSitemaps

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import ObjectTypeDef


@dataclass(frozen=True, slots=True)
class FullRun(ShardedRun):
    """A full rebuild's run (ShardedRun), with how many threads, at what time."""

    threads: int
    now: datetime


def rebuild_full(
    run: FullRun,
    base: IndexState,
    live: Live,
    robots: RobotsRules | None,
    inputs: str,
    *,
    objects: Iterable[ObjectTypeDef] | None = None,
) -> Report:
    """The whole listing through one pass (exact across shards), committed over the manifest
    ``base`` (sitemill.scaleout.shardcommit): a ConflictError when another run committed since.
    ``objects``: the bucket's listing in key order, when the caller has it (a benchmark's, of
    pages it never uploaded; the bucket's own files among them); None: listed here."""
    config, site, asked = run.config, run.site, run.asked
    dry_run = asked.dry_run
    users = full_users(run, base, live)
    start, previous = run.store.merged_start(run.threads)  # (of the manifest read: base)
    start.state.removed = start.state.removed or dict(run.store.removed)  # (kept: removedpages)
    inventory = Inventory()
    reader = S3Sink(run.client, site.bucket, site.root, inventory=inventory, dry_run=True)
    staged = StagedOutputs(run.client, site, inventory, base.retired, dry_run=dry_run, live=reader)
    listed: list[Page] = []
    listing, before = KeptListing(config, previous), ListedBefore(start, inventory.empty)
    listed_objects = _listing(run, base.plan) if objects is None else objects
    report, knowledge = pass_listing(
        pass_config(config, users.index, run.outputs), run.client, site, staged, start,
        Listing(config, listed_objects, inventory), PassOptions(robots=robots,
        progress=asked.progress, plan=base.plan, on_page=listed.append, on_skip=listing,
        raw_keys=True, on_dated=before.note, outputs=run.outputs, live=reader),
    )  # fmt: skip
    before.classify(config, run.client, site, knowledge.remember, report)  # (what it removed)
    config = keep_style(config, report.url_style, knowledge.remember)  # (its URLs: found)
    report.warnings.extend(users.warnings)
    remember, first_run = knowledge.remember, start.first_run  # (kept before the commit)
    found = {} if first_run else found_by(config, run.outputs, start.state, remember)
    keep_found(config, run.outputs, run.store, found, first_run=first_run, dry_run=dry_run)(report)
    parts = [replace(p, name=staged.names_of.get(p.name, p.name)) for p in parts_in(report.result)]
    plan = report.result.plan or Plan()
    later = _published_later(report.result, staged)
    report.result = WriteResult(
        plan=plan, url_count=report.result.url_count, written=list(staged.written),
        unchanged=list(staged.unchanged), warnings=report.result.warnings,
    )  # fmt: skip
    single = staged.files.get(parts[0].name) if len(parts) == 1 else None
    if dry_run:
        return _would_publish(config, parts, single, users, reader, report)
    states = split_states(
        list(plan.afters), first_parts(parts), listing.kept(listed), knowledge.remember
    )
    refs = run.store.write_states(states, base, run.threads)  # (every shard's: new objects)
    removed = knowledge.remember.removed  # (jobs.removedpages: the manifest keeps it for `check`)
    commit = RunCommit(base, live, plan, inputs, parts, refs, single, users, removed)
    report.state_written = commit_run(run, commit, run.now, report.result)
    publish_after_commit(run.client, site, later, report.result)
    as_listed = S3Sink(run.client, site.bucket, site.root, inventory=inventory)
    delete_after_commit(as_listed, staged.deletions, report.result)
    return report


def _published_later(result: WriteResult, staged: StagedOutputs) -> dict[str, bytes]:
    """What the outputs published with the sitemaps made in the pass (sitemap.html), by
    name: it goes up once the sitemaps it names are live."""
    entries = set(result.entry_files)
    return {
        name: staged.files[name]
        for name in result.files
        if name in staged.files and name not in entries
    }


def _would_publish(
    config: Config,
    parts: list[Part],
    single: bytes | None,
    users: UserSitemaps,
    reader: S3Sink,
    report: Report,
) -> Report:
    """A dry run's report: what the run would publish (the one sitemap.xml, or the index
    and its parts)."""
    entry, data = entry_of(config, parts, single, users.index)
    report.result.entry_files = [entry]
    report.result.files = [entry, *(part.name for part in parts if part.name != entry)]
    if reader.read(entry) != data and entry not in report.result.written:
        report.result.written.append(entry)
    return report


def _listing(run: FullRun, plan: Plan | None) -> Iterator[ObjectTypeDef]:
    """The bucket's listing: by shard ranges in parallel once there is a plan."""
    bucket, root = run.site.bucket, run.site.root
    if plan is not None and run.threads > 1 and len(plan.afters) > 1:
        return ranged_listing(run.client, bucket, root, plan, run.threads)
    return list_objects(run.client, bucket, root)


def ranged_listing(
    client: S3Client, bucket: str, root: str, plan: Plan, threads: int
) -> Iterator[ObjectTypeDef]:
    """The listing of every shard's range, each range listed by its own thread (at most
    ``threads`` ranges ahead of the one being read), given back in key order."""

    def one(index: int) -> list[ObjectTypeDef]:
        return list(list_range(client, bucket, root, *plan.bounds(index)))

    with generator_pool(threads, "sitemill-list") as pool:
        pending = [pool.submit(one, index) for index in range(min(threads, len(plan.afters)))]
        for index in range(len(plan.afters)):
            objects = pending[index].result()
            if index + threads < len(plan.afters):
                pending.append(pool.submit(one, index + threads))
            pending[index] = None  # type: ignore[call-overload]
            yield from objects


# The sink a full pass of a sharded bucket writes through (scaleout.shardcommit).
# Each child goes up at once under the name its content gives, unless the bucket holds it already;
# everything else the writer makes (its own index, robots.txt, an output published with the sitemaps
# such as sitemap.html) is kept here for after the commit. The writer sees an empty folder: nothing
# is replaced (the outputs read what is live elsewhere: OutputRun.live), and nothing deleted but
# what an output proved its own there (sitemill's leftover sitemap.html), after the commit too.
class StagedOutputs:
    """A Sink: children up under their own names, the rest kept in ``files``."""

    def __init__(
        self,
        client: S3Client,
        site: BucketSite,
        inventory: Inventory,
        retired: Container[str],
        *,
        dry_run: bool,
        live: Sink,
    ) -> None:
        """``inventory``: the listing's (what the bucket holds); ``retired``: names being
        deleted, which no content takes; ``live``: a sink to read robots.txt from (the writer
        starts from it)."""
        self.client, self.site, self.inventory = client, site, inventory
        self.retired, self.dry_run, self.live = retired, dry_run, live
        self.files: dict[str, bytes] = {}
        self.names_of: dict[str, str] = {}  # a child's name as the writer gave it -> its own
        self.written: list[str] = []
        self.unchanged: list[str] = []
        self.deletions: list[str] = []  # an output's files to delete after the commit

    def read(self, name: str) -> bytes | None:
        if name == ROBOTS_TXT:
            return self.live.read(name)
        return self.files.get(name)

    def names(self) -> Iterator[str]:
        return iter(())

    def holds(self, name: str, staged: Path) -> bool:
        return False

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if not is_recorded_child(name):  # (the writer's children, named groups' too)
            self.files[name] = data
            return True
        own = child_version(name, stored_digest(data), self.retired)
        self.names_of[name] = own
        stored = self.inventory.objects.get(own)
        if stored is not None and holds(stored, data):
            self.unchanged.append(own)
            return False
        if not self.dry_run:
            put_child(self.client, self.site, own, data)
        self.written.append(own)
        return True

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.put(name, staged.read_bytes(), content_type=content_type)

    def delete(self, name: str) -> None:
        """An output's file, proven its own by what is live: deleted after the commit
        (``deletions``). No child is deleted here: what the manifest no longer names goes
        after a while."""
        if not is_recorded_child(name) and name not in self.deletions:
            self.deletions.append(name)
