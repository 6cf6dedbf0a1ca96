"""Faults and second writers at a chosen S3 call, by botocore event hooks (issue 39).

A call is named by its signature: the operation, the bucket and the key (or a LIST's prefix).
A dry pass records the signatures a run makes, in the order each first occurs; a fault (or a
second writer) is then armed at one of them. Signatures, not positions: the threads of a run
interleave their calls differently from run to run, but make the same ones.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, Final

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from moto.core.botocore_stubber import BotocoreStubber

Signature = tuple[str, str, str]


# A name its content gives (sitemill.shards.manifest) differs from world to world (a page's
# date is in its shard's file): the call is the same one.
_VERSION: Final = re.compile(r"(r[a-z2-7]{8})-[a-z2-7]{8}")


def signature(model: Any, params: dict[str, Any]) -> Signature:
    name = str(params.get("Key") or params.get("Prefix") or "")
    return (model.name, str(params.get("Bucket", "")), _VERSION.sub(r"\1-*", name))


class Calls:
    """The S3 calls of one client: recorded, and each signature armed at most once."""

    def __init__(self, client: Any) -> None:
        self.seen: list[Signature] = []
        self.armed: dict[Signature, Callable[[], None]] = {}
        self._lock = threading.Lock()
        self._client = client
        client.meta.events.register("before-parameter-build.s3.*", self._before)

    def stop(self) -> list[Signature]:
        """Stop recording; the calls seen."""
        self._client.meta.events.unregister("before-parameter-build.s3.*", self._before)
        return list(self.seen)

    def _before(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        call = signature(model, params)
        with self._lock:
            if call not in self.seen:
                self.seen.append(call)
            action = self.armed.pop(call, None)
        if action is not None:
            action()

    def arm(self, call: Signature, action: Callable[[], None]) -> None:
        self.armed[call] = action

    def assert_fired(self) -> None:
        """Every armed call was made (else the test proved nothing)."""
        assert not self.armed, f"never made: {sorted(self.armed)}"


def fail() -> None:
    """The network or the service fails this call (as botocore reports it after retries)."""
    raise EndpointConnectionError(endpoint_url="https://s3.amazonaws.com/injected")


def precondition_failed() -> None:
    """A conditional write refused: another writer got there first."""
    raise ClientError(
        {
            "Error": {"Code": "PreconditionFailed", "Message": "injected"},
            "ResponseMetadata": {"HTTPStatusCode": 412},
        },
        "PutObject",
    )


def one_request_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """S3 serves each request whole; moto's in-process backend does not when threads share
    it (a GET of an object another PUT replaces saw its buffer closed): one at a time, until
    the test ends."""
    lock = threading.RLock()
    process = BotocoreStubber.process_request

    def serialised(self: BotocoreStubber, request: Any) -> Any:
        with lock:
            return process(self, request)

    monkeypatch.setattr(BotocoreStubber, "process_request", serialised)
