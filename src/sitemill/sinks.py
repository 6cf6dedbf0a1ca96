"""Where output files go: the Sink port, a local directory, and an in-memory fake."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from sitemill.errors import SinkError


class Sink(Protocol):
    """A flat namespace of output files (a directory, an S3 prefix)."""

    def read(self, name: str) -> bytes | None:
        """The file's bytes, or None when it does not exist."""
        ...

    def names(self) -> Iterator[str]:
        """Names of the files that exist now (only the ones directly in this namespace)."""
        ...

    def put(self, name: str, data: bytes, *, content_type: str, guard: bool = False) -> bool:
        """Write the file unless it already holds exactly ``data``; True when written.

        ``guard`` asks the sink to refuse to overwrite a version that another writer put
        there since this run began (S3 uses a conditional write); a local sink ignores it.
        """
        ...

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        """``put`` with the bytes in a staged file, which the sink may take over (move)."""
        ...

    def delete(self, name: str) -> None:
        """Remove the file; a file that is already gone is not an error."""
        ...


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

    def put(self, name: str, data: bytes, *, content_type: str, guard: bool = False) -> bool:
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


class LocalDirSink:
    """Files in one directory; each write is atomic (temp file + rename) and skipped if equal."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, name: str) -> Path:
        # Only plain names: nothing may be written outside the output directory.
        if not name or "/" in name or "\\" in name or name in (".", ".."):
            raise SinkError(f"refusing to write {name!r}: not a plain file name")
        return self.directory / name

    def read(self, name: str) -> bytes | None:
        try:
            return self._path(name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SinkError(f"cannot read {self._path(name)}: {exc.strerror or exc}") from exc

    def names(self) -> Iterator[str]:
        try:
            with os.scandir(self.directory) as scan:
                found = sorted(entry.name for entry in scan if entry.is_file(follow_symlinks=False))
        except FileNotFoundError:
            return iter(())
        except OSError as exc:
            raise SinkError(f"cannot list {self.directory}: {exc.strerror or exc}") from exc
        return iter(found)

    def put(self, name: str, data: bytes, *, content_type: str, guard: bool = False) -> bool:
        path = self._path(name)
        if self._holds(path, data):
            return False
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.directory)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                os.chmod(temp, 0o644)
                os.replace(temp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError as exc:
            raise SinkError(f"cannot write {path}: {exc.strerror or exc}") from exc
        return True

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        """Move a staged file into place (no copy when it is on the same file system)."""
        path = self._path(name)
        try:
            size = staged.stat().st_size
            if _same_size(path, size) and path.read_bytes() == staged.read_bytes():
                return False
            self.directory.mkdir(parents=True, exist_ok=True)
            staged.chmod(0o644)
            os.replace(staged, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise SinkError(f"cannot write {path}: {exc.strerror or exc}") from exc
            return self.put(name, staged.read_bytes(), content_type=content_type)
        return True

    @staticmethod
    def _holds(path: Path, data: bytes) -> bool:
        try:
            if path.stat().st_size != len(data):
                return False
            return path.read_bytes() == data
        except OSError:
            return False

    def delete(self, name: str) -> None:
        path = self._path(name)
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise SinkError(f"cannot delete {path}: {exc.strerror or exc}") from exc


def _same_size(path: Path, size: int) -> bool:
    try:
        return path.stat().st_size == size
    except FileNotFoundError:
        return False
