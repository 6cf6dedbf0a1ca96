"""The cut rule: where a plan's boundaries fall, computed in one pass over sorted keys."""
# A shard is cut after ``fill`` keys or ``byte_fill`` estimated bytes, but never between two keys
# that can map to one URL (``X.htm`` and ``X.html``; with clean URLs also ``X``), so that the
# duplicate check stays inside a shard. Cuts are made on raw keys, never on URL stems: key order and
# stem order differ (``a/b/c.html`` sorts before ``a/b/index.html``). The members of one family
# (``s``, ``s.htm``, ``s.html``) need not be neighbours (``s.htm/x`` lies between), but every key
# between two of them begins with ``s``: the families still open are prefixes of the current key, a
# handful at most.

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from sitemill.protocol import DEFAULT_SHARD_FILL
from sitemill.shards.plan import (
    BYTE_FILL_SHARE,
    ORDER_KEY,
    Order,
    Plan,
    SortKey,
    shard_id,
)

_SUFFIXES: Final = (".html", ".htm")
_LAST_MEMBER: Final = ".html"  # s < s.htm < s.html: the last key a family can have


@dataclass(frozen=True, slots=True)
class CutRule:
    """The cut rule's settings: a shard is cut after ``fill`` keys or a share of ``max_bytes``
    estimated bytes (byte_fill), never within a family (``clean``: a key without a suffix is
    one too), among keys sorted in ``order``."""

    order: Order
    max_bytes: int
    clean: bool
    fill: int = DEFAULT_SHARD_FILL


def family_of(key: str, *, clean: bool) -> str | None:
    """The stem of the keys that can share ``key``'s URL, or None when no other key can."""
    for suffix in _SUFFIXES:
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key if clean else None


@dataclass(slots=True)
class _Candidate:
    """A cut after ``after`` that waits until no family open there can still cross it."""

    after: str
    open: list[tuple[str, SortKey]]  # the families with a member at or before ``after``
    count: int  # keys and estimated bytes before the cut (running totals)
    size: int


class Cutter:
    """Feeds on sorted (key, estimated bytes) and says where boundaries fall.

    When the keys since the last cut fill a shard, the gap before the next key is a candidate.
    It becomes a boundary once every family open at it has passed its last possible member,
    and is dropped when one of them shows a member after it. Candidates wait in order (a long
    family, ``s.htm/...`` before ``s.html``, can hold several), and are settled in order.
    """

    def __init__(
        self,
        *,
        fill: int = DEFAULT_SHARD_FILL,
        byte_fill: int,
        clean: bool,
        order: Order,
        taken: Iterable[str] = (),
    ) -> None:
        self.fill = fill
        self.byte_fill = byte_fill
        self.clean = clean
        self.sort_key: Callable[[str], SortKey] = ORDER_KEY[order]
        self.taken = set(taken)  # ids in use: a boundary whose id is taken waits for the next key
        self.count = 0  # running totals of keys and estimated bytes
        self.size = 0
        self.last: str | None = None
        self._open: list[tuple[str, SortKey]] = []  # (stem, sort key of stem + ".html")
        self._pending: deque[_Candidate] = deque()
        self._settled = (0, 0)  # the totals at the last settled cut

    def add(self, key: str, weight: int, count: int = 1) -> Sequence[str]:
        """Take the next key; return the boundaries settled by it, in order. ``count``: 0 for
        a key that gives no URL (a second file of one, a page left out): it fills nothing,
        but its family is open all the same (no cut falls between it and a later member)."""
        sort_key = self.sort_key(key)
        open_now = self._open
        if open_now:
            open_now = self._open = [item for item in open_now if sort_key <= item[1]]
        stem = family_of(key, clean=self.clean)
        if self._pending:
            self._settle(sort_key, stem)
        start_count, start_size = (
            (self._pending[-1].count, self._pending[-1].size) if self._pending else self._settled
        )
        if self.last is not None and (
            self.count - start_count >= self.fill or self.size - start_size >= self.byte_fill
        ):
            self._propose(stem)
        if stem is not None:
            for open_stem, _ in open_now:
                if open_stem == stem:
                    break
            else:
                member = key.endswith(_LAST_MEMBER)
                last = sort_key if member else self.sort_key(stem + _LAST_MEMBER)
                self._open.append((stem, last))
        self.count += count
        self.size += weight
        self.last = key
        return self._confirm(at_end=False) if self._pending else ()

    def finish(self) -> Sequence[str]:
        """The boundaries still waiting when the keys end (nothing can cross them any more)."""
        return self._confirm(at_end=True)

    def _settle(self, sort_key: SortKey, stem: str | None) -> None:
        kept: deque[_Candidate] = deque()
        for candidate in self._pending:
            if stem is not None and any(open_stem == stem for open_stem, _ in candidate.open):
                self.taken.discard(shard_id(candidate.after))
                continue  # a family crosses it: its keys stay with the part before
            candidate.open = [item for item in candidate.open if sort_key <= item[1]]
            kept.append(candidate)
        self._pending = kept

    def _propose(self, stem: str | None) -> None:
        assert self.last is not None
        if shard_id(self.last) in self.taken:
            return
        if stem is not None and any(open_stem == stem for open_stem, _ in self._open):
            return  # this key and an earlier one are one URL's
        self.taken.add(shard_id(self.last))
        self._pending.append(_Candidate(self.last, list(self._open), self.count, self.size))

    def _confirm(self, *, at_end: bool) -> list[str]:
        cuts: list[str] = []
        while self._pending and (at_end or not self._pending[0].open):
            candidate = self._pending.popleft()
            self._settled = (candidate.count, candidate.size)
            cuts.append(candidate.after)
        return cuts


def byte_fill(max_bytes: int) -> int:
    return int(max_bytes * BYTE_FILL_SHARE)


def cut_points(
    items: Iterable[tuple[str, int]] | Iterable[tuple[str, int, int]],
    *,
    fill: int,
    max_bytes: int,
    clean: bool,
    order: Order,
    taken: Iterable[str] = (),
) -> Iterator[str]:
    """The boundaries the cut rule puts among sorted ``items`` (key, estimated bytes, and
    optionally how many URLs it gives: sitemill.shards.cuts.Cutter.add), streamed."""
    cutter = Cutter(
        fill=fill, byte_fill=byte_fill(max_bytes), clean=clean, order=order, taken=taken
    )
    add = cutter.add
    for item in items:
        cuts = add(*item)
        if cuts:
            yield from cuts
    yield from cutter.finish()


def canonical_plan(
    items: Iterable[tuple[str, int]] | Iterable[tuple[str, int, int]],
    *,
    fill: int = DEFAULT_SHARD_FILL,
    max_bytes: int,
    clean: bool,
    order: Order,
) -> Plan:
    """The plan of a first build (or ``--reshard``): cuts laid by the rule from the start."""
    afters = [""]
    afters.extend(
        cut_points(
            items, fill=fill, max_bytes=max_bytes, clean=clean, order=order, taken={shard_id("")}
        )
    )
    return Plan(tuple(afters), order)
