"""The URLs not announced yet, where a run keeps them."""
# In its state, or (a partitioned state) in an object of their own beside it. What is kept is
# written over what the store holds *now*, not over what was read: a URL another run added
# meanwhile (a deploy's build while `sitemill check` or `sitemill indexnow` sent) stays pending.
# And the write is conditional on what it settled over still being there: S3's If-Match, and for
# a file, the identity of the one read (replace_if_same, below).

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sitemill.errors import ConflictError, SinkError, StateError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.sinks import LocalDirSink
from sitemill.state.jsondecode import load_state_json
from sitemill.state.model import State, dump_document, dump_state
from sitemill.state.pending import pending_from_json
from sitemill.state.store import (
    FileStateStore,
    SinkStateStore,
    StateStore,
    replace_file,
    state_is_public,
)

PENDING_FORMAT: Final = "sitemill-indexnow"
# Writes of the pending URLs tried over another writer's newer version before it is an error
# (a SinkError: the URLs just sent stay pending, and are sent again; none is lost).
_ATTEMPTS: Final = 3


def merge_pending(
    read: dict[str, str] | None, now: dict[str, str], kept: dict[str, str]
) -> dict[str, str]:
    """The pending URLs to write: ``kept`` (what is left of ``read`` after sending), and each
    URL of ``now`` that another writer added or changed since ``read`` (all of ``now``'s
    are taken as read when nothing was: ``kept`` then stands alone)."""
    merged = dict(kept)
    if read is not None:
        for url, kind in now.items():
            if read.get(url) != kind:
                merged.setdefault(url, kind)
    return merged


class StatePending:
    """The ``pending`` table of the state in ``store``; ``public`` when that state sits
    beside the sitemaps (it keeps no removed URL, indexnow._announce.kept_pending)."""

    def __init__(self, store: StateStore, *, public: bool) -> None:
        self.store = store
        self.public = public
        self._read: dict[str, str] | None = None  # the pending URLs as last read

    def read(self) -> dict[str, str]:
        state = self.state()
        return {} if state is None else state.pending

    def state(self) -> State | None:
        """The state itself (None when there is none or it cannot be read)."""
        from sitemill.state.parse import parse_state

        data = self.store.read()
        if data is None:
            self._read = {}
            return None
        try:
            state = parse_state(data)
        except StateError:
            return None
        self._read = dict(state.pending)
        return state

    def write(self, pending: dict[str, str]) -> bool:
        """The state as it is now, with ``pending`` and what another writer added since the
        read (no write when it holds exactly that, or when there is no state to keep it in)."""
        return _again_over_a_newer_version(lambda: self._write_once(pending))

    def _write_once(self, pending: dict[str, str]) -> bool:
        from sitemill.state.parse import parse_state

        path = local_path(self.store)
        read = read_identified(self.store.read, path) if path is not None else None
        data = self.store.read() if read is None else read[0]
        if data is None:
            return False
        state = parse_state(data)
        merged = merge_pending(self._read, state.pending, pending)
        if state.pending == merged:
            return False
        state.pending = merged
        if path is not None and read is not None:
            written = replace_if_same(path, dump_state(state), read[1])
        else:
            written = self.store.write(dump_state(state))
        self._read = merged
        return written


class ObjectPending:
    """The pending URLs as a document of their own in ``store`` (a partitioned state's
    ``indexnow.json.gz``: private, like the state)."""

    public = False

    def __init__(self, store: StateStore) -> None:
        self.store = store
        self._read: dict[str, str] | None = None  # the pending URLs as last read

    def read(self) -> dict[str, str]:
        self._read = _pending_document(self.store.read())
        return dict(self._read)

    def write(self, pending: dict[str, str]) -> bool:
        """``pending`` and what another writer added since the read, over the version there
        now (conditional, where the store's writes are: S3's If-Match)."""
        return _again_over_a_newer_version(lambda: self._write_once(pending))

    def _write_once(self, pending: dict[str, str]) -> bool:
        data = self.store.read()
        merged = merge_pending(self._read, _pending_document(data), pending)
        if data is None and not merged:
            return False
        written = self.store.write(dump_document({"format": PENDING_FORMAT, "pending": merged}))
        self._read = merged
        return written


def _again_over_a_newer_version(write_once: Callable[[], bool]) -> bool:
    """``write_once`` (read what is there now, settle, write over it), once more each time
    another writer's version won (a ConflictError), at most _ATTEMPTS times in all."""
    for _ in range(_ATTEMPTS - 1):
        try:
            return write_once()
        except ConflictError:
            continue
    return write_once()


def _pending_document(data: bytes | None) -> dict[str, str]:
    """The pending URLs of an ``indexnow.json.gz`` (none when absent or not one)."""
    if data is None:
        return {}
    try:
        document: Any = load_state_json(data)
    except StateError:
        return {}
    if not isinstance(document, dict) or document.get("format") != PENDING_FORMAT:
        return {}
    return pending_from_json(document)


def tree_pending(store: StateStore | None, site_dir: Path, out_dir: Path) -> StatePending:
    """The pending URLs of a tree's runs: in ``store`` (``state``), or the state beside the
    sitemaps in ``out_dir`` when there is none."""
    store = store or SinkStateStore(LocalDirSink(out_dir))
    return StatePending(store, public=state_is_public(store, [site_dir, out_dir]))


# A conditional write of a state file on one machine: only over the very file that was read.
# S3 has If-Match; a file has none, so its identity stands in for an ETag. Every writer of a state
# file (state.store.FileStateStore, sinks.LocalDirSink) replaces it by a rename, so each write is
# a new inode: (device, inode, size, mtime) taken before and after the read names the bytes read,
# and a file with another identity at the moment of the write is another writer's (a
# ConflictError: read again, settle again). The new bytes are written and synced to a temporary
# file first, so that between the last look and the rename there is no I/O at all: only a writer
# that renames in those microseconds could still be lost. A lock file would close that gap only
# if every writer took it, and a build does not (nor should a crashed check leave one behind).
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
