"""The Sink port: where output files go (a directory, an S3 prefix, a dict in tests)."""

from __future__ import annotations

from collections.abc import Iterator
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
