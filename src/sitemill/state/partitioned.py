"""A sharded bucket's state, partitioned: a manifest and one immutable object per shard."""
# See docs/s3-lambda.md, Sharded buckets: ``index-state.json`` (the manifest: shards.manifest),
# whose one conditional write commits a run, and ``shards/<id>-<version>.json.gz``, immutable, named
# by content, trusted only once a manifest names them; under the state location's key without its
# ``.json.gz`` (the stack's IAM policy covers it; no page can name it). The manifest also keeps the
# last removed URLs (state.removedurls), private, written by the commit itself.

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.entries import Page
from sitemill.errors import StateError
from sitemill.filenames.outputs import content_type, stored_digest
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.shards.manifest import STATE_SUFFIX, IndexState, state_version
from sitemill.shards.manifestfile import manifest_from_json, manifest_to_json
from sitemill.shards.partition import StateRef
from sitemill.shards.plan import MAX_SHARDS
from sitemill.sinks.s3conditional import Headers, put_object
from sitemill.sources.s3 import describe_error
from sitemill.state.jsondecode import load_json_text
from sitemill.state.model import State
from sitemill.state.removedurls import RemovedUrl, removed_from_json, removed_to_json
from sitemill.state.s3 import S3StateStore
from sitemill.state.shardstate import ShardState, dump_shard_state, parse_shard_state
from sitemill.state.start import Start, base_move_warning, start_state

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

_SMALL_LIMIT: Final = 16 * 1024 * 1024  # index-state.json: 50,000 children fit
_STATE_TYPE: Final = content_type("x.gz")
# Characters of the removed URLs (and their targets) a manifest keeps at most, the first in URL
# order: 10,000 URLs of ordinary length fit; long ones never crowd out the children.
MAX_REMOVED_CHARS: Final = 1024 * 1024


