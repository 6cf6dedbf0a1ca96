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
        self._slots = array("Q", bytes(8 * _INITIAL_SLOTS))
        self._mask = _INITIAL_SLOTS - 1
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def add(self, url: str) -> bool:
        """Record ``url``; True if it was not seen before."""
        key = int.from_bytes(
            blake2b(url.encode("utf-8", "surrogateescape"), digest_size=8).digest()
        )
        key = key or 1  # 0 marks an empty slot
        slots, mask = self._slots, self._mask
        index = key & mask
        while True:
            found = slots[index]
            if found == _EMPTY:
                break
            if found == key:
                return False
            index = (index + 1) & mask
        slots[index] = key
        self._count += 1
        if self._count * 2 > mask:
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._slots
        size = len(old) * 2
        slots = array("Q", bytes(8 * size))
        mask = size - 1
        for key in old:
            if key != _EMPTY:
                index = key & mask
                while slots[index] != _EMPTY:
                    index = (index + 1) & mask
                slots[index] = key
        self._slots, self._mask = slots, mask
