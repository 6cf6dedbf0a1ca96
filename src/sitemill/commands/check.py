"""The check job: what a tree's or a bucket's last build published, checked live, then announced."""
# Reads the record the build kept (its state, and the sitemap files in the output folder or the
# digests in the bucket), checks the live site against it (sitemill.check.run), and hands IndexNow
# only the pending URLs that passed. A bucket's record is read here for every front end: a
# partitioned one (sitemill.scaleout) holds the digests and removed URLs in its manifest and its
# pages in the shard states, read one at a time; IndexNow's pending URLs are in the state, or in
# an object of their own beside a partitioned one.

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.check.problems import CheckReport
from sitemill.check.published import Published, published_from
from sitemill.check.run import CheckOptions, check_live
from sitemill.config.model import Config
from sitemill.errors import SourceError
from sitemill.filenames.groupnames import known_groups
from sitemill.filenames.outputs import STATE_NAME, is_sitemap_file, read_limit, stored_digest
from sitemill.indexnow.outcome import IndexNowOutcome, PendingStore
from sitemill.indexnow.pending import ObjectPending, StatePending, tree_pending
from sitemill.indexnow.run import deliver, pending_outcome
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.safefs import read_regular
from sitemill.state.model import State
from sitemill.state.store import SinkStateStore, StateStore, open_state_store
from sitemill.urls import url_origin
from sitemill.web.livesite import Limits, LiveSite

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.state.partitioned import PartitionedStore

NO_STATE = (
    "no sitemill state at {where}: `sitemill check` compares the live site with what the "
    "last build published (run `sitemill build` first, with the same `state`)"
)


@dataclass
class Checked:
    """A check and, when IndexNow is on, the announcement it allowed."""

    report: CheckReport
    indexnow: IndexNowOutcome | None = None

    def exit_code(self, warn_only: bool) -> int:
        """0 when the live site is what was published, or when problems only warn; else 1."""
        return 0 if self.report.ok or warn_only else 1


def check_tree(
    config: Config,
    site_dir: Path,
    out_dir: Path,
    store: StateStore | None,
    options: CheckOptions,
    limits: Limits,
    *,
    announce: bool = True,
    connect: Mapping[str, str] | None = None,
) -> Checked:
    """Check the live site against the build in ``out_dir`` (its state in ``store``, or
    beside the sitemaps); with ``announce``, send the pending URLs that passed. ``connect``:
    origins whose requests go to another server (web.livesite.LiveSite)."""
    pending = tree_pending(store, site_dir, out_dir)
    state = pending.state()
    if state is None:
        beside = isinstance(pending.store, SinkStateStore)
        where = out_dir.absolute() / STATE_NAME if beside else pending.store.where
        raise SourceError(NO_STATE.format(where=where))
    sitemaps = state.digests or _folder_digests(out_dir, state)
    # (the pending URLs are the state's, read once: pending.read() would parse it again)
    published = published_from(config, state, sitemaps, state.pending)
    published.files = site_dir
    site = LiveSite(frozenset({url_origin(config.base_url)}), limits, connect or {})
    return _checked(config, published, pending if announce else None, options, site)


def check_bucket(
    config: Config, client: S3Client, site: BucketSite, options: CheckOptions, limits: Limits
) -> Checked:
    """Check the live site against what the bucket's last run published (its state, its
    sitemap files' digests), then send the pending URLs that passed."""
    state, sitemaps, pending = _bucket_record(config, client, site)
    published = published_from(config, state, sitemaps, pending.read())
    live = LiveSite(frozenset({url_origin(config.base_url)}), limits)
    return _checked(config, published, pending, options, live)


NO_RECORD = (
    "no sitemill state for s3://{where}: `sitemill check` compares the live site with what "
    "the last run published (run `sitemill s3` or the Lambda first, with the same `state`)"
)


