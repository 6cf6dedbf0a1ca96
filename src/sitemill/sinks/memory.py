"""A sink in memory: the fake for tests, dry runs and previews."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


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
