"""One shard's state in a partitioned bucket state (``<state prefix>/shards/<id>.json.gz``)."""
# What its last worker listed in its key range, the file it rendered, and the state of its pages
# (sitemill.state.model). Pure; read back bounded and checked, since it is input from outside:
# anything wrong in the listing refuses the whole (the worker then lists its range again: a page
# dropped from it would drop out of the sitemaps).

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any, Final

from sitemill.entries import Page
from sitemill.errors import StateError
from sitemill.lastmod.decide import latest_evidence
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.shards.partition import Part, part_from_json, part_to_json
from sitemill.shards.plan import key_order, shard_id
from sitemill.state.jsondecode import load_state_json
from sitemill.state.model import State, dump_document, state_document
from sitemill.state.parse import state_from_document, trusted_lastmod

SHARD_STATE_FORMAT: Final = "sitemill-shard-state"
SHARD_STATE_VERSION: Final = 1
_MAX_ETAG: Final = 1100


@dataclass
class ShardState:
    """A shard's boundary, its listing (the pages a LIST of its range gave, in key order),
    its file (None: it listed nothing) and its pages' state."""

    after: str
    listing: list[Page] = field(default_factory=list)
    part: Part | None = None
    state: State = field(default_factory=State)

    @property
    def shard(self) -> str:
        return shard_id(self.after)


def dump_shard_state(shard: ShardState) -> bytes:
    document: dict[str, Any] = {
        "format": SHARD_STATE_FORMAT,
        "version": SHARD_STATE_VERSION,
        "shard": shard.shard,
        "after": shard.after,
        "listing": [[page.path, page.lastmod or "", page.version or ""] for page in shard.listing],
        "state": state_document(shard.state),
    }
    if shard.part is not None:
        document["part"] = part_to_json(shard.part)
    return dump_document(document)


def parse_shard_state(
    data: bytes, now: datetime | None = None, *, bounds: tuple[str, str | None] | None = None
) -> ShardState:
    """The shard state in ``data``; a StateError (one line) says what is wrong. ``bounds``:
    the shard's range in the plan, (after, last): its boundary must be ``after``, and every
    page it lists must lie in the range, once, in key order."""
    document = load_state_json(data)
    if not isinstance(document, dict) or document.get("format") != SHARD_STATE_FORMAT:
        raise StateError("not a sitemill shard state")
    if document.get("version") != SHARD_STATE_VERSION:
        raise StateError(f"shard state version {document.get('version')!r} is unknown")
    after = document.get("after")
    if not isinstance(after, str) or document.get("shard") != shard_id(after):
        raise StateError("the shard state's id does not match its boundary")
    if bounds is not None and after != bounds[0]:
        raise StateError("the shard state's boundary is not its shard's")
    latest = latest_evidence(now or datetime.now(UTC))  # (sitemill.lastmod.decide)
    listing = _listing(document.get("listing"), latest)
    if bounds is not None:
        _check_range(listing, *bounds)
    part = document.get("part")
    return ShardState(
        after,
        listing,
        None if part is None else part_from_json(part),
        state_from_document(document.get("state"), now),
    )


def _listing(value: object, latest: datetime) -> list[Page]:
    if not isinstance(value, list):
        raise StateError("the shard state's listing is not a list")
    pages: list[Page] = []
    for item in value:
        if not (
            isinstance(item, list) and len(item) == 3 and all(isinstance(v, str) for v in item)
        ):
            raise StateError("a listed page of the shard state is not [path, lastmod, etag]")
        path, lastmod, etag = item
        if not path or len(path.encode("utf-8", "surrogateescape")) > MAX_KEY_BYTES:
            raise StateError("a listed page of the shard state has no valid path")
        if lastmod and not trusted_lastmod(lastmod, latest):
            raise StateError(f"the listed date of {path[:80]!r} is not one sitemill writes")
        if len(etag) > _MAX_ETAG or not etag.isprintable():
            raise StateError(f"the listed ETag of {path[:80]!r} is not one S3 gives")
        pages.append(Page(path, lastmod or None, version=etag or None))
    return pages


def _check_range(listing: list[Page], after: str, last: str | None) -> None:
    """Every listed page in ``after < key <= last``, in strictly increasing key order: a
    page of another shard's range would be listed twice, a repeated one twice here."""
    keys = [key_order(page.path) for page in listing]
    if keys and (keys[0] <= key_order(after) or (last is not None and keys[-1] > key_order(last))):
        raise StateError("the shard state lists a page outside its shard's range")
    if any(a >= b for a, b in pairwise(keys)):
        raise StateError("the shard state's listing is not in key order, each page once")


def part_states(
    parts: list[Part], pages: Iterable[Page], remember: State, last: str | None
) -> list[ShardState]:
    """One state per shard of ``parts``: the pages of its range, listed and remembered."""
    firsts = first_parts(parts)
    return split_states(list(firsts), firsts, pages, remember, last)


def first_parts(parts: Iterable[Part]) -> dict[str, Part]:
    """Each shard's first file, by boundary, in order (a shard no cut can split has more)."""
    firsts: dict[str, Part] = {}
    for part in parts:
        firsts.setdefault(part.after, part)
    return firsts


def split_states(
    afters: list[str],
    parts: dict[str, Part],
    pages: Iterable[Page],
    remember: State,
    last: str | None = None,
) -> list[ShardState]:
    """The states of the shards from ``afters`` (up to ``last``): each one's listed pages,
    remembered pages and file."""
    bounds = [key_order(after) for after in afters]
    listing: list[list[Page]] = [[] for _ in afters]
    index = 0
    for page in pages:  # (in key order)
        key = key_order(page.path)
        if last is not None and key > key_order(last):
            break
        while index + 1 < len(bounds) and key > bounds[index + 1]:
            index += 1
        listing[index].append(page)
    known, unlisted = remember.pages, remember.unlisted
    states: list[ShardState] = []
    for after, inside in zip(afters, listing, strict=True):
        # Each shard keeps what it lists: its pages' records, and by ETag what is known of
        # those it leaves out (not the whole site's, once per shard).
        state = replace(
            remember,
            pages={page.path: known[page.path] for page in inside if page.path in known},
            unlisted={
                page.version: unlisted[page.version]
                for page in inside
                if page.version is not None and page.version in unlisted
            },
            plan=None,
            outputs=frozenset(),
            digests={},
            written=None,
        )
        states.append(ShardState(after, inside, parts.get(after), state))
    return states
