"""Where the state lives: beside the sitemaps (the sink), a file elsewhere, or an S3 object."""
# A store reads the whole state (or None when there is none) and writes it only when its bytes
# changed; ``where`` names it in messages. The S3 store is ``sitemill.state.s3``;
# ``open_state_store`` picks one for a front-end from ``config.state``.

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from sitemill.config.model import Config
from sitemill.errors import ConfigError, MissingExtraError, RefusedError, SinkError, install_hint
from sitemill.filenames.outputs import MAX_STATE_READ_BYTES, STATE_NAME, content_type
from sitemill.safefs import read_regular
from sitemill.sinks import Sink

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

# A new state file is readable by all, like the sitemaps (it may be deployed with them).
_NEW_FILE_MODE: Final = 0o644
_URL_SCHEMES: Final = ("http://", "https://", "ftp://", "file:")


class StateStore(Protocol):
    """One state file: read it whole, write it when it changed."""

    @property
    def where(self) -> str: ...

    def read(self) -> bytes | None:
        """The stored bytes, or None when there is no state yet."""
        ...

    def write(self, data: bytes) -> bool:
        """Store ``data`` unless the store already holds exactly it; True when written."""
        ...


class SinkStateStore:
    """The state beside the sitemaps, as ``sitemill-state.json.gz`` in the sink."""

    def __init__(self, sink: Sink, where: str = STATE_NAME) -> None:
        self.sink = sink
        self.where = where

    def read(self) -> bytes | None:
        return self.sink.read(STATE_NAME)

    def write(self, data: bytes) -> bool:
        return self.sink.put(STATE_NAME, data, content_type=content_type(STATE_NAME))


class FileStateStore:
    """The state in a file anywhere (``state = "path"``): read bounded, replaced atomically.

    Only a regular file is read or replaced: a symbolic link, a FIFO or a directory at the
    path is a SinkError (a link is never followed, nor silently replaced by a file), and so
    is a file over MAX_STATE_READ_BYTES. A write goes to a temporary file beside the path,
    flushed to disk, then renamed over it; a write that fails leaves no temporary file.
    """

    def __init__(self, path: Path, *, limit: int = MAX_STATE_READ_BYTES) -> None:
        self.path = path
        self.where = str(path)
        self.limit = limit

    def read(self) -> bytes | None:
        try:
            return read_regular(self.path, self.limit, whole=True, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except RefusedError as exc:
            raise SinkError(f"refusing the state: {exc}") from exc
        except OSError as exc:
            raise SinkError(f"cannot read the state {self.path}: {exc.strerror or exc}") from exc

    def write(self, data: bytes) -> bool:
        mode = self._existing_mode()
        if mode is not None and self.read() == data:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._replace(data, _NEW_FILE_MODE if mode is None else stat.S_IMODE(mode))
        except OSError as exc:
            raise SinkError(f"cannot write the state {self.path}: {exc.strerror or exc}") from exc
        return True

    def _existing_mode(self) -> int | None:
        """The mode of the regular file at the path, None when there is none; SinkError for
        anything else there (os.replace would replace a link, not write through it)."""
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SinkError(f"cannot write the state {self.path}: {exc.strerror or exc}") from exc
        if not stat.S_ISREG(mode):
            kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
            raise SinkError(
                f"refusing to replace the state {self.path}: it is {kind} "
                "(name a regular file, or remove it)"
            )
        return mode

    def _replace(self, data: bytes, mode: int) -> None:
        replace_file(self.path, data, mode)


def state_is_public(store: StateStore, folders: list[Path]) -> bool:
    """Whether the state may be served with the site: beside the sitemaps, or a file in the
    site or its output folder (an S3 object elsewhere is private)."""
    if isinstance(store, SinkStateStore):
        return True
    if not isinstance(store, FileStateStore):
        return False
    where = Path(os.path.realpath(store.path))
    return any(where.is_relative_to(os.path.realpath(folder)) for folder in folders)


def open_state_store(
    config: Config, *, s3_client: Callable[[], S3Client] | None = None
) -> StateStore | None:
    """The store ``config.state`` names, for a front-end to pass to a job; None when the
    state lives beside the sitemaps (every job's own default).

    A path is a FileStateStore; ``s3://bucket/key`` an S3StateStore with the client that
    ``s3_client`` makes (a ConfigError when the front-end has none); any other URL a
    ConfigError naming ``state``.
    """
    location = config.state
    if location is None:
        return None
    if location.startswith("s3://"):
        try:
            from sitemill.state.s3 import S3StateStore, parse_s3_location
        except ImportError as exc:
            raise MissingExtraError(f"an s3:// state needs boto3: {install_hint('s3')}") from exc
        bucket, key = parse_s3_location(location)
        if s3_client is None:
            raise ConfigError("state", f"{location!r}: an S3 state needs S3 (the CLI or Lambda)")
        return S3StateStore(s3_client(), bucket, key)
    if location.lower().startswith(_URL_SCHEMES):
        raise ConfigError("state", f"{location!r} is neither a path nor s3://bucket/key")
    return FileStateStore(Path(location))


def replace_file(
    path: Path, data: bytes, mode: int, *, check: Callable[[], None] | None = None
) -> None:
    """Put ``data`` at ``path`` with ``mode``: written and synced to a temporary file beside
    it, ``check()`` (which may raise to give up), then renamed over it; a write that fails
    or is given up leaves no temporary file."""
    handle, temporary = tempfile.mkstemp(prefix=".sitemill-state-", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        if check is not None:
            check()
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
