"""Remember which URLs were seen, in 8 to 16 bytes each, with no set of strings or ints."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from hashlib import blake2b
from itertools import repeat
from operator import methodcaller, or_
from typing import Final, Generic, TypeVar

_EMPTY: Final = 0
_INITIAL_SLOTS: Final = 1 << 14
# Grow past 75 % full: linear probing then averages about two probes, and a million URLs
# fit in 11 MB (a set of Python ints would take over 60 MB).
_LOAD_NUMERATOR, _LOAD_DENOMINATOR = 3, 4
_DIGEST: Final = methodcaller("digest")
_BLAKE2B_8: Final = partial(blake2b, digest_size=8)
_SIGNED: Final = partial(int.from_bytes, byteorder="big", signed=True)


def _stable_keys(urls: Iterable[str]) -> Iterable[int]:
    """64-bit BLAKE2b keys (keyed by nothing random: the same in every process), made odd
    (0 marks an empty slot); a chain of C calls, no Python frame per URL."""
    encoded = map(str.encode, urls, repeat("utf-8"), repeat("surrogateescape"))
    return map(or_, map(_SIGNED, map(_DIGEST, map(_BLAKE2B_8, encoded))), repeat(1))


def _stable_key(url: str) -> int:
    """One URL's key as _stable_keys gives it (for a URL added alone)."""
    digest = _BLAKE2B_8(url.encode("utf-8", "surrogateescape")).digest()
    return _SIGNED(digest) | 1


def _local_keys(urls: Iterable[bytes]) -> Iterable[int]:
    """Python's own 64-bit hash of each URL's bytes (SipHash, keyed per process), made odd."""
    return map(or_, map(hash, urls), repeat(1))


def _local_key(url: bytes) -> int:
    return hash(url) | 1


U = TypeVar("U", str, bytes)


class _UrlSet(Generic[U]):
    """An open-addressing set of 64-bit URL keys in one flat array (linear probing; any
    size: a key's slot is the key modulo the size, as fast as a mask, and a table sized
    for a count is no larger than it needs). Two distinct URLs share a key with
    probability about n²/2⁶⁴ (under 6 in 10⁸ for a million URLs)."""

    __slots__ = ("_count", "_limit", "_slots")
    _type: type[U]
    _keys: Callable[[Iterable[U]], Iterable[int]]
    _key: Callable[[U], int]  # the same key for one URL

    def __init__(self) -> None:
        self._slots = array("q", [_EMPTY]) * _INITIAL_SLOTS
        self._count = 0
        self._limit = _limit(_INITIAL_SLOTS)

    def __len__(self) -> int:
        return self._count

    def reserve(self, count: int) -> None:
        """Size the table for ``count`` URLs now, so that it never grows (or copies) later."""
        if count > self._limit:
            needed = count * _LOAD_DENOMINATOR // _LOAD_NUMERATOR + 1
            self._resize(max(needed, len(self._slots) * 3 // 2))  # amortized when added to

    def __contains__(self, url: object) -> bool:
        if not isinstance(url, self._type):
            return False
        key = self._key(url)
        return self._slots[self._find(key)] == key

    def add(self, url: U) -> bool:
        """Record ``url``; True if it was not seen before (one key, one probe: a tree's
        pages are added one at a time)."""
        if self._count >= self._limit:
            self.reserve(self._count + 1)
        key = self._key(url)
        index = self._find(key)
        if self._slots[index] == key:
            return False
        self._slots[index] = key
        self._count += 1
        return True

    def repeats(self, urls: list[U]) -> list[int]:
        """Record each URL, in order; the positions of those seen before (earlier in
        ``urls`` too). One tight loop for the blocks of a long list."""
        repeated = self._add_keys(self._keys(urls), len(urls))
        return _positions(list(self._keys(urls)), repeated) if repeated else []

    def _find(self, key: int) -> int:
        """The slot that holds ``key``, or the empty one where it would go."""
        slots = self._slots
        size = len(slots)
        index = key % size
        while (found := slots[index]) and found != key:
            index = index + 1 if index + 1 < size else 0
        return index

    def _add_keys(self, keys: Iterable[int], count: int) -> list[int]:
        """Record ``count`` keys; each key that was there already, once per time. The table
        grows first, for all of them, so the loop itself never checks the load; it runs a
        million times for a million URLs, so it does nothing else."""
        self.reserve(self._count + count)
        slots = self._slots
        size = len(slots)
        repeated: list[int] = []
        for key in keys:
            index = key % size
            found = slots[index]
            if not found:
                slots[index] = key
                continue
            while found:
                if found == key:
                    repeated.append(key)
                    break
                index += 1
                if index == size:
                    index = 0
                found = slots[index]
            else:
                slots[index] = key
        self._count += count - len(repeated)
        return repeated

    def _resize(self, size: int) -> None:
        slots = array("q", [_EMPTY]) * size
        for key in self._slots:
            if key != _EMPTY:
                index = key % size
                while slots[index] != _EMPTY:
                    index = index + 1 if index + 1 < size else 0
                slots[index] = key
        self._slots, self._limit = slots, _limit(size)


class SeenUrls(_UrlSet[str]):
    """The URLs of a run, keyed by BLAKE2b keyed by nothing random: a set means the same
    in every process and every run."""

    __slots__ = ()
    _type = str
    _keys = staticmethod(_stable_keys)
    _key = staticmethod(_stable_key)


class SeenUrlBytes(_UrlSet[bytes]):
    """URLs given as bytes, keyed by Python's own hash: about ten times faster to key than
    BLAKE2b, for the millions of lines of a URL list.

    That hash is keyed afresh in every process, so a set means something only in the
    process that made it (never pickled, never handed to a worker). A false duplicate has
    the same odds as with SeenUrls and, the key being new each run, never repeats.
    """

    __slots__ = ()
    _type = bytes
    _keys = staticmethod(_local_keys)
    _key = staticmethod(_local_key)


def _positions(keys: list[int], repeated: list[int]) -> list[int]:
    """Where the repeats are among ``keys``, given each repeated key once per repeat: of a
    key's occurrences, all but as many as were new are repeats, and the new one is first."""
    repeats = Counter(repeated)
    occurrences = Counter(key for key in keys if key in repeats)
    new = {key: occurrences[key] - times for key, times in repeats.items()}  # 0 or 1
    positions = []
    for position, key in enumerate(keys):
        if key in new:
            if new[key]:
                new[key] = 0
            else:
                positions.append(position)
    return positions


def _limit(size: int) -> int:
    return size * _LOAD_NUMERATOR // _LOAD_DENOMINATOR
