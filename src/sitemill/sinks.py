"""Where output files go: the Sink port, a local directory, and an in-memory fake."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from sitemill.errors import SinkError
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.robots import MAX_ROBOTS_TXT_BYTES
from sitemill.safefs import RefusedError, read_regular

# writer.ROBOTS_TXT (writer imports this module, so it is spelled here too).
_ROBOTS_TXT: Final = "robots.txt"


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


class LocalDirSink:
    """Files in one directory; each write is atomic (temp file + rename) and skipped if equal.

    Nothing here follows a symbolic link out of the directory. ``read`` returns the bytes of a
    regular file only, at most what such a file may hold (robots.txt: Google's 500 KiB; a
    sitemap: the protocol's 50 MiB, a little more gzipped); a name that is a link, a FIFO, a
    device or a directory, or a file over that bound, is a SinkError rather than a guess:
    robots.txt is merged, not replaced, so a link there (to ``../.git/config``, say) is neither
    read nor written through, and the user is told to make it a regular file. ``put`` and
    ``put_file`` rename over a name, which replaces a link there rather than writing into its
    target; ``delete`` removes a link itself; ``names`` lists regular files only. The directory
    itself is trusted as given (callers check where it leads: see ``pipeline``).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, name: str) -> Path:
        # Only plain names: nothing may be written outside the output directory.
        if not name or "/" in name or "\\" in name or name in (".", ".."):
            raise SinkError(f"refusing to write {name!r}: not a plain file name")
        return self.directory / name

    def read(self, name: str) -> bytes | None:
        path = self._path(name)
        try:
            return read_regular(path, read_limit(name), whole=True, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except RefusedError as exc:
            raise SinkError(
                f"refusing to read or replace {exc}: sitemill only rewrites a regular file "
                "(replace it with one, or remove it)"
            ) from exc
        except OSError as exc:
            raise SinkError(f"cannot read {path}: {exc.strerror or exc}") from exc

    def names(self) -> Iterator[str]:
        try:
            with os.scandir(self.directory) as scan:
                found = sorted(entry.name for entry in scan if entry.is_file(follow_symlinks=False))
        except FileNotFoundError:
            return iter(())
        except OSError as exc:
            raise SinkError(f"cannot list {self.directory}: {exc.strerror or exc}") from exc
        return iter(found)

    def holds(self, name: str, staged: Path) -> bool:
        return _same_file_bytes(self._path(name), staged)

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        path = self._path(name)
        if _holds(path, data):
            return False
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            # mkstemp creates with O_EXCL (and O_NOFOLLOW): never an existing file or a link.
            handle, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.directory)
            try:
                with os.fdopen(handle, "wb") as out:
                    os.fchmod(out.fileno(), 0o644)
                    out.write(data)
                os.replace(temp, path)  # replaces a link at ``path``, never writes through it
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
            if self.holds(name, staged):
                return False
            self.directory.mkdir(parents=True, exist_ok=True)
            staged.chmod(0o644)
            os.replace(staged, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise SinkError(f"cannot write {path}: {exc.strerror or exc}") from exc
            return self.put(name, staged.read_bytes(), content_type=content_type)
        return True

    def delete(self, name: str) -> None:
        path = self._path(name)
        try:
            path.unlink()  # a link is removed itself, its target left alone
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise SinkError(f"cannot delete {path}: {exc.strerror or exc}") from exc


def read_limit(name: str) -> int:
    """The most bytes a file of this name in an output folder may hold, for ``read``."""
    if name == _ROBOTS_TXT:
        return MAX_ROBOTS_TXT_BYTES
    if name.endswith(".gz"):
        # Deflate's stored blocks add 5 bytes per 64 KiB: incompressible data grows a little.
        return MAX_BYTES_LIMIT + MAX_BYTES_LIMIT // 8192 + 1024
    return MAX_BYTES_LIMIT


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly ``data``."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        return read_regular(path, len(data), whole=True, follow_symlinks=False) == data
    except (OSError, RefusedError):
        return False


def _same_file_bytes(path: Path, staged: Path) -> bool:
    """Whether ``path`` is a regular file (not a link) with the bytes of ``staged``."""
    try:
        info = path.lstat()
        size = staged.stat().st_size
        if not stat.S_ISREG(info.st_mode) or info.st_size != size:
            return False
        return _holds(path, staged.read_bytes())
    except OSError:
        return False
