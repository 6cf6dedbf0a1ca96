"""A conditional write of a state file on one machine: only over the very file that was read."""
# S3 has If-Match; a file has none, so its identity stands in for an ETag. Every writer of a state
# file (state.store.FileStateStore, sinks.LocalDirSink) replaces it by a rename, so each write is
# a new inode: (device, inode, size, mtime) taken before and after the read names the bytes read,
# and a file with another identity at the moment of the write is another writer's (a
# ConflictError: read again, settle again). The new bytes are written and synced to a temporary
# file first, so that between the last look and the rename there is no I/O at all: only a writer
# that renames in those microseconds could still be lost. A lock file would close that gap only
# if every writer took it, and a build does not (nor should a crashed check leave one behind).

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from sitemill.errors import ConflictError, SinkError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.sinks import LocalDirSink
from sitemill.state.store import FileStateStore, SinkStateStore, StateStore, replace_file

FileIdentity = tuple[int, int, int, int, int] | None  # device, inode, size, mtime, mode; None: none


def local_path(store: StateStore) -> Path | None:
    """The file a store keeps the state in, when it is a file on this machine."""
    if isinstance(store, FileStateStore):
        return store.path
    if isinstance(store, SinkStateStore) and isinstance(store.sink, LocalDirSink):
        return store.sink.directory / STATE_NAME
    return None


def identity(path: Path) -> FileIdentity:
    """What names the file at ``path`` as it is now (None: there is none)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SinkError(f"cannot read the state {path}: {exc.strerror or exc}") from exc
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_mode)


def read_identified(
    read: Callable[[], bytes | None], path: Path
) -> tuple[bytes | None, FileIdentity]:
    """``read()`` of the file at ``path`` and the identity of what it read (a ConflictError
    when another writer replaced it meanwhile)."""
    before = identity(path)
    data = read()
    if identity(path) != before or (data is None) != (before is None):
        raise ConflictError(f"the state {path} was replaced while it was read")
    return data, before


def replace_if_same(path: Path, data: bytes, read: FileIdentity) -> bool:
    """Put ``data`` at ``path`` if the file there is still the one ``read`` names; a
    ConflictError when another writer replaced it since. True when written."""
    if read is None:
        raise ConflictError(f"the state {path} appeared after it was read")

    def unchanged() -> None:
        if identity(path) != read:
            raise ConflictError(f"the state {path} was replaced by another writer")

    try:
        replace_file(path, data, stat.S_IMODE(read[4]), check=unchanged)
    except OSError as exc:
        raise SinkError(f"cannot write the state {path}: {exc.strerror or exc}") from exc
    return True
