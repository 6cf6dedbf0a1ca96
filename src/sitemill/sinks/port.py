"""The Sink port: where output files go (a directory, an S3 prefix, a dict in tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable


class Sink(Protocol):
    """A flat namespace of output files (a directory, an S3 prefix)."""

    def read(self, name: str) -> bytes | None:
        """The file's bytes, or None when it does not exist."""
        ...

    def names(self) -> Iterator[str]:
        """Names of the files that exist now (only the ones directly in this namespace)."""
        ...

    def holds(self, name: str, staged: Path) -> bool:
        """Whether the file exists and holds exactly the bytes of the ``staged`` file."""
        ...

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        """Write the file unless it already holds exactly ``data``; True when written.

        A sink that can tell (S3) refuses to replace a version that another writer put there
        since this run read it, with a ConflictError.
        """
        ...

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        """``put`` with the bytes in a staged file, which the sink may take over (move)."""
        ...

    def delete(self, name: str) -> None:
        """Remove the file; a file that is already gone is not an error."""
        ...


@runtime_checkable
class Renewing(Protocol):
    """A sink whose readers can see versions (S3's ETags): a file whose bytes are there
    already but that no live index names may be another run's to delete, conditional on
    the version it listed; writing it again under a new version makes that deletion fail."""

    def renew(self, name: str, data: bytes, *, content_type: str) -> None:
        """Write ``data`` (the bytes the file holds) again, under a new version."""
        ...


# A sink in memory: the fake for tests, dry runs and previews.
@dataclass
class MemorySink:
    """A sink in a dict: for tests, dry runs and previews."""

    files: dict[str, bytes] = field(default_factory=dict)
    content_types: dict[str, str] = field(default_factory=dict)
    puts: int = 0

    def read(self, name: str) -> bytes | None:
        return self.files.get(name)

    def names(self) -> Iterator[str]:
        return iter(sorted(self.files))

    def holds(self, name: str, staged: Path) -> bool:
        return self.files.get(name) == staged.read_bytes()

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if self.files.get(name) == data:
            return False
        self.files[name] = data
        self.content_types[name] = content_type
        self.puts += 1
        return True

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.put(name, staged.read_bytes(), content_type=content_type)

    def delete(self, name: str) -> None:
        self.files.pop(name, None)
        self.content_types.pop(name, None)
