"""Parse ``git log --first-parent -m -z --name-only`` and date paths from it."""
# Paths are dated the way ``git log --first-parent -- path`` would.

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

_CHUNK = 1 << 16


@dataclass(slots=True)
class Commit:
    """One commit of the log; a merge's one name block is what differs from its first parent."""

    sha: bytes
    time: int
    parents: list[bytes]
    blocks: list[list[bytes]] = field(default_factory=list)


def parse_log(stream: IO[bytes], relevant: set[bytes]) -> Iterator[Commit]:
    """Yield the commits of ``git log -z --name-only`` output, keeping only relevant names."""
    commit: Commit | None = None
    block: list[bytes] = []
    header_next = new_block = False
    tail = b""
    while chunk := stream.read(_CHUNK):
        tokens = (tail + chunk).split(b"\0")
        tail = tokens.pop()
        for token in tokens:
            if not token:
                header_next = True
            elif header_next:
                header_next = False
                sha, time, *parents = token.split()
                if commit is None or sha != commit.sha:
                    if commit is not None:
                        yield commit
                    commit = Commit(sha, int(time), parents)
                block = []
                new_block = True
            else:
                if commit is None:
                    raise ValueError("file names before the first commit")
                if new_block:
                    # A blank line separates the header from the names; it sticks to the first.
                    token = token.removeprefix(b"\n")
                    commit.blocks.append(block)
                    new_block = False
                if token in relevant:
                    block.append(token)
    if commit is not None:
        yield commit


class HistoryWalk:
    """Dates every target path at once as ``git log --first-parent -1 -- path`` would: the
    log lists HEAD's first-parent line newest first, each commit's names those it changed
    against its first parent (a merge's: what it brought into the branch)."""

    def __init__(self, targets: set[bytes]) -> None:
        self.unresolved = set(targets)
        self.dates: dict[bytes, int] = {}

    def visit(self, commit: Commit) -> bool:
        """Account for one commit; return True when nothing older can change the result."""
        for path in commit.blocks[0] if commit.blocks else ():
            if path in self.unresolved:
                self.unresolved.discard(path)
                self.dates[path] = commit.time
        return not self.unresolved