class PartitionedStore:
    """The objects of one partitioned state, as one run sees them: ``read_manifest`` once per
    attempt, ``read_shard`` of the states that manifest names, ``commit`` of the next one."""

    def __init__(
        self,
        client: S3Client,
        bucket: str,
        prefix: str,
        *,
        legacy: str | None = None,
        base_url: str | None = None,
    ) -> None:
        """``legacy``: the key of the one state object earlier runs kept (read, never written);
        ``base_url``: the run's, kept in the manifest it commits (a move is said once)."""
        self.client, self.bucket, self.prefix = client, bucket, prefix
        self.base_url = base_url
        self.legacy = None if legacy is None else S3StateStore(client, bucket, legacy)
        self.where = f"s3://{bucket}/{prefix}"
        self.index_store = S3StateStore(
            client, bucket, prefix + "index-state.json", limit=_SMALL_LIMIT
        )
        self.manifest = IndexState()  # the committed manifest read last (empty: none)
        # The URLs its run removed (kept until a run removes others: jobs.removedpages).
        self.removed: dict[str, RemovedUrl] = {}
        self.trusted = False  # whether one was read and trusted
        self.loaded = False  # whether it was read
        self.warnings: list[str] = []

    def pending_store(self) -> S3StateStore:
        """The IndexNow URLs not sent yet (sitemill.indexnow.pending.ObjectPending)."""
        return S3StateStore(self.client, self.bucket, self.prefix + "indexnow.json.gz")

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self.warnings.append(message)

    @property
    def etag(self) -> str | None:
        """The ETag of the manifest read last (None: there was none)."""
        return self.index_store.etag

    def read_manifest(self, now: datetime | None = None) -> IndexState:
        """The committed manifest (an empty one when there is none or it cannot be trusted:
        a warning, and the run is a full rebuild; its commit is still conditional on the
        version read, so that a racing run's commit is never overwritten). One that cannot
        be read now (the network, a throttle) is a SinkError: the run fails and is redone,
        never taken for a first run (it would forget every date)."""
        self.manifest, self.trusted, self.loaded = IndexState(), False, True
        self.removed = {}
        data = self.index_store.read()
        if data is None:
            return self.manifest
        try:
            value = load_json_text(data, max_numbers=4 * MAX_SHARDS + 64)
            self.manifest = manifest_from_json(value, now)
        except StateError as exc:
            self._warn(f"{self.where}index-state.json is ignored (a full rebuild follows): {exc}")
            return self.manifest
        self.trusted = True
        self.removed = removed_from_json(value.get("removed"))  # (checked; absent: none)
        return self.manifest

    def say_move(self) -> None:
        """Warn when the manifest read was committed at another base URL than this run's
        (by the step that starts a run: once, not by each of a distributed run's workers)."""
        moved = base_move_warning(self.manifest.base_url, self.base_url)
        if moved is not None:
            self._warn(moved)

    def ensure_manifest(self, now: datetime | None = None) -> IndexState:
        """The manifest, read once (a worker of a distributed run reads the run's base)."""
        return self.manifest if self.loaded else self.read_manifest(now)

    def commit(self, manifest: IndexState, removed: dict[str, RemovedUrl] | None = None) -> bool:
        """Write the next manifest over the one read (If-Match; If-None-Match when none):
        True written, False unchanged. A ConflictError: another run committed meanwhile.
        ``removed``: the URLs the run removed (None: those of the manifest read, kept)."""
        manifest = replace(manifest, base_url=self.base_url or manifest.base_url)
        kept = keep_removed(self.removed if removed is None else removed)
        document = manifest_to_json(manifest)
        if kept:  # (absent when none: a manifest's bytes as before)
            document["removed"] = removed_to_json(kept)
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        written = self.index_store.write((text + "\n").encode("ascii"))
        self.manifest, self.trusted, self.removed = manifest, True, kept
        return written

    def read_shards(self, threads: int = 1) -> list[ShardState | None]:
        """The state of every shard of the plan the manifest read names (read_shard: None
        where one names none or cannot be trusted), in the plan's order: ``threads`` at a
        time, or one after the other in this thread (the check's)."""
        ids = () if self.manifest.plan is None else self.manifest.plan.ids
        if threads <= 1:
            return [self.read_shard(shard) for shard in ids]
        with ThreadPoolExecutor(max_workers=threads) as pool:
            return list(pool.map(self.read_shard, ids))

    def merged_start(self, threads: int) -> tuple[Start, dict[str, Page]]:
        """What a run over the whole site starts from, the manifest read: every shard's
        remembered pages in one state (merged_states), so that no unchanged head is read again,
        and every shard's listing, by path; with no plan yet, the one state object of earlier
        runs (else a first run)."""
        if self.manifest.plan is None:
            if self.legacy is None:
                return Start(State(), first_run=True), {}
            # (its warnings are the start's: the run reports them, as any start's)
            return start_state(self.legacy, None, base_url=self.base_url), {}
        shards = self.read_shards(threads)
        state, listing = merged_states(shards)
        return Start(state, first_run=not any(shards)), listing

    def state_name(self, shard: str) -> tuple[str, str | None] | None:
        """The key (under the prefix) of a shard's state the manifest names, with its digest
        (None: a version-1 state under its fixed name, unchecked); None when it names none."""
        ref = self.manifest.states.get(shard)
        if ref is not None:
            return ref.name, ref.digest
        plan = self.manifest.plan
        if self.manifest.legacy and plan is not None and shard in plan.ids:
            return f"shards/{shard}{STATE_SUFFIX}", None
        return None

    def read_shard(self, shard: str, now: datetime | None = None) -> ShardState | None:
        """The state the manifest names for ``shard``, checked: its bytes are the ones the
        manifest names, its listing lies in the shard's range; None (a warning) otherwise."""
        found = self.state_name(shard)
        plan = self.manifest.plan
        if found is None or plan is None:
            return None
        name, digest = found
        # (a state that cannot be read now is a SinkError: the run is redone, dates kept)
        data = S3StateStore(self.client, self.bucket, self.prefix + name).read()
        try:
            if data is None:
                raise StateError("it is missing")
            if digest is not None and stored_digest(data) != digest:
                raise StateError("its bytes are not the ones the index-state names")
            index = plan.ids.index(shard)
            return parse_shard_state(data, now, bounds=plan.bounds(index))
        except StateError as exc:
            self._warn(f"{self.where}{name} is ignored: {exc}")
            return None

    def write_state(
        self, state: ShardState, retired: Collection[str], *, known: StateRef | None = None
    ) -> StateRef:
        """Put a shard's state up as a new object, named by its content (past the names being
        retired): no reader trusts it before a manifest names it. Unconditional: whatever a
        name holds, it is these bytes. Nothing is written when ``known`` (the state the last
        manifest names) is this one already."""
        data = dump_shard_state(state)
        digest = stored_digest(data)
        name = state_version(state.shard, digest, retired)
        if known == StateRef(name, digest):
            return known
        put_object(
            self.client,
            self.bucket,
            self.prefix + name,
            data,
            digest=bytes.fromhex(digest),
            headers=Headers(_STATE_TYPE),
            label=f"the shard state {self.where}{name}",
        )
        return StateRef(name, digest)

    def write_states(
        self, states: Sequence[ShardState], base: IndexState, threads: int = 1
    ) -> dict[str, StateRef]:
        """Each of ``states`` put up (write_state) past the names the manifest ``base``
        retires, none written again that ``base`` names already, ``threads`` at a time: each
        shard's reference, by shard id."""

        def write(state: ShardState) -> StateRef:
            return self.write_state(state, base.retired, known=base.states.get(state.shard))

        if threads <= 1:
            refs = [write(state) for state in states]
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                refs = list(pool.map(write, states))
        return {state.shard: ref for state, ref in zip(states, refs, strict=True)}

    def delete(self, name: str) -> bool:
        """Delete an object of the state location that a committed manifest retired (a
        failure is a warning: the object stays, named by nothing)."""
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self.prefix + name)
        except (ClientError, BotoCoreError) as exc:
            log.warning("cannot delete %s%s: %s", self.where, name, describe_error(exc))
            return False
        return True


