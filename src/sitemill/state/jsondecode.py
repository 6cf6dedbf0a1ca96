"""The state's JSON, read with bounds fixed in advance."""
# A state is input from outside, so what reading it may cost is fixed in advance: json.loads would
# build every container it meets (250 MB of ``[[],[],...]``: some 80 million lists). The gzip
# stream is inflated in chunks while the bytes that make objects are counted (``{``, ``[``, ``"``,
# at C speed: a bound from above), stopping past any bound; only printable ASCII and JSON's
# whitespace may appear; numbers are counted as parsed, floats and NaN refused.

from __future__ import annotations

import json
import re
from typing import Any, Final

from sitemill.bounded.inflate import CUT_OFF, PAST_LIMIT, inflate_chunks
from sitemill.errors import InflateError, StateError

# About 330,000 pages of a bucket's state (100,000 pages are 19 MB of JSON); past these, a
# state is not one sitemill wrote. They bound what a hostile one costs: at most about
# 64 MiB of text and what a million containers and three million strings take.
MAX_STATE_BYTES: Final = 64 * 1024 * 1024
MAX_CONTAINERS: Final = 1_000_000
MAX_STRINGS: Final = 3_000_000
MAX_NUMBERS: Final = 64
_CHUNK: Final = 1024 * 1024
_NOT_JSON_TEXT: Final = re.compile(rb"[^\t\n\r\x20-\x7e]")


def load_state_json(data: bytes) -> Any:
    """The JSON document in the gzip ``data``; a StateError (one line) for anything over the
    bounds, not gzip, not ASCII JSON, cut off, or nested deeper than Python allows."""
    return _loads(_inflate(data))


def load_json_text(data: bytes, *, max_numbers: int = MAX_NUMBERS) -> Any:
    """``load_state_json`` of plain (not gzip) JSON text, under the same bounds (and at most
    ``max_numbers`` numbers: an index-state holds one per child)."""
    _check(data, len(data), data.count(b"{") + data.count(b"["), data.count(b'"'))
    return _loads(data, max_numbers)


def _loads(text: bytes, max_numbers: int = MAX_NUMBERS) -> Any:
    numbers = 0

    def count(token: str) -> int:
        nonlocal numbers
        numbers += 1
        if numbers > max_numbers:
            raise StateError(f"not a sitemill state (more than {max_numbers} numbers)")
        if len(token) > 20:
            raise StateError("not a sitemill state (a number of more than 20 digits)")
        return int(token)

    def refuse(token: str) -> Any:
        raise StateError(f"not a sitemill state (a number {token[:20]!r})")

    try:
        return json.loads(text, parse_int=count, parse_float=refuse, parse_constant=refuse)
    except RecursionError as exc:
        raise StateError("not a sitemill state (JSON nested too deep)") from exc
    except ValueError as exc:
        if isinstance(exc, StateError):
            raise
        raise StateError("not a sitemill state (not JSON)") from exc


def _inflate(data: bytes) -> bytes:
    """The inflated bytes, checked chunk by chunk against the bounds."""
    chunks: list[bytes] = []
    size = containers = quotes = 0
    try:
        for chunk in inflate_chunks(data, MAX_STATE_BYTES, chunk=_CHUNK):
            size += len(chunk)
            containers += chunk.count(b"{") + chunk.count(b"[")
            quotes += chunk.count(b'"')
            _check(chunk, size, containers, quotes)
            chunks.append(chunk)
    except InflateError as exc:
        if exc.kind == PAST_LIMIT:
            raise StateError(_too_big()) from exc
        if exc.kind == CUT_OFF:
            raise StateError("cut off (the gzip stream does not end)") from exc
        raise StateError("not a sitemill state (not gzip)") from exc
    return b"".join(chunks)


def _check(chunk: bytes, size: int, containers: int, quotes: int) -> None:
    if size > MAX_STATE_BYTES:
        raise StateError(_too_big())
    if containers > MAX_CONTAINERS:
        raise StateError(f"not a sitemill state (more than {MAX_CONTAINERS:,} containers)")
    if quotes > 2 * MAX_STRINGS:
        raise StateError(f"not a sitemill state (more than {MAX_STRINGS:,} strings)")
    if _NOT_JSON_TEXT.search(chunk) is not None:
        raise StateError("not a sitemill state (not ASCII JSON text)")


def _too_big() -> str:
    return f"larger than {MAX_STATE_BYTES // (1024 * 1024)} MiB uncompressed"
