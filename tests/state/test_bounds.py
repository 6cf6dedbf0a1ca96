"""A state is input from outside (a live site's copy is whatever answers at the base URL): what
reading one may cost is bounded, and what it remembers is trusted only when it could be true."""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zlib
from datetime import UTC, datetime
from typing import Any

import pytest

from sitemill.errors import StateError
from sitemill.html.facts import FACTS_VERSION
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION
from sitemill.state import jsondecode
from sitemill.state.jsondecode import load_state_json
from sitemill.state.model import STATE_FORMAT, STATE_VERSION
from sitemill.state.parse import CLOCK_SKEW, parse_state, trusted_lastmod
from sitemill.state.start import start_state

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
HEADER = f'{{"format":"{STATE_FORMAT}","version":{STATE_VERSION},'


def gz(text: bytes) -> bytes:
    return gzip.compress(text, mtime=0)


def streamed_gzip(head: bytes, unit: bytes, count: int, tail: bytes) -> bytes:
    """``head + unit * count + tail`` gzip-compressed, never held whole in memory."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [compressor.compress(head)]
    block = unit * 100_000
    for _ in range(count // 100_000):
        parts.append(compressor.compress(block))
    parts.append(compressor.compress(unit * (count % 100_000) + tail))
    return b"".join([*parts, compressor.flush()])


# --- bounds -----------------------------------------------------------------------------------

HOSTILE = {
    "a million and one empty lists": (
        b'{"pages":[' + b"[]," * 1_000_000 + b"[]]}",
        "more than 1,000,000 containers",
    ),
    "a million and one empty objects": (
        b'{"pages":[' + b"{}," * 1_000_000 + b"{}]}",
        "more than 1,000,000 containers",
    ),
    "three million and one strings": (
        b'{"pages":[' + b'"",' * 3_000_000 + b'""]}',
        "more than 3,000,000 strings",
    ),
    "numbers": (b'{"pages":[' + b"1," * 64 + b"1]}", "more than 64 numbers"),
    "a float": (b'{"pages":{"a":{"lastmod":1e308}}}', "a number '1e308'"),
    "NaN": (b'{"pages":NaN}', "a number 'NaN'"),
    "a huge integer": (b'{"version":' + b"9" * 5000 + b"}", "more than 20 digits"),
    "nested 100,000 deep": (b'{"pages":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "too deep"),
    "UTF-8 text": ('{"pages":{"café.html":{}}}'.encode(), "not ASCII JSON text"),
    "a NUL": (b'{"pages":{"a\x00":{}}}', "not ASCII JSON text"),
    "not JSON": (b'{"pages":{', "not JSON"),
}


@pytest.mark.parametrize(("text", "problem"), HOSTILE.values(), ids=list(HOSTILE))
def test_a_hostile_document_is_one_state_error(text: bytes, problem: str) -> None:
    with pytest.raises(StateError) as caught:
        load_state_json(gz(text))
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_the_inflated_size_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsondecode, "MAX_STATE_BYTES", 3 * 1024 * 1024)
    text = b'{"pages":"' + b"x" * (3 * 1024 * 1024) + b'"}'
    with pytest.raises(StateError, match="larger than 3 MiB uncompressed"):
        load_state_json(gz(text))
    assert load_state_json(gz(text[:-100] + b'"}'))["pages"].startswith("xxx")


def test_the_issues_bomb_stops_early_and_costs_no_memory() -> None:
    """255 KB of gzip that inflates to 250 MB of valid JSON ([[],[],...]): once 6.5 GB and
    30 s, or a MemoryError. Now it stops after the first few megabytes."""
    bomb = streamed_gzip(b"[", b"[],", 83_000_000, b"[]]")
    assert len(bomb) < 300_000
    tracemalloc.start()
    try:  # (the containers' bound stops it: at about 3 MB of the 250 MB)
        with pytest.raises(StateError, match="more than 1,000,000 containers"):
            parse_state(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, f"{peak / 2**20:.0f} MiB"


# --- trust ------------------------------------------------------------------------------------


def state_with(**lastmods: Any) -> bytes:
    pages = {path: {"fingerprint": "f" * 32, "lastmod": value} for path, value in lastmods.items()}
    document = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "pages": pages,
    }
    return gz(json.dumps(document).encode())


TRUSTED = ["2024-03-01", "2024-03-01T12:00:00+00:00", "1991-08-06", "2026-11-23T12:04:59+00:00"]
DISTRUSTED = [
    "2999-01-01T00:00:00+00:00",  # in the future
    "2026-11-24",  # tomorrow
    "2026-11-23T12:05:01+00:00",  # past the clock skew allowed
    "1970-01-01T00:00:00+00:00",  # before the web
    "yesterday",
    "<b>2024-01-01</b>",
    "2024-02-30",
    "2024-01-01T10:00:00Z",  # a W3C datetime, but not a form sitemill writes
    "2024-01-01T10:00+00:00",
    " 2024-01-01",
    "2024-01-01\n",
    "9" * 10_000_000,
    7,
    ["2024-01-01"],
]


@pytest.mark.parametrize("value", TRUSTED)
def test_a_date_that_could_be_true_is_trusted(value: str) -> None:
    assert trusted_lastmod(value, NOW + CLOCK_SKEW)
    assert parse_state(state_with(**{"a.html": value}), NOW).pages["a.html"].lastmod == value


@pytest.mark.parametrize("value", DISTRUSTED, ids=lambda value: repr(value)[:30])
def test_a_date_that_cannot_be_true_is_dropped_and_counted(value: Any) -> None:
    state = parse_state(state_with(**{"a.html": value, "b.html": "2024-01-01"}), NOW)
    assert state.pages["a.html"].lastmod is None
    assert state.pages["a.html"].fingerprint == "f" * 32  # the rest of the record stays
    assert state.pages["b.html"].lastmod == "2024-01-01"
    assert state.refused == 1
    assert len(state.refused_example) <= 80


class Store:
    where = "out/sitemill-state.json.gz"

    def __init__(self, data: bytes | None) -> None:
        self.data = data

    def read(self) -> bytes | None:
        return self.data

    def write(self, data: bytes) -> bool:
        return True


def test_refused_dates_are_one_warning_with_a_count_and_a_quoted_example() -> None:
    values = {f"p{n}.html": "2999-01-01T00:00:00+00:00" for n in range(3)}
    values["q.html"] = "\x1b[2Jsitemill: error: forged\n"
    start = start_state(Store(state_with(**values)), None, NOW)
    (warning,) = start.warnings
    assert warning.startswith("ignoring 4 remembered lastmod value(s) of the state out/")
    assert "(e.g. '2999-01-01T00:00:00+00:00')" in warning
    assert "\n" not in warning and "\x1b" not in warning
    assert not start.first_run
