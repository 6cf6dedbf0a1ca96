"""Read the events the Lambda receives: S3 notifications, SQS batches, EventBridge, rebuilds."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import unquote_plus

from sitemill.config.values import parse_bool
from sitemill.errors import ConfigError, EventError
from sitemill.outputs import ENTRY_XML, STAGING_NAME, STATE_NAME, is_own_name

# S3 notification event names that change what a bucket holds: an object appears (or is
# replaced), or it goes away (a delete, a delete marker, a lifecycle expiration).
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-how-to-event-types-and-destinations.html
_CREATION_EVENTS: Final = ("ObjectCreated:",)
_DELETION_EVENTS: Final = ("ObjectRemoved:", "LifecycleExpiration:")
# EventBridge reports lifecycle expirations as "Object Deleted" too.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html
_EVENTBRIDGE_DELETED: Final = {"Object Created": False, "Object Deleted": True}
_TEST_EVENT: Final = "s3:TestEvent"
_REBUILD_KEYS: Final = frozenset({"action", "bucket", "dry_run"})


@dataclass(frozen=True, slots=True)
class ObjectChange:
    """One object created (or replaced) or deleted, with its key decoded."""

    bucket: str
    key: str
    deleted: bool = False


@dataclass
class Trigger:
    """What one invocation asks for: the changes it reports, or an explicit rebuild."""

    from_sqs: bool = False
    rebuild: bool = False
    bucket: str | None = None  # the bucket a manual rebuild names
    dry_run: bool = False
    changes: list[ObjectChange] = field(default_factory=list)
    message_ids: list[str] = field(default_factory=list)
    bad_messages: dict[str, str] = field(default_factory=dict)  # messageId -> why
    ignored: Counter[str] = field(default_factory=Counter)
    records: int = 0

    @property
    def readable_messages(self) -> int:
        """How many of an SQS batch's messages could be read."""
        return len(set(self.message_ids) - self.bad_messages.keys())


def parse_event(event: object) -> Trigger:
    """Classify an invocation's event; raises EventError for a shape sitemill does not know."""
    if not isinstance(event, Mapping):
        raise EventError(f"the event is a JSON {type(event).__name__}, not an object")
    records = event.get("Records")
    if isinstance(records, list) and records and _is_sqs(records[0]):
        return _parse_sqs(records)
    trigger = Trigger()
    _read_body(event, trigger)
    return trigger


def _is_sqs(record: object) -> bool:
    return isinstance(record, Mapping) and record.get("eventSource") == "aws:sqs"


def _parse_sqs(records: list[Any]) -> Trigger:
    trigger = Trigger(from_sqs=True)
    for number, record in enumerate(records):
        if not isinstance(record, Mapping) or not isinstance(record.get("messageId"), str):
            raise EventError(f"Records[{number}] of the SQS batch has no messageId")
        message_id = record["messageId"]
        trigger.message_ids.append(message_id)
        # A message counts whole or not at all: one that fails part-way is retried (then
        # dead-lettered), so the records read before the failure must not count now.
        message = Trigger(from_sqs=True)
        try:
            body = json.loads(str(record.get("body", "")))
            _read_body(body, message, from_queue=True)
        except (ValueError, EventError) as exc:
            trigger.bad_messages[message_id] = _why(exc)
            continue
        trigger.changes.extend(message.changes)
        trigger.ignored.update(message.ignored)
        trigger.records += message.records
    return trigger


