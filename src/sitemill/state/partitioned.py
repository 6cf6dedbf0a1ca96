"""A sharded bucket's state, partitioned (scale-out.md): under the state location's prefix,
``plan.json`` (the plan and the fingerprint of the global inputs), ``index-state.json`` (what
the last reducer published) and ``shards/<id>.json.gz`` (one per shard). Every object is
read bounded and written conditionally (sitemill.state.s3: If-Match the ETag read,
If-None-Match for a new key), and only when its bytes changed.

The prefix is the state location's key without its ``.json.gz``: the stack's
``s3://<state bucket>/<site>/sitemill-state.json.gz`` keeps them in
``<site>/sitemill-state/``, which its IAM policy covers and no page can name.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.model import Config, ShardsMode
from sitemill.errors import SitemillError, StateError
from sitemill.shards.evolve import plan_from_json, plan_to_json
from sitemill.shards.partition import IndexState, index_state_from_json, index_state_to_json
from sitemill.shards.plan import MAX_SHARDS, Plan
from sitemill.sources.s3 import describe_error
from sitemill.state.bounded import load_json_text
from sitemill.state.s3 import S3StateStore, parse_s3_location
from sitemill.state.shardstate import ShardState, dump_shard_state, parse_shard_state

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

PLAN_FILE_FORMAT: Final = "sitemill-partitioned-plan"
_SUFFIXES: Final = (".json.gz", ".gz", ".json")
_SMALL_LIMIT: Final = 16 * 1024 * 1024  # plan.json, index-state.json: 50,000 children fit


@dataclass(frozen=True, slots=True)
class PlanFile:
    """plan.json: the plan and the fingerprint of the inputs every shard shares (the
    configuration, robots.txt, the templates): a change to them is a full rebuild."""

    plan: Plan
    inputs: str


def partitioned_prefix(config: Config) -> tuple[str, str] | None:
    """(bucket, prefix) of the partitioned state, or None when a bucket's state is not
    partitioned: it is only in a state location of its own (never beside the public
    sitemaps: a shard state names every object of its range) and with shards not "off"."""
    if config.state is None or not config.state.startswith("s3://"):
        return None
    if config.shards is ShardsMode.OFF:
        return None
    bucket, key = parse_s3_location(config.state)
    for suffix in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
            break
    return bucket, key + "/"


class PartitionedStore:
    """The objects of one partitioned state."""

    def __init__(
        self, client: S3Client, bucket: str, prefix: str, *, legacy: str | None = None
    ) -> None:
        """``legacy``: the key of the one state object earlier runs kept (read, never written)."""
        self.client, self.bucket, self.prefix = client, bucket, prefix
        self.legacy = None if legacy is None else S3StateStore(client, bucket, legacy)
        self.where = f"s3://{bucket}/{prefix}"
        self.plan_store = S3StateStore(client, bucket, prefix + "plan.json", limit=_SMALL_LIMIT)
        self.index_store = S3StateStore(
            client, bucket, prefix + "index-state.json", limit=_SMALL_LIMIT
        )
        self._shards: dict[str, S3StateStore] = {}
        self.warnings: list[str] = []

    def pending_store(self) -> S3StateStore:
        """The IndexNow URLs not sent yet (sitemill.indexnow.pending.ObjectPending)."""
        return S3StateStore(self.client, self.bucket, self.prefix + "indexnow.json.gz")

    def shard_store(self, shard: str) -> S3StateStore:
        """The store of a shard's state: one per shard, so that a write after a read is
        conditional on the ETag that read saw, without reading again."""
        store = self._shards.get(shard)
        if store is None:
            store = S3StateStore(self.client, self.bucket, f"{self.prefix}shards/{shard}.json.gz")
            store = self._shards.setdefault(shard, store)
        return store

    def _read(self, store: S3StateStore) -> bytes | None:
        """An object's bytes, or None: none there, or it cannot be read (a warning: the run
        is then a full rebuild, which writes it again)."""
        try:
            return store.read()
        except SitemillError as exc:
            self._warn(f"{exc}; rebuilding in full")
            return None

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self.warnings.append(message)

    def write(self, write: Callable[[], bool]) -> bool | None:
        """A state write whose failure is a warning (the sitemaps are published already):
        True written, False unchanged, None failed."""
        try:
            return write()
        except SitemillError as exc:
            self._warn(f"{exc}; the next run rebuilds in full")
            return None

    def read_plan(self) -> PlanFile | None:
        """plan.json, or None (none yet; one that cannot be trusted is a warning)."""
        data = self._read(self.plan_store)
        if data is None:
            return None
        try:
            document = load_json_text(data)
            if not isinstance(document, dict) or document.get("format") != PLAN_FILE_FORMAT:
                raise StateError("not a sitemill plan file")
            inputs = document.get("inputs")
            if not isinstance(inputs, str) or len(inputs) > 64:
                raise StateError("the plan file has no fingerprint of its inputs")
            return PlanFile(plan_from_json(document.get("plan")), inputs)
        except StateError as exc:
            log.warning(
                "%splan.json is ignored (a full rebuild lays a new plan): %s", self.where, exc
            )
            return None

    def write_plan(self, plan_file: PlanFile) -> bool:
        document = {
            "format": PLAN_FILE_FORMAT,
            "inputs": plan_file.inputs,
            "plan": plan_to_json(plan_file.plan),
        }
        return self.plan_store.write(_json_bytes(document))

    def read_index(self) -> IndexState:
        """index-state.json (an empty one when there is none or it cannot be trusted)."""
        data = self._read(self.index_store)
        if data is None:
            return IndexState()
        try:
            return index_state_from_json(load_json_text(data, max_numbers=MAX_SHARDS + 64))
        except StateError as exc:
            self._warn(f"{self.where}index-state.json is ignored: {exc}")
            return IndexState()

    def write_index(self, state: IndexState) -> bool:
        return self.index_store.write(_json_bytes(index_state_to_json(state)))

    def read_shard(self, shard: str) -> ShardState | None:
        """A shard's state, or None (none, or one that cannot be trusted: a warning)."""
        data = self._read(self.shard_store(shard))
        if data is None:
            return None
        try:
            return parse_shard_state(data)
        except StateError as exc:
            self._warn(f"{self.where}shards/{shard}.json.gz is ignored: {exc}")
            return None

    def write_shard(self, shard: ShardState) -> bool:
        return self.shard_store(shard.shard).write(dump_shard_state(shard))

    def delete_shard(self, shard: str) -> None:
        """Delete a shard's state (a shard the plan no longer has); a failure is a warning."""
        key = f"{self.prefix}shards/{shard}.json.gz"
        try:
            self.client.delete_object(Bucket=self.bucket, Key=key)
        except (ClientError, BotoCoreError) as exc:
            log.warning("cannot delete s3://%s/%s: %s", self.bucket, key, describe_error(exc))


def _json_bytes(document: dict[str, Any]) -> bytes:
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return (text + "\n").encode("ascii")
