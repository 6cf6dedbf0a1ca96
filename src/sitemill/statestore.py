"""Where the state lives: beside the sitemaps (the sink), a file elsewhere, or an S3 object.

A store reads the whole state (or None when there is none) and writes it only when its bytes
changed; ``where`` names it in messages. The S3 store is ``sitemill.sinks.s3state``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Protocol

from sitemill.errors import RefusedError, SinkError
from sitemill.outputs import STATE_NAME, content_type
from sitemill.safefs import read_regular
from sitemill.sinks import Sink

# A state larger than this is not one sitemill wrote (a million pages compress to ~20 MB).
MAX_STATE_READ_BYTES = 64 * 1024 * 1024


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
    """The state in a file anywhere (``state = "path"``): read bounded, replaced atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)

    def read(self) -> bytes | None:
        try:
            return read_regular(self.path, MAX_STATE_READ_BYTES)
        except FileNotFoundError:
            return None
        except (OSError, RefusedError) as exc:
            raise SinkError(f"cannot read the state {self.path}: {exc}") from exc

    def write(self, data: bytes) -> bool:
        if self.read() == data:
            return False
        directory = self.path.parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".sitemill-state-", dir=directory)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, self.path)
        except OSError as exc:
            raise SinkError(f"cannot write the state {self.path}: {exc.strerror or exc}") from exc
        return True
