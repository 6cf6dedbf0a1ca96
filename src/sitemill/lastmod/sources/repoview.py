"""What the page-to-source mapping sees of the repository: HEAD's files and their text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RepoView:
    """The repository at HEAD, as the mapping reads it (docs/lastmod.md, "Rung 2").

    ``files``: every file tracked at HEAD, repo-relative POSIX paths, sorted; ``read_text``:
    a HEAD file's text (bounded, UTF-8; None when it cannot be read)."""

    files: tuple[str, ...]
    read_text: Callable[[str], str | None]
