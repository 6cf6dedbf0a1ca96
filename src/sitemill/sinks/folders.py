"""Sinks over another: a folder below it (llms.txt's kin: fr/llms.txt), an overlay (a dry run)."""
# A sink is a flat namespace (sinks.port). A file in a folder of the site is written through a
# sink of that folder: for a local folder, one whose every step below the root is a directory of
# its own, never a link (the site root is a wall); for an S3 prefix, the longer prefix; for a sink
# in memory, a view whose names carry the folder.

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from sitemill.errors import SinkError
from sitemill.sinks._local import LocalDirSink
from sitemill.sinks.port import Sink


def split_name(name: str) -> tuple[str, str]:
    """``fr/docs/llms.txt`` -> (``fr/docs``, ``llms.txt``); a plain name's folder is ""."""
    folder, _, base = name.rpartition("/")
    return folder, base


def folder_sink(sink: Sink, folder: str) -> Sink:
    """The sink of ``folder`` (a relative path of plain names) below ``sink``'s root."""
    parts = PurePosixPath(folder).parts
    if not folder:
        return sink
    if folder.startswith("/") or any(part in (".", "..") or "\\" in part for part in parts):
        raise SinkError(f"refusing to write into {folder!r}: not a folder of the site")
    if isinstance(sink, LocalDirSink):
        return LocalDirSink(_own_directory(sink.directory, parts))
    if type(sink).__name__ == "S3Sink":  # (botocore is loaded then: a bucket's run)
        from sitemill.sinks.s3 import S3Sink

        assert isinstance(sink, S3Sink)
        prefix = sink.prefix + folder
        return S3Sink(
            sink.client, sink.bucket, prefix, cache_control=sink.cache_control, dry_run=sink.dry_run
        )
    return FolderView(sink, folder)


def _own_directory(root: Path, parts: tuple[str, ...]) -> Path:
    """``root``/``parts``, each step that exists a directory of its own, never a link (a step
    missing: none below it exists either; the sink makes them when it writes, and a read or a
    deletion there finds nothing)."""
    path = root
    for part in parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return root.joinpath(*parts)
        except OSError as exc:
            raise SinkError(f"cannot look at {path}: {exc.strerror or exc}") from exc
        if not stat.S_ISDIR(mode):
            raise SinkError(f"refusing to write into {path}: not a directory of the site's own")
    return path


class FolderView:
    """The files of ``folder`` of a sink whose names may hold slashes (a sink in memory)."""

    def __init__(self, under: Sink, folder: str) -> None:
        self.under, self.prefix = under, folder.rstrip("/") + "/"

    def read(self, name: str) -> bytes | None:
        return self.under.read(self.prefix + name)

    def names(self) -> Iterator[str]:
        inside = (name for name in self.under.names() if name.startswith(self.prefix))
        found = (name[len(self.prefix) :] for name in inside)
        return (name for name in found if name and "/" not in name)

    def holds(self, name: str, staged: Path) -> bool:
        return self.under.holds(self.prefix + name, staged)

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        return self.under.put(self.prefix + name, data, content_type=content_type)

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.under.put_file(self.prefix + name, staged, content_type=content_type)

    def delete(self, name: str) -> None:
        self.under.delete(self.prefix + name)


# A sink that reads another and keeps what it would write in memory: a dry run over a folder.
class OverlaySink:
    """Reads ``under`` (a folder's sitemaps and state, as a run finds them); writes and
    deletes stay here, in memory: ``under`` is never changed."""

    def __init__(self, under: Sink) -> None:
        self.under = under
        self.changed: dict[str, bytes | None] = {}  # None: deleted

    def read(self, name: str) -> bytes | None:
        if name in self.changed:
            return self.changed[name]
        folder, _, base = name.rpartition("/")
        if (
            folder
        ):  # (a Markdown twin beside its page: read as a run reads it, never through a link)
            return folder_sink(self.under, folder).read(base)
        return self.under.read(name)

    def names(self) -> Iterator[str]:
        names = set(self.under.names()) | set(self.changed)
        return iter(sorted(name for name in names if self.changed.get(name, b"") is not None))

    def holds(self, name: str, staged: Path) -> bool:
        return self.read(name) == staged.read_bytes()

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if self.read(name) == data:
            return False
        self.changed[name] = data
        return True

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.put(name, staged.read_bytes(), content_type=content_type)

    def delete(self, name: str) -> None:
        self.changed[name] = None