def _why(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"the body is not JSON ({exc.msg} at character {exc.pos})"
    return str(exc)


def _read_body(body: object, trigger: Trigger, *, from_queue: bool = False) -> None:
    """Add what one event (direct, or an SQS message's body) says to ``trigger``."""
    if not isinstance(body, Mapping):
        raise EventError(f"the event is a JSON {type(body).__name__}, not an object")
    if "action" in body and not from_queue:  # a queued dry run must not mute real changes
        _read_rebuild(body, trigger)
    elif isinstance(body.get("Records"), list):
        for number, record in enumerate(body["Records"]):
            trigger.records += 1
            _read_s3_record(record, f"Records[{number}]", trigger)
    elif body.get("source") == "aws.s3" and "detail-type" in body:
        trigger.records += 1
        _read_eventbridge(body, trigger)
    elif body.get("Event") == _TEST_EVENT:
        # S3 sends it once when a notification target is configured; nothing changed.
        trigger.records += 1
        trigger.ignored["test_event"] += 1
    else:
        keys = ", ".join(sorted(str(key) for key in body)[:8]) or "none"
        raise EventError(
            "not an S3 notification, EventBridge S3 event, s3:TestEvent or "
            f'{{"action": "rebuild"}} (top-level keys: {keys})'
        )


def _read_rebuild(body: Mapping[str, Any], trigger: Trigger) -> None:
    if body.get("action") != "rebuild":
        raise EventError(f'unknown action {body.get("action")!r}: the only one is "rebuild"')
    unknown = sorted(set(body) - _REBUILD_KEYS)
    if unknown:
        # A typo such as "dryrun" must not turn a preview into a real write.
        raise EventError(
            f"unknown key {unknown[0]!r} in a rebuild event (known: action, bucket, dry_run)"
        )
    bucket = body.get("bucket")
    if bucket is not None and (not isinstance(bucket, str) or not bucket.strip()):
        raise EventError('"bucket" must be a non-empty string')
    trigger.rebuild = True
    trigger.bucket = bucket.strip() if bucket else trigger.bucket
    try:
        dry_run = parse_bool("dry_run", body.get("dry_run", False))
    except ConfigError as exc:
        raise EventError(str(exc)) from exc
    trigger.dry_run = trigger.dry_run or dry_run


def _read_s3_record(record: object, where: str, trigger: Trigger) -> None:
    if not isinstance(record, Mapping):
        raise EventError(f"{where} is not an object")
    if record.get("eventSource") != "aws:s3":
        raise EventError(f"{where}.eventSource is {record.get('eventSource')!r}, not 'aws:s3'")
    name = _text(record, ("eventName",), where)
    if name == _TEST_EVENT:
        trigger.ignored["test_event"] += 1
        return
    bucket = _text(record, ("s3", "bucket", "name"), where)
    key = _text(record, ("s3", "object", "key"), where)
    deleted = name.startswith(_DELETION_EVENTS)
    if not deleted and not name.startswith(_CREATION_EVENTS):
        trigger.ignored["other_event"] += 1
        return
    # Notification keys are URL-encoded with spaces as "+" ("red flower.jpg" arrives as
    # "red+flower.jpg"), so unquote_plus, not unquote: a literal "+" arrives as "%2B".
    # https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-content-structure.html
    trigger.changes.append(ObjectChange(bucket, unquote_plus(key), deleted=deleted))


def _read_eventbridge(body: Mapping[str, Any], trigger: Trigger) -> None:
    deleted = _EVENTBRIDGE_DELETED.get(str(body.get("detail-type")))
    if deleted is None:
        trigger.ignored["other_event"] += 1
        return
    bucket = _text(body, ("detail", "bucket", "name"), "event")
    # EventBridge gives the key as it is, not encoded.
    # https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html
    key = _text(body, ("detail", "object", "key"), "event")
    trigger.changes.append(ObjectChange(bucket, key, deleted=deleted))


def _text(data: Mapping[str, Any], path: tuple[str, ...], where: str) -> str:
    value: Any = data
    for part in path:
        value = value.get(part) if isinstance(value, Mapping) else None
    if not isinstance(value, str) or not value:
        raise EventError(f"{where}.{'.'.join(path)} is missing or not a string")
    return value


@dataclass
class Selection:
    """The changes that matter for one bucket's sitemaps, and why the others do not."""

    buckets: set[str] = field(default_factory=set)
    relevant: int = 0
    sitemap_deletions: int = 0  # of the relevant: deletions of sitemill's own files
    paths: list[str] = field(default_factory=list)  # the relevant pages' paths (not own files)
    own_deleted: list[str] = field(default_factory=list)  # sitemill's own files deleted
    own_written: list[ObjectChange] = field(default_factory=list)  # sitemap.xml written
    ignored: Counter[str] = field(default_factory=Counter)


def select_changes(
    changes: Iterable[ObjectChange],
    *,
    bucket: str | None,
    root: str,
    affects_sitemaps: Callable[[str], bool],
) -> Selection:
    """Keep changes in ``bucket`` (any when None) under ``root`` that can change a sitemap.

    Writing sitemill's own outputs (the state too) is left out, so that a rebuild cannot
    trigger another. Deleting a sitemap counts: ``aws s3 sync --delete`` of a build without
    sitemaps removes the live ones, and the rebuild puts them back. A deletion sitemill made
    itself (a stale child) costs one more rebuild, which finds everything in place, so
    writes and deletes nothing, and the chain ends there. Deleting the state changes no
    sitemap (sitemill never deletes it; the next rebuild reads every page and writes it), nor
    does deleting a staging copy (a publish deletes its own once the final index is live).
    """
    selection = Selection()
    for change in changes:
        path = change.key[len(root) :]
        own = "/" not in path and is_own_name(path)
        if bucket is not None and change.bucket != bucket:
            reason = "other_bucket"
        elif not change.key.startswith(root):
            reason = "outside_prefix"
        elif own and not change.deleted:
            reason = "own_output"  # (sitemap.xml: unless another writer's: aws.overwritten)
            if path == ENTRY_XML:
                selection.own_written.append(change)
        elif own and path == STATE_NAME:
            reason = "state_deleted"
        elif own and STAGING_NAME.fullmatch(path):
            reason = "staging_deleted"  # a copy no build needs any more: no sitemap changed
        elif not own and not affects_sitemaps(path):
            reason = "not_a_page"
        else:
            selection.relevant += 1
            selection.sitemap_deletions += int(own)
            (selection.own_deleted if own else selection.paths).append(path)
            selection.buckets.add(change.bucket)
            continue
        selection.ignored[reason] += 1
    return selection


def unreadable_batch(bad_messages: Mapping[str, str]) -> str:
    """How many messages could not be read, and why the first could not."""
    message_id, why = next(iter(bad_messages.items()))
    if len(bad_messages) == 1:
        return f"malformed event: SQS message {message_id} cannot be read: {why}"
    return (
        f"malformed event: none of the {len(bad_messages)} SQS messages can be read; "
        f"the first, {message_id}: {why}"
    )
