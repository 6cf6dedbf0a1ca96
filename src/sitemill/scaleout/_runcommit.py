"""A sharded run's commit, said once: its entry file, robots.txt, strays, commit and go-live."""
# The full rebuild (shardfull), the distributed reducer (distreduce) and an incremental run
# (shardpublish) end in this one sequence: the parts dated over the base manifest, the entry file
# rendered from them, robots.txt's Sitemap lines decided, the strays of failed runs found, then the
# commit of sitemill.scaleout.shardcommit, and robots.txt written once the entry file is live.

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, NoReturn

from sitemill.config.model import Config
from sitemill.errors import ConflictError
from sitemill.filenames.outputs import ROBOTS_TXT, content_type, stored_digest
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import WriteResult
from sitemill.scaleout import ShardedRun
from sitemill.scaleout._shardcollect import find_strays
from sitemill.scaleout.shardcommit import (
    Live,
    ShardCommit,
    commit_and_go_live,
    entry_of,
    index_parts,
)
from sitemill.shards.manifest import IndexState, Publication
from sitemill.sinks.s3 import S3Sink
from sitemill.writing.layouts import new_robots
from sitemill.writing.ownbytes import file_owners
from sitemill.writing.usersitemaps import UserSitemaps

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.shards.partition import Part, StateRef
    from sitemill.shards.plan import Plan
    from sitemill.state.removedurls import RemovedUrl


@dataclass(frozen=True, slots=True)
class RunCommit:
    """What a run commits over the manifest ``base`` (its entry file live as ``live``): the
    next plan, the inputs' fingerprint, the parts, every shard's state and the single
    sitemap's bytes (if one). ``users``: the user's sitemaps the run names, with robots.txt
    rewritten and the strays of failed runs found (None: an incremental run, which keeps the
    base's names and record and leaves both to a full one). ``removed``: as ShardCommit's."""

    base: IndexState
    live: Live
    plan: Plan
    inputs: str
    parts: list[Part]
    states: dict[str, StateRef]
    single: bytes | None
    users: UserSitemaps | None = None
    removed: dict[str, RemovedUrl] | None = None


def commit_run(
    where: ShardedRun,
    run: RunCommit,
    now: datetime,
    result: WriteResult,
    *,
    before: Callable[[], None] | None = None,
    superseded: Callable[[], NoReturn] | None = None,
) -> bool:
    """Publish ``run``: whether the manifest was written. ``before``: what must be kept just
    before the commit (never lost to a failure after it); ``superseded``: what a commit that
    another run overtook does instead of raising its ConflictError (raised, without one)."""
    config, client, site, base = where.config, where.client, where.site, run.base
    parts = index_parts(config, run.parts, base, now)
    users = run.users
    entry, data = entry_of(config, parts, run.single, base.users if users is None else users.index)
    strays: tuple[str, ...] = ()
    if users is None:
        robots = RobotsUpdate(base.robots)
        named = (base.users, base.found, base.robots)
    else:
        robots = robots_update(config, client, site, entry, users.robots, base.robots)
        named = (tuple(users.index), tuple(users.found), robots.lines)
        strays = tuple(find_strays(where, base, now))
    digest = stored_digest(data)
    published = Publication(run.plan, run.inputs, parts, run.states, entry, digest, *named)
    if before is not None:
        before()
    owners = file_owners(where.outputs)  # (a deletion asks them too: writing.ownbytes)
    commit = ShardCommit(base, published, data, strays, run.removed, owners)
    try:
        committed = commit_and_go_live(client, site, where.store, commit, run.live, now, result)
    except ConflictError:
        if superseded is None:
            raise
        superseded()
    write_robots(robots, result)
    return committed


# Decided before the commit, written after it (robots.txt names the entry file, live only then):
# the lines sitemill writes for the user's sitemaps only robots.txt may name are recorded in the
# manifest it commits, so that a later run removes those it no longer wants and never a line the
# user wrote (sitemill.robots.lines). A run that does not rewrite robots.txt keeps the record.
@dataclass(frozen=True, slots=True)
class RobotsUpdate:
    """robots.txt as the run rewrites it after its commit (None: as it is), and the lines
    sitemill wrote there for the user's sitemaps (the manifest's record)."""

    lines: tuple[str, ...]
    sink: S3Sink | None = None
    data: bytes | None = None


def robots_update(
    config: Config,
    client: S3Client,
    site: BucketSite,
    entry: str,
    others: Sequence[str],
    written: Sequence[str],
) -> RobotsUpdate:
    """robots.txt with the Sitemap line of the entry file, then ``others`` (the user's
    sitemaps only robots.txt may name), when sitemill maintains it; ``written``: the lines
    the last manifest records (replaced; every other line stays)."""
    if not config.robots_txt:
        return RobotsUpdate(tuple(written))
    sink = S3Sink(client, site.bucket, site.root, cache_control=site.cache_control)
    users = UserSitemaps(robots_before=frozenset(written))
    data = new_robots(sink, config, [config.base_url + entry, *others], None, users)
    return RobotsUpdate(tuple(users.robots_written or ()), sink, data)


def write_robots(update: RobotsUpdate, result: WriteResult) -> None:
    """Write robots.txt once the commit is live (in place, conditional on the version read)."""
    if update.sink is None or update.data is None:
        return
    if update.sink.put(ROBOTS_TXT, update.data, content_type=content_type(ROBOTS_TXT)):
        result.written.append(ROBOTS_TXT)
