"""The files of a tree's output folder as a takeover reads and deletes them."""
# Its own and those in folders below it (Hugo's ``en/sitemap.xml``): only inside the folder, never
# through a symbolic link (sitemill.safefs), only the bytes asked for.

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from sitemill.errors import RefusedError, SinkError
from sitemill.safefs import Root, read_regular
from sitemill.sinks import Sink

log = logging.getLogger(__name__)


class FolderFiles:
    """A local folder's files (sitemill.writing.takeover.Files)."""

    def __init__(self, folder: Path) -> None:
        self.root = Root(folder)

    def _path(self, name: str) -> str:
        """The path of ``name``, its folder resolved inside the root; the name itself is
        never followed (a link there is refused by whoever opens or deletes it)."""
        folder, base = os.path.split(name)
        if not base or base in (".", ".."):
            raise RefusedError(name, "is not a file name")
        real = self.root.resolve(folder) if folder else self.root.real
        return os.path.join(real, base)

    def read(self, name: str, limit: int) -> bytes | None:
        try:
            return read_regular(self._path(name), limit, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except (RefusedError, OSError) as exc:
            log.debug("not reading %s: %s", name, exc)
            return None

    def delete(self, name: str) -> None:
        """Delete a regular file inside the folder (a link is refused, never followed)."""
        path = self._path(name)
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise RefusedError(path, "is not a regular file")
        os.unlink(path)


class SinkFiles:
    """The files of a sink that is no local folder (a MemorySink): its own names only."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink

    def read(self, name: str, limit: int) -> bytes | None:
        if "/" in name:
            return None
        try:
            data = self.sink.read(name)
        except SinkError as exc:
            log.debug("not reading %s: %s", name, exc)
            return None
        return None if data is None else data[:limit]

    def delete(self, name: str) -> None:
        self.sink.delete(name)


def files_of(sink: Sink) -> FolderFiles | SinkFiles:
    """The files a tree run's takeover looks at: the sink's folder, when it writes to one."""
    directory = getattr(sink, "directory", None)
    return FolderFiles(directory) if isinstance(directory, Path) else SinkFiles(sink)
