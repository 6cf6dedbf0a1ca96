"""Entries held until a run has seen them all, in order: in memory, then in a temporary file."""
# A stage that can decide only once every entry was seen (hreflang clusters need every listed URL,
# site chrome needs every page's images) holds the stream here rather than in a list of every Entry:
# past ``SPOOL_IN_MEMORY`` entries they go to disk in pickled chunks.

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Final

from sitemill.entries import Entry

# Entries held in memory before the spool moves to a temporary file (about 300 bytes each).
SPOOL_IN_MEMORY: Final = 50_000
_CHUNK: Final = 4_096  # entries per pickled chunk on disk


class Spool:
    """Entries in order: a list, then chunks pickled to a temporary file."""

    def __init__(self, in_memory: int | None = None) -> None:
        self._in_memory = SPOOL_IN_MEMORY if in_memory is None else in_memory
        self._memory: list[Entry] = []
        self._file: IO[bytes] | None = None

    def append(self, entry: Entry) -> None:
        self._memory.append(entry)
        if len(self._memory) >= self._in_memory:
            self._spill()

    def _spill(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="sitemill-spool-")  # noqa: SIM115
        for start in range(0, len(self._memory), _CHUNK):
            pickle.dump(self._memory[start : start + _CHUNK], self._file, pickle.HIGHEST_PROTOCOL)
        self._memory = []

    def replay(self) -> Iterator[Entry]:
        """Every entry in order, kept for ``drain``: a look at them all (one more read of
        the file) once the last was appended."""
        if self._file is not None:
            yield from _chunks(self._file)
        yield from self._memory

    def drain(self) -> Iterator[Entry]:
        """Every entry once, in order; the spool is empty after."""
        file, self._file = self._file, None
        if file is not None:
            with file:
                yield from _chunks(file)
        memory, self._memory = self._memory, []
        yield from memory


def _chunks(file: IO[bytes]) -> Iterator[Entry]:
    """The entries pickled to ``file``, from its start."""
    file.seek(0)
    while True:
        try:
            chunk: list[Entry] = pickle.load(file)  # noqa: S301 (our own file)
        except EOFError:
            return
        yield from chunk


def spool_all(entries: Iterable[Entry], in_memory: int | None = None) -> Iterator[Entry]:
    """``entries`` given back in order, the first only once the last was taken."""
    spool = Spool(in_memory)
    for entry in entries:
        spool.append(entry)
    yield from spool.drain()
