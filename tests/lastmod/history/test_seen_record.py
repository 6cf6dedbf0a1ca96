"""The content dates a state remembers for a later run at the same commit (history.seenrecord):
written as strings (a state holds few numbers), read back only when every part is well formed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from sitemill.lastmod.history.seenrecord import SeenHistory, seen_from_json, seen_to_json

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SEEN = "a" * 40
RECORD = SeenHistory(
    SEEN, "b" * 64, ((1_700_000_000, 1_700_000_000), (1_600_000_000, 1_700_000_000))
)


def test_a_record_reads_back_as_it_was_written() -> None:
    written = seen_to_json(RECORD)
    assert written["dates"] == ["6553f100", "5f5e1000.6553f100"]
    assert seen_from_json(written, NOW, 10) == RECORD


@pytest.mark.parametrize(
    "change",
    [
        {"seen": "HEAD"},
        {"seen": "--output=x"},
        {"seen": "A" * 40},
        {"inputs": "b" * 63},
        {"dates": ["6553f100", 1_700_000_000]},  # (a number)
        {"dates": ["6553f100.5f5e1000"]},  # (a content date after its last commit)
        {"dates": ["7fffffff"]},  # (2038: after the run)
        {"dates": ["1"]},  # (before the web)
        {"dates": ["6553f100 "]},
        {"dates": "6553f100"},
    ],
)
def test_a_record_with_anything_wrong_is_none(change: dict[str, Any]) -> None:
    assert seen_from_json({**seen_to_json(RECORD), **change}, NOW, 10) is None


def test_a_record_longer_than_a_state_holds_is_none() -> None:
    assert seen_from_json(seen_to_json(RECORD), NOW, 1) is None
