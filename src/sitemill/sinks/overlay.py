"""A sink that reads another and keeps what it would write in memory: a dry run over a folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sitemill.sinks.port import Sink


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
            from sitemill.sinks.folders import folder_sink

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
