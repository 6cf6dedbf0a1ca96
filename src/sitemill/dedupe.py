"""Remember which URLs were seen, in 8 bytes each, so that a million URLs need no set of strings."""

from __future__ import annotations

from array import array
from hashlib import blake2b
from typing import Final

_EMPTY: Final = 0
_INITIAL_SLOTS: Final = 1 << 14


class SeenUrls:
    """An open-addressing set of 64-bit BLAKE2b fingerprints.

    Two distinct URLs share a fingerprint with probability about n²/2⁶⁴ (under 6 in 10⁸
    for a million URLs); the hash is keyed by nothing random, so runs stay deterministic.
    """

    __slots__ = ("_count", "_mask", "_slots")

    def __init__(self) -> None:
        self._slots = array("Q", [_EMPTY]) * _INITIAL_SLOTS
        self._mask = _INITIAL_SLOTS - 1
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def add(self, url: str) -> bool:
        """Record ``url``; True if it was not seen before."""
        return self.add_many([url])[0]

    def add_many(self, urls: list[str]) -> list[bool]:
        """``add`` for each URL, in order: one tight loop for the blocks of a long list."""
        keys = [
            int.from_bytes(blake2b(url.encode("utf-8", "surrogateescape"), digest_size=8).digest())
            | 1
            for url in urls
        ]
        new: list[bool] = []
        append = new.append
        slots, mask, count = self._slots, self._mask, self._count
        for key in keys:
            if count * 2 >= mask:
                self._count = count
                self._grow()
                slots, mask = self._slots, self._mask
            index = key & mask
            found = slots[index]
            while found:
                if found == key:
                    append(False)
                    break
                index = (index + 1) & mask
                found = slots[index]
            else:
                slots[index] = key
                count += 1
                append(True)
        self._count = count
        return new

    def _grow(self) -> None:
        old = self._slots
        size = len(old) * 2
        slots = array("Q", [_EMPTY]) * size
        mask = size - 1
        for key in old:
            if key != _EMPTY:
                index = key & mask
                while slots[index] != _EMPTY:
                    index = (index + 1) & mask
                slots[index] = key
        self._slots, self._mask = slots, mask
