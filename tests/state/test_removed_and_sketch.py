"""The state keeps each page's resemblance sketch and the URLs the last build removed, checked."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.state.model import PageRecord, State, dump_state
from sitemill.state.parse import parse_state as load_state
from sitemill.state.removedurls import MAX_REMOVED, RemovedUrl

SKETCH = sketch_text(" ".join(f"word{n}" for n in range(40)))


def round_trip(state: State) -> State:
    return load_state(dump_state(state))


def document(state: State) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(dump_state(state)))
    return loaded


def test_a_sketch_is_kept_beside_its_fingerprint() -> None:
    state = State(pages={"a.html": PageRecord(None, None, "f" * 32, "2024-01-01", sketch=SKETCH)})
    assert round_trip(state).pages["a.html"].sketch == SKETCH
    assert document(state)["pages"]["a.html"]["sketch"] == SKETCH


@pytest.mark.parametrize("sketch", ["1" + "A" * 85, 7, "x" * 87, ["1"]])
def test_a_value_that_is_no_sketch_is_dropped(sketch: object) -> None:
    data = document(State(pages={"a.html": PageRecord(None, None, "f" * 32, "2024-01-01")}))
    data["pages"]["a.html"]["sketch"] = sketch
    loaded = load_state(gzip.compress(json.dumps(data).encode()))
    assert loaded.pages["a.html"].sketch is None and loaded.pages["a.html"].fingerprint


def test_removed_urls_round_trip_in_url_order() -> None:
    removed = {
        "https://example.org/b.html": RemovedUrl("gone"),
        "https://example.org/a.html": RemovedUrl("renamed", "https://example.org/x/a/"),
    }
    state = State(removed=removed)
    assert round_trip(state).removed == removed
    assert list(document(state)["removed"]) == sorted(removed)
    assert "removed" not in document(State())  # (none: not written)


@pytest.mark.parametrize(
    "record",
    [
        {"ftp://example.org/a": {"verdict": "gone"}},
        {"https://example.org/a": {"verdict": "vanished"}},
        {"https://example.org/a": {"verdict": "renamed", "target": "javascript:alert(1)"}},
        {"https://example.org/a\n": {"verdict": "gone"}},
        {"https://example.org/" + "a" * 3000: {"verdict": "gone"}},
        {"https://example.org/a": "gone"},
        ["https://example.org/a"],
    ],
)
def test_a_removed_record_that_is_not_one_is_dropped(record: object) -> None:
    data = document(State())
    data["removed"] = record
    assert load_state(gzip.compress(json.dumps(data).encode())).removed == {}


def test_a_removed_record_longer_than_the_bound_is_dropped_whole() -> None:
    data = document(State())
    data["removed"] = {
        f"https://example.org/{n}": {"verdict": "gone"} for n in range(MAX_REMOVED + 1)
    }
    assert load_state(gzip.compress(json.dumps(data).encode())).removed == {}
