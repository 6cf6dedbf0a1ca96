"""The base URL a state was written at: kept, checked when read, and a move said once with
the pending IndexNow URLs moved along."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from sitemill.state.model import PageRecord, State, dump_state
from sitemill.state.parse import parse_state
from sitemill.state.pending import rebase_pending
from sitemill.state.start import base_move_warning, start_state

OLD, NEW = "http://user.github.io/", "https://user.github.io/project/"


class Store:
    where = "sitemill-state.json.gz"

    def __init__(self, data: bytes | None) -> None:
        self.data = data

    def read(self) -> bytes | None:
        return self.data

    def write(self, data: bytes) -> bool:
        self.data = data
        return True


def with_base(value: Any) -> bytes:
    document = json.loads(gzip.decompress(dump_state(State())))
    document["base_url"] = value
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def test_the_base_url_round_trips_and_is_left_out_when_unknown() -> None:
    state = State({"a.html": PageRecord(None, None, "f" * 32, "2024-01-02T03:04:05+00:00")})
    state.base_url = NEW
    assert parse_state(dump_state(state)) == state
    assert "base_url" not in json.loads(gzip.decompress(dump_state(State())))


@pytest.mark.parametrize(
    "value", [None, 7, "", "ftp://example.com/", "https://example.com", "https://a b/", ["x"]]
)
def test_a_base_url_of_another_shape_is_none(value: Any) -> None:
    assert parse_state(with_base(value)).base_url is None


def test_a_move_is_said_naming_both_and_pending_urls_move_along() -> None:
    state = State(base_url=OLD, pending={OLD + "a.html": "changed", "https://x.org/b": "added"})
    start = start_state(Store(dump_state(state)), None, base_url=NEW)
    assert start.warnings == [base_move_warning(OLD, NEW)]
    assert f"every URL moved from {OLD} to {NEW}" in start.warnings[0]
    assert start.state.pending == {NEW + "a.html": "changed", "https://x.org/b": "added"}


@pytest.mark.parametrize(("before", "now"), [(NEW, NEW), (None, NEW), (OLD, None)])
def test_no_move_no_word(before: str | None, now: str | None) -> None:
    start = start_state(Store(dump_state(State(base_url=before))), None, base_url=now)
    assert start.warnings == []
    assert base_move_warning(before, now) is None


def test_rebased_leaves_a_table_alone_without_a_move() -> None:
    pending = {OLD + "a.html": "added"}
    assert rebase_pending(pending, None, NEW) == pending
    assert rebase_pending(pending, OLD, OLD) == pending
    assert rebase_pending(pending, OLD, NEW) == {NEW + "a.html": "added"}
