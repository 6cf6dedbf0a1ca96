"""A shard plan: ordered boundaries over the source's sort order, each shard with a stable id;
what a shard rendered apart may ask of the others (OtherShards)."""
# Shard *i* holds the keys with ``afters[i] < key <= afters[i + 1]`` (the convention of
# ``ListObjectsV2(StartAfter=...)``); ``afters[0]`` is ``""`` and the last shard is open-ended. A
# boundary is a key that was listed when the cut was made; it stays valid when that key is deleted.
# The id of a shard depends on its boundary alone, so no other shard's name moves when one is split
# or emptied.

from __future__ import annotations

import base64
import hashlib
import os
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from sitemill.entries import Alternate

# Cut after DEFAULT_SHARD_FILL URLs (sitemill.protocol), or 80 % of max_bytes (docs/output.md).
BYTE_FILL_SHARE: Final = 0.8
# One index names at most 50,000 children (sitemaps.org), so a plan has at most as many shards.
MAX_SHARDS: Final = 50_000
_ID_PREFIX: Final = "r"


class Order(Enum):
    """The sort order a source lists its keys in, over which boundaries are laid."""

    KEYS = "keys"  # S3: by the key's UTF-8 bytes (code point order)
    WALK = "walk"  # a tree: depth first, names sorted by their bytes (a folder before "x.html")


# What keys are compared by: their bytes, for both orders.
SortKey = bytes


def key_order(key: str) -> SortKey:
    """S3 lists keys in the order of their UTF-8 bytes."""
    return key.encode("utf-8", "surrogateescape")


def walk_order(key: str) -> SortKey:
    """The walk visits ``a/b/c.html`` before ``a/b.html`` (a folder's name, then its files):
    path segments compared by their bytes, which is the path's bytes with "/" lowest (a file
    name holds no NUL)."""
    return os.fsencode(key).replace(b"/", b"\x00")


ORDER_KEY: Final[dict[Order, Callable[[str], SortKey]]] = {
    Order.KEYS: key_order,
    Order.WALK: walk_order,
}


def shard_id(after: str) -> str:
    """``r`` + 8 lower-case base32 characters of the boundary's 40-bit BLAKE2b digest."""
    digest = hashlib.blake2b(after.encode("utf-8", "surrogateescape"), digest_size=5).digest()
    return _ID_PREFIX + base64.b32encode(digest).decode("ascii").lower()


def child_name(shard: str, suffix: str, number: int = 1) -> str:
    """``sitemap-r<8 base32>.xml`` (``.xml.gz``, ``.txt``: the suffix of the output format);
    a shard's further files (no cut could split it) ``sitemap-r<8 base32>-2.xml`` and on."""
    return f"sitemap-{shard}{suffix}" if number == 1 else f"sitemap-{shard}-{number}{suffix}"


@dataclass(frozen=True, slots=True)
class Plan:
    """The boundaries of a sharded site, in order; ``afters[0] == ""``."""

    afters: tuple[str, ...] = ("",)
    order: Order = Order.KEYS

    def __post_init__(self) -> None:
        problem = plan_problem(self.afters, self.order)
        if problem is not None:
            raise ValueError(problem)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(shard_id(after) for after in self.afters)

    def shard_of(self, key: str) -> int:
        """The index of the shard holding ``key`` (a bisection)."""
        sort_key = ORDER_KEY[self.order]
        return max(bisect_left(self.afters, sort_key(key), key=sort_key) - 1, 0)

    def bounds(self, index: int) -> tuple[str, str | None]:
        """(after, last): the shard holds keys ``after < key <= last`` (no last: open-ended)."""
        last = self.afters[index + 1] if index + 1 < len(self.afters) else None
        return self.afters[index], last

    def with_afters(self, afters: list[str]) -> Plan:
        return Plan(tuple(afters), self.order)


def plan_problem(afters: tuple[str, ...], order: Order) -> str | None:
    """Why ``afters`` is not a plan (None when it is one)."""
    if not afters or afters[0] != "":
        return 'a plan starts at ""'
    if len(afters) > MAX_SHARDS:
        return f"a plan holds at most {MAX_SHARDS:,} shards"
    sort_key = ORDER_KEY[order]
    keys = [sort_key(after) for after in afters[1:]]
    if any(not after for after in afters[1:]) or any(a >= b for a, b in pairwise(keys)):
        return "the boundaries of a plan are keys in strictly increasing order"
    if len(set(map(shard_id, afters))) != len(afters):
        return "two boundaries of a plan share an id"
    return None


class OtherShards(Protocol):
    """What a shard rendered apart may ask of the site's other shards, by URL key
    (sitemill.html.links.url_key): asked of them as the last build left them, one build
    behind (docs/distributed.md, What it does not do)."""

    def lists(self, key: str) -> bool:
        """Whether another shard lists the page with this key."""
        ...

    def page(self, key: str) -> tuple[str, tuple[Alternate, ...]] | None:
        """The URL another shard lists for this key and the alternates its page declares
        (as (hreflang, URL key)), or None."""
        ...

    def redirect(self, key: str) -> tuple[str, str] | None:
        """The URL of a redirect stub with this key in another shard and the URL it leads
        to, or None."""
        ...
