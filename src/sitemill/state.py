"""The state: what the last run saw, so that the next one need not read it again.

A small deterministic file, ``sitemill-state.json.gz``, beside the sitemaps: per page read,
the version of its bytes (an S3 ETag) and its head facts, also for pages that the facts left
out (an unchanged object is never read twice). Pure: bytes in, bytes out. A missing,
unreadable, foreign or newer state is a warning and a first run, never a failure.

    {"format": "sitemill-state", "version": 1, "facts_version": 1,
     "pages": {"docs/a.html": {"etag": "\\"9b2c…\\"", "facts": {"noindex": true}}}}
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from sitemill.errors import ConflictError, SitemillError, StateError
from sitemill.fingerprint import FINGERPRINT_VERSION
from sitemill.outputs import STATE_NAME, is_own_name
from sitemill.pages import FACTS_VERSION, PageFacts
from sitemill.statefacts import facts_from_json, facts_to_json

if TYPE_CHECKING:
    from sitemill.statestore import StateStore

__all__ = [
    "STATE_NAME",
    "PageRecord",
    "Previous",
    "State",
    "StateError",
    "dump_state",
    "missing_state_warning",
    "parse_state",
    "save_state",
    "start_state",
]

STATE_FORMAT: Final = "sitemill-state"
STATE_VERSION: Final = 1
# A state of a million pages is about 100 MB of JSON; more is not ours (or a gzip bomb).
MAX_STATE_BYTES: Final = 256 * 1024 * 1024
_GZIP_LEVEL: Final = 6
# More own files than sitemill ever writes beside one set of sitemaps (50,000 children per
# index, plus indexes and staging copies): a list longer than this is not one it wrote.
MAX_OUTPUTS: Final = 200_000


@dataclass(frozen=True, slots=True)
class PageRecord:
    """What one run learnt about one page: the version of its bytes (an S3 ETag), its head
    facts (None: not remembered), its content fingerprint and the lastmod it was given."""

    version: str | None
    facts: PageFacts | None = None
    fingerprint: str | None = None
    lastmod: str | None = None


@dataclass
class State:
    pages: dict[str, PageRecord] = field(default_factory=dict)
    # sitemill's own files beside the sitemaps after the run (a child whose deletion failed
    # among them: no index names it, so only this tells a later run to delete it).
    outputs: frozenset[str] = frozenset()

    def facts(self, path: str, version: str | None) -> PageFacts | None:
        """The remembered facts of the page at ``path`` if its bytes are still ``version``."""
        record = self.pages.get(path)
        if record is None or version is None or record.version != version:
            return None
        return record.facts

    def record(self, path: str) -> PageRecord | None:
        return self.pages.get(path)


def parse_state(data: bytes) -> State:
    """The state in ``data`` (gzip-compressed JSON); a StateError names what is wrong."""
    try:
        text = _decompress(data)
        document = json.loads(text)
    # RecursionError: JSON nested thousands deep ("[[[[..."), which json cannot parse.
    except (OSError, EOFError, zlib.error, ValueError, RecursionError) as exc:
        if isinstance(exc, StateError):
            raise
        kinds = {zlib.error: "not gzip", RecursionError: "JSON nested too deep"}
        kind = kinds.get(type(exc)) or ("not JSON" if isinstance(exc, ValueError) else "error")
        raise StateError(f"not a sitemill state ({kind})") from exc
    if not isinstance(document, dict) or document.get("format") != STATE_FORMAT:
        raise StateError("not a sitemill state (no format marker)")
    version = document.get("version")
    if not isinstance(version, int) or version > STATE_VERSION:
        raise StateError(f"written by a newer sitemill (format version {version!r})")
    pages = document.get("pages")
    if not isinstance(pages, dict):
        raise StateError("its pages are not a table")
    # Facts read by another sitemill are read again (one pass); the dates are kept.
    facts_current = document.get("facts_version") == FACTS_VERSION
    fingerprints_current = document.get("fingerprint_version") == FINGERPRINT_VERSION
    records = dict(_records(pages, facts_current, fingerprints_current))
    return State(records, _outputs(document.get("outputs")))


def _outputs(value: object) -> frozenset[str]:
    """sitemill's own file names from their list; anything else in it is dropped (a state
    is input from outside: it never names a page or another file for sitemill to delete)."""
    if not isinstance(value, list) or len(value) > MAX_OUTPUTS:
        return frozenset()
    return frozenset(
        name for name in value if isinstance(name, str) and name != STATE_NAME and is_own_name(name)
    )


def _decompress(data: bytes) -> str:
    """The JSON text, never more than MAX_STATE_BYTES of it (a gzip bomb stops there)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    text = inflater.decompress(data, MAX_STATE_BYTES + 1)
    if len(text) > MAX_STATE_BYTES or inflater.unconsumed_tail:
        raise StateError(f"larger than {MAX_STATE_BYTES // (1024 * 1024)} MiB uncompressed")
    if not inflater.eof:
        raise StateError("cut off (the gzip stream does not end)")
    return text.decode("utf-8")