def keep_removed(removed: dict[str, RemovedUrl]) -> dict[str, RemovedUrl]:
    """The removed URLs a manifest keeps: the first in URL order, MAX_REMOVED_CHARS of them."""
    kept: dict[str, RemovedUrl] = {}
    size = 0
    for url in sorted(removed):
        item = removed[url]
        size += len(url) + len(item.target or "") + 32
        if size > MAX_REMOVED_CHARS:
            break
        kept[url] = item
    return kept


def merged_states(shards: Iterable[ShardState | None]) -> tuple[State, dict[str, Page]]:
    """The shards' states in one, and their listings by path: every page's record, what each
    remembers by ETag of the objects it leaves out (``unlisted``: a run reads none again), the
    last run's changes (``changes``: what `sitemill check` asks first), the URL style they keep
    (every shard keeps the site's), the content scope, and the fingerprint version the merged
    state is read in (_merged_version). What the manifest keeps (the base URL, the removed URLs)
    is its reader's to add."""
    state = State()
    listing: dict[str, Page] = {}
    for shard in shards:
        if shard is not None:
            part = shard.state
            state.pages.update(part.pages)
            state.unlisted.update(part.unlisted)
            state.changes.update(part.changes)
            state.fingerprint_main = part.fingerprint_main
            state.fingerprint_version = _merged_version(state, part)
            state.url_style = state.url_style or part.url_style
            listing.update((page.path, page) for page in shard.listing)
    return state, listing


def _merged_version(merged: State, shard: State) -> int:
    """The fingerprint version a merged state is read in, with ``shard`` merged into it: the
    current one while every shard's is, else the oldest kind a shard records, outdated before
    earlier (State.outdated). Each shard state records the version its own fingerprints were
    made in, and a partial rebuild after an upgrade leaves several; one version must read them
    all, and never one newer than a shard's: an outdated shard makes the whole outdated (no page
    compared by a fingerprint this sitemill cannot make: a run dates a page whose ETag changed
    by the evidence ladder, a check does not call it stale), an earlier one makes it earlier
    (a run reads every page again and fingerprints it anew). It depends on no shard's order."""
    if merged.outdated or shard.fingerprint_version == FINGERPRINT_VERSION:
        return merged.fingerprint_version
    return shard.fingerprint_version
