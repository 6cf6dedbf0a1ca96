"""Remember which URLs were seen, in about 11 bytes each, with no set of strings or ints."""

from __future__ import annotations

from array import array
from hashlib import blake2b
from typing import Final

_EMPTY: Final = 0
_INITIAL_SLOTS: Final = 1 << 14
# Grow past 75 % full: linear probing then averages about two probes, and a million URLs
# fit in 11 MB (a set of Python ints would take over 60 MB).
_LOAD_NUMERATOR, _LOAD_DENOMINATOR = 3, 4


class SeenUrls:
    """An open-addressing set of 64-bit BLAKE2b fingerprints in one flat array.

    Two distinct URLs share a fingerprint with probability about n²/2⁶⁴ (under 6 in 10⁸
    for a million URLs); the hash is keyed by nothing random, so runs stay deterministic.
    """

    __slots__ = ("_count", "_limit", "_slots")

    def __init__(self) -> None:
        self._slots = array("Q", [_EMPTY]) * _INITIAL_SLOTS
        self._count = 0
        self._limit = _limit(_INITIAL_SLOTS)

    def __len__(self) -> int:
        return self._count

    def reserve(self, count: int) -> None:
        """Size the table for ``count`` URLs now, so that it never grows (or copies) later."""
        size = count * _LOAD_DENOMINATOR // _LOAD_NUMERATOR + 1
        if size > len(self._slots):
            self._resize(size)

    def __contains__(self, url: object) -> bool:
        if not isinstance(url, str):
            return False
        key = _key(url)
        return self._slots[self._find(key)] == key

    def add(self, url: str) -> bool:
        """Record ``url``; True if it was not seen before."""
        if self._count >= self._limit:
            self._resize(len(self._slots) * 2)
        key = _key(url)
        index = self._find(key)
        if self._slots[index] == key:
            return False
        self._slots[index] = key
        self._count += 1
        return True

    def _find(self, key: int) -> int:
        """The slot that holds ``key``, or the empty one where it would go."""
        slots = self._slots
        size = len(slots)
        index = key % size
        while (found := slots[index]) and found != key:
            index = index + 1 if index + 1 < size else 0
        return index

    def add_many(self, urls: list[str]) -> list[bool]:
        """``add`` for each URL, in order: one tight loop for the blocks of a long list."""
        keys = [
            int.from_bytes(blake2b(url.encode("utf-8", "surrogateescape"), digest_size=8).digest())
            | 1  # odd: 0 marks an empty slot (as in _key: inlined, it runs per URL of a list)
            for url in urls
        ]
        new: list[bool] = []
        append = new.append
        slots, count, limit = self._slots, self._count, self._limit
        size = len(slots)
        for key in keys:
            if count >= limit:
                self._count = count
                self._resize(size * 2)
                slots, limit = self._slots, self._limit
                size = len(slots)
            index = key % size
            found = slots[index]
            while found:
                if found == key:
                    append(False)
                    break
                index += 1
                if index == size:
                    index = 0
                found = slots[index]
            else:
                slots[index] = key
                count += 1
                append(True)
        self._count = count
        return new

    def _resize(self, size: int) -> None:
        slots = array("Q", [_EMPTY]) * size
        for key in self._slots:
            if key != _EMPTY:
                index = key % size
                while slots[index] != _EMPTY:
                    index = index + 1 if index + 1 < size else 0
                slots[index] = key
        self._slots, self._limit = slots, _limit(size)


def _key(url: str) -> int:
    digest = blake2b(url.encode("utf-8", "surrogateescape"), digest_size=8).digest()
    return int.from_bytes(digest) | 1  # odd: 0 marks an empty slot


def _limit(size: int) -> int:
    return size * _LOAD_NUMERATOR // _LOAD_DENOMINATOR
