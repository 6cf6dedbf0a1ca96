"""The files of one distributed rebuild, under the partitioned state's prefix."""
# See docs/distributed.md, Plan: run.json, shards.json, summaries/, parts/ and verdict.json under
# ``runs/<run>/``. Every file is read back bounded and checked: a run's files are input.

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import SinkError, StateError
from sitemill.filenames.outputs import stored_digest
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.shards.plan import MAX_SHARDS, shard_id
from sitemill.sinks.s3conditional import Headers, put_object
from sitemill.sources.s3 import describe_error, list_objects, read_missing_as_none
from sitemill.state.jsondecode import load_json_text

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

# A Step Functions execution name: 1-80 characters of letters, digits, "-" and "_".
# https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html
RUN_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,80}")
_JSON: Final = "application/json"
_RUN_LIMIT: Final = 64 * 1024 * 1024  # run.json names up to 50,000 boundaries of 1,024 bytes
_SMALL_LIMIT: Final = 4 * 1024 * 1024  # a summary: one shard's parts (a few, each ~300 bytes)


@dataclass(frozen=True, slots=True)
class Item:
    """One render item: shards of the plan from ``afters[0]`` to ``last`` (exclusive of the
    key range after it; None: open-ended), and where their keys come from: a LIST of the
    range, or (``group`` set) the fragments the shuffle wrote for that group."""

    run: str
    afters: tuple[str, ...]
    last: str | None
    group: int | None = None

    @property
    def shard(self) -> str:
        return shard_id(self.afters[0])


def item_to_json(item: Item) -> dict[str, Any]:
    value: dict[str, Any] = {"run": item.run, "shard": item.shard, "afters": list(item.afters)}
    value["last"] = item.last
    if item.group is not None:
        value["group"] = item.group
    return value


def item_from_json(value: object) -> Item:
    """A render item as the state machine hands it over (checked: it names keys to list)."""
    if not isinstance(value, dict):
        raise StateError("a render item is not a table")
    run, afters, last, group = (value.get(k) for k in ("run", "afters", "last", "group"))
    if not isinstance(run, str) or not RUN_NAME.fullmatch(run):
        raise StateError("a render item names no valid run")
    if (
        not isinstance(afters, list)
        or not 0 < len(afters) <= MAX_SHARDS
        or not all(_is_key(after, empty=True) for after in afters)
    ):
        raise StateError("a render item names no valid shard boundaries")
    if last is not None and not _is_key(last, empty=False):
        raise StateError("a render item names no valid last key")
    if group is not None and not (isinstance(group, int) and 0 <= group < MAX_SHARDS):
        raise StateError("a render item names no valid group")
    if value.get("shard") != shard_id(afters[0]):
        raise StateError("a render item's shard does not match its boundary")
    return Item(run, tuple(afters), last, group)


def _is_key(value: object, *, empty: bool) -> bool:
    return (
        isinstance(value, str)
        and (empty or bool(value))
        and len(value.encode("utf-8", "surrogateescape")) <= MAX_KEY_BYTES
    )


class RunFiles:
    """The files of run ``run`` in the state bucket."""

    def __init__(self, client: S3Client, bucket: str, state_prefix: str, run: str) -> None:
        if not RUN_NAME.fullmatch(run):
            raise StateError(f"{run[:100]!r} is not a run name (1-80 of A-Z a-z 0-9 - _)")
        self.client, self.bucket, self.run = client, bucket, run
        self.prefix = f"{state_prefix}runs/{run}/"

    @property
    def shards_key(self) -> str:
        return self.prefix + "shards.json"

    def key(self, name: str) -> str:
        return self.prefix + name

    def put_json(self, name: str, value: object) -> None:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        self.put(name, text.encode("ascii"), _JSON)

    def put(self, name: str, data: bytes, content_type: str) -> None:
        put_object(
            self.client,
            self.bucket,
            self.key(name),
            data,
            digest=bytes.fromhex(stored_digest(data)),
            headers=Headers(content_type),
        )

    def get(self, name: str, limit: int = _SMALL_LIMIT) -> bytes | None:
        """A run file's bytes (None: there is none), read no further than ``limit``."""
        return read_missing_as_none(self.client, self.bucket, self.key(name), limit=limit)

    def get_json(self, name: str, *, limit: int = _SMALL_LIMIT) -> object | None:
        data = self.get(name, limit)
        if data is None:
            return None
        value: object = load_json_text(data, max_numbers=MAX_SHARDS * 8)
        return value

    def names(self, folder: str) -> list[str]:
        """The names of the run files under ``folder/`` (one LIST per 1,000)."""
        start = self.key(folder + "/")
        return [obj["Key"][len(start) :] for obj in list_objects(self.client, self.bucket, start)]

    def get_run(self) -> object:
        value = self.get_json("run.json", limit=_RUN_LIMIT)
        if value is None:
            raise StateError(f"run {self.run} has no run.json: was it planned?")
        return value

    def copy_part(
        self, name: str, bucket: str, key: str, *, content_type: str, cache: str | None
    ) -> None:
        """Publish a staged file: a copy inside S3 (no bytes pass through the reducer)."""
        extra: dict[str, Any] = {"CacheControl": cache} if cache else {}
        try:
            self.client.copy_object(
                Bucket=bucket,
                Key=key,
                CopySource={"Bucket": self.bucket, "Key": self.key("parts/" + name)},
                MetadataDirective="REPLACE",
                ContentType=content_type,
                **extra,
            )
        except (ClientError, BotoCoreError) as exc:
            raise SinkError(f"cannot publish {name}: {describe_error(exc)}") from exc
