"""The sink for a local output folder: atomic writes that never follow a link out of it."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sitemill.errors import RefusedError, SinkError
from sitemill.filenames.outputs import read_limit
from sitemill.safefs import read_regular


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
