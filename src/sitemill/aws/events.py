"""Read the events the Lambda receives: S3 notifications, SQS batches, EventBridge, rebuilds."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import unquote_plus

from sitemill.config.values import parse_bool
from sitemill.errors import ConfigError, EventError

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

    @property
    def named_bucket(self) -> str | None:
        """The bucket the invocation names: a manual rebuild's, or the one all its changes
        come from (for the summary of a run that failed before choosing one)."""
        buckets = {change.bucket for change in self.changes}
        return self.bucket or (buckets.pop() if len(buckets) == 1 else None)


def is_check_event(event: object) -> bool:
    """``{"action": "check"}``: sitemill.aws.check answers it, not the router."""
    return isinstance(event, Mapping) and event.get("action") == "check"


def is_diff_event(event: object) -> bool:
    """``{"action": "diff"}``: sitemill.aws.diff answers it, not the router."""
    return isinstance(event, Mapping) and event.get("action") == "diff"


def own_bucket(event: Mapping[str, Any], configured: str | None, verb: str) -> str:
    """The function's own bucket (SITEMILL_BUCKET, the stack's) for a check or a diff
    (``verb``: what the function does with it): an event that names another is an error
    before any S3 call (its reader may not read another site's record)."""
    if not configured:
        raise EventError(f"no bucket: set SITEMILL_BUCKET (the function {verb} its own bucket)")
    named = event.get("bucket")
    if named is not None and named != configured:
        raise EventError(
            f"this function {verb} {configured} (SITEMILL_BUCKET) only, not {named[:100]!r}"
        )
    return configured


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
        except (ValueError, RecursionError, EventError) as exc:
            trigger.bad_messages[message_id] = _why(exc)
            continue
        trigger.changes.extend(message.changes)
        trigger.ignored.update(message.ignored)
        trigger.records += message.records
    return trigger


def _why(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"the body is not JSON ({exc.msg} at character {exc.pos})"
    if isinstance(exc, RecursionError):
        return "the body is nested too deep to read"
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
        raise EventError(
            f'unknown action {body.get("action")!r}: the actions are "rebuild", "check" and "diff"'
        )
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


def unreadable_batch(bad_messages: Mapping[str, str]) -> str:
    """How many messages could not be read, and why the first could not."""
    message_id, why = next(iter(bad_messages.items()))
    if len(bad_messages) == 1:
        return f"malformed event: SQS message {message_id} cannot be read: {why}"
    return (
        f"malformed event: none of the {len(bad_messages)} SQS messages can be read; "
        f"the first, {message_id}: {why}"
    )