def _bucket_record(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[State, dict[str, str], PendingStore]:
    """The state of the bucket's last build, its sitemap files' digests by name, and where
    its pending URLs are."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        state, digests = _partitioned_record(partitioned, site)
        return state, digests, ObjectPending(partitioned.pending_store())
    pending = _one_object_pending(config, client, site)
    found = pending.state()
    if found is None:
        said = NO_RECORD.format(where=f"{site.bucket}/{site.root}")
        raise SourceError(said if config.state else said + _stack_state(site))
    return found, found.digests, pending


def _stack_state(site: BucketSite) -> str:
    """Where the S3 stack (infra/template.yaml) keeps the state it names, as the flag to pass:
    in its own state bucket, never beside the sitemaps."""
    return (
        f"; the S3 stack keeps its state in its own bucket (its StateBucketName output): "
        f"pass --state s3://<StateBucketName>/{site.bucket}/{site.root}{STATE_NAME}"
    )


def bucket_pending(config: Config, client: S3Client, site: BucketSite) -> PendingStore:
    """Where the bucket's last run keeps its pending URLs (`sitemill indexnow --bucket`)."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        return ObjectPending(partitioned.pending_store())
    return _one_object_pending(config, client, site)


def _one_object_pending(config: Config, client: S3Client, site: BucketSite) -> StatePending:
    from sitemill.jobs.bucket import state_again  # (boto's: the Action has no S3 extra)

    store, public = state_again(client, site, open_state_store(config, s3_client=lambda: client))
    return StatePending(store, public=public)


def _partitioned_record(
    partitioned: PartitionedStore, site: BucketSite
) -> tuple[State, dict[str, str]]:
    """A partitioned state's record: its shards' states in one (state.partitioned.merged_states,
    as a run starts from them), with the base URL and the removed URLs its manifest keeps, and
    the digests of the files the manifest names."""
    from sitemill.state.partitioned import merged_states  # (a partitioned state's only)

    manifest = partitioned.read_manifest()
    if not partitioned.trusted or not manifest.entry:
        raise SourceError(NO_RECORD.format(where=f"{site.bucket}/{site.root}"))
    digests = manifest.published_digests()
    state, _ = merged_states(partitioned.read_shards())
    state.base_url, state.removed = manifest.base_url, dict(partitioned.removed)
    return state, digests


def _checked(
    config: Config,
    published: Published,
    pending: PendingStore | None,
    options: CheckOptions,
    site: LiveSite,
) -> Checked:
    """The check; then, with a ``pending`` store, the announcement of what passed."""
    report = check_live(config, published, site, options)
    # (only a build with IndexNow on and a key leaves URLs pending)
    if not config.indexnow_key or pending is None:
        return Checked(report)
    return Checked(report, announce_passed(config, pending, report))


def announce_passed(
    config: Config,
    store: PendingStore,
    report: CheckReport,
    send: Callable[[IndexNowOutcome, dict[str, str]], None] | None = None,
) -> IndexNowOutcome:
    """Send the pending URLs that passed the check (with the key files it read as the
    send's evidence); the rest stay pending. ``send``: how the front end delivers the
    outcome and what the check held back (default indexnow.run.deliver)."""
    outcome = pending_outcome(config, store)
    held = outcome.hold_back(report.passed, report.key_files)
    if send is None:
        deliver(config, outcome, held=held)
    else:
        send(outcome, held)
    return outcome


def _folder_digests(out_dir: Path, state: State) -> dict[str, str]:
    """The MD5 of each sitemap file the build wrote into ``out_dir`` (a tree's state names
    its files, and the files are the record)."""
    groups = known_groups((), state.outputs)  # (the named groups' children it wrote)
    names = sorted(name for name in state.outputs if is_sitemap_file(name, groups))
    return {name: stored_digest(_read(out_dir, name)) for name in names}


def _read(out_dir: Path, name: str) -> bytes:
    try:
        return read_regular(out_dir / name, read_limit(name), whole=True, follow_symlinks=False)
    except OSError as exc:
        raise SourceError(
            f"{name} of the last build is not in {out_dir} ({exc.strerror or exc}): check "
            "from the folder the build wrote"
        ) from exc
