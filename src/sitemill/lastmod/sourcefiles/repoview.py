"""What rung 2 sees of the repository: the files tracked at HEAD and a way to read one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RepoView:
    """The repository at HEAD as the source map reads it (nothing of it runs).

    ``files``: every file tracked at HEAD, repo-relative POSIX paths, sorted.
    ``read_text``: a HEAD file's text (bounded, UTF-8), None where it cannot be read.
    """

    files: tuple[str, ...]
    read_text: Callable[[str], str | None]
