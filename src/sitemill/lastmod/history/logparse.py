"""Parse ``git log --first-parent -m -z --name-only`` and date paths from it."""
# Paths are dated the way ``git log --first-parent -- path`` would. The stream's tokens and each
# commit's header are read here for history.versions' ``--raw`` log too.

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Protocol, TypeVar

_CHUNK = 1 << 16


class LogTokens:
    """The NUL-separated tokens of a ``git log -z`` stream, a chunk's worth at a time;
    ``tail``, once they are all read, what followed the last NUL (b"": the output ended on
    one)."""

    __slots__ = ("stream", "tail")

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream, self.tail = stream, b""

    def __iter__(self) -> Iterator[list[bytes]]:
        while chunk := self.stream.read(_CHUNK):
            tokens = (self.tail + chunk).split(b"\0")
            self.tail = tokens.pop()
            yield tokens


class _Commit(Protocol):
    sha: bytes


_C = TypeVar("_C", bound=_Commit)


def commit_at(
    header: bytes, current: _C | None, make: Callable[[bytes, int, list[bytes]], _C]
) -> tuple[_C | None, _C]:
    """The commit a ``%H %ct %P`` header starts (``make``, from its id, committer time and
    parents), and the one it ends (None: none, or ``current`` goes on, as -m repeats a
    merge's header)."""
    sha, time, *parents = header.split()
    if current is not None and sha == current.sha:
        return None, current
    return current, make(sha, int(time), parents)


@dataclass(slots=True)
class NameOnlyCommit:
    """One commit of the log; a merge's one name block is what differs from its first parent."""

    sha: bytes
    time: int
    parents: list[bytes]
    blocks: list[list[bytes]] = field(default_factory=list)


def parse_log(stream: IO[bytes], relevant: set[bytes]) -> Iterator[NameOnlyCommit]:
    """Yield the commits of ``git log -z --name-only`` output, keeping only relevant names."""
    commit: NameOnlyCommit | None = None
    block: list[bytes] = []
    header_next = new_block = False
    for tokens in LogTokens(stream):
        for token in tokens:
            if not token:
                header_next = True
            elif header_next:
                header_next = False
                ended, commit = commit_at(token, commit, NameOnlyCommit)
                if ended is not None:
                    yield ended
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

    def visit(self, commit: NameOnlyCommit) -> bool:
        """Account for one commit; return True when nothing older can change the result."""
        for path in commit.blocks[0] if commit.blocks else ():
            if path in self.unresolved:
                self.unresolved.discard(path)
                self.dates[path] = commit.time
        return not self.unresolved