def _records(
    pages: Mapping[str, Any], facts_current: bool, fingerprints_current: bool
) -> Iterator[tuple[str, PageRecord]]:
    for path, item in pages.items():
        if not isinstance(item, dict):
            raise StateError(f"the record of {path!r} is not a table")
        version = _text(item.get("etag"))
        facts = item.get("facts")
        fingerprint = _text(item.get("fingerprint")) if fingerprints_current else None
        record = PageRecord(
            version,
            facts_from_json(facts) if facts_current and isinstance(facts, dict) else None,
            fingerprint,
            _text(item.get("lastmod")),
        )
        yield path, record


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def dump_state(state: State) -> bytes:
    """Deterministic bytes: sorted keys, defaults left out, gzip with mtime 0."""
    pages = {path: _record_values(record) for path, record in state.pages.items()}
    document = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "pages": pages,
    }
    if state.outputs:
        document["outputs"] = sorted(state.outputs)
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return gzip.compress(text.encode("ascii"), compresslevel=_GZIP_LEVEL, mtime=0)


def _record_values(record: PageRecord) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if record.version is not None:
        values["etag"] = record.version
    if record.facts is not None:
        values["facts"] = facts_to_json(record.facts)
    if record.fingerprint is not None:
        values["fingerprint"] = record.fingerprint
    if record.lastmod is not None:
        values["lastmod"] = record.lastmod
    return values


class Previous(Protocol):
    """Where a first run may start from (``previous_state``: a path or the live site)."""

    @property
    def location(self) -> str: ...

    def read(self) -> bytes | None: ...


def start_state(store: StateStore, previous: Previous | None) -> tuple[State, bool, list[str]]:
    """The state to start from, whether this is a first run (none found), and warnings.

    ``previous`` is read only when ``store`` holds no state. Nothing usable is a warning and
    a first run (dates start from the plain ones, every head is read), never a failure.
    """
    warnings: list[str] = []
    where = store.where
    try:
        data = store.read()
    except SitemillError as exc:
        warnings.append(f"{exc}; starting without the state")
        data = None
    borrowed = False
    if data is None and previous is not None:
        where, borrowed = previous.location, True
        try:
            data = previous.read()
        except SitemillError as exc:
            warnings.append(f"{exc}; a first run")
            data = None
    if data is None:
        return State(), True, warnings
    try:
        state = parse_state(data)
    except StateError as exc:
        warnings.append(f"ignoring the state {where}: {exc}; dates and page facts start over")
        return State(), True, warnings
    if borrowed:  # dates from elsewhere, yes; but only this place's own state names its files
        state.outputs = frozenset()
    return state, False, warnings


def missing_state_warning(where: str) -> str:
    """A first run beside sitemaps of an earlier run: the state was lost (or never kept)."""
    return (
        f"no state at {where}, but sitemaps of an earlier run are there: dates start over from "
        "the plain ones (was the state deleted? `aws s3 sync --delete` of a build folder removes "
        "it: keep it elsewhere with `state`)"
    )


def save_state(store: StateStore, state: State, warnings: list[str]) -> bool:
    """Write the state after the sitemaps, when it changed; True when written. The sitemaps
    are live by now: a state that cannot be written is a warning (the next run starts over),
    not a failed run; another writer's newer state is a conflict, redone like any."""
    try:
        return store.write(dump_state(state))
    except ConflictError:
        raise
    except SitemillError as exc:
        warnings.append(f"{exc}; the sitemaps are published, but the next run starts over")
        return False
