"""Parse ``git log -m -z --name-only`` and date paths the way ``git log -- path`` would."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Protocol, TypeVar

_CHUNK = 1 << 16

# The trees of some commits, asked of git (``rev-parse <sha>^{tree}``...).
Trees = Callable[[Sequence[bytes]], list[bytes]]
Block = TypeVar("Block")


def octopus_blocks(commit: _Merge[Block], trees: Trees | None, empty: Block) -> list[Block]:
    """A block per parent of an octopus merge, ``empty`` for each parent whose tree is the
    merge's (``-m`` prints nothing for those: ``-s ours`` gives every parent after the first
    one). Without ``trees``, or when they do not account for the blocks, every parent gets
    an empty block: the merge's content is taken to be the first parent's, as with -s ours."""
    parent_trees = trees(commit.parents) if trees is not None else []
    if sum(tree != commit.tree for tree in parent_trees) != len(commit.blocks):
        return [empty for _ in commit.parents]
    given = iter(commit.blocks)
    return [next(given) if tree != commit.tree else empty for tree in parent_trees]


class _Merge(Protocol[Block]):
    @property
    def tree(self) -> bytes: ...
    @property
    def parents(self) -> list[bytes]: ...
    @property
    def blocks(self) -> list[Block]: ...


@dataclass(slots=True)
class Commit:
    """One commit of the log; with -m a merge has one name block per parent it differs from."""

    sha: bytes
    time: int
    tree: bytes
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
                sha, time, tree, *parents = token.split()
                if commit is None or sha != commit.sha:
                    if commit is not None:
                        yield commit
                    commit = Commit(sha, int(time), tree, parents)
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


@dataclass(frozen=True, slots=True)
class _Reach:
    """The paths whose simplified history reaches a commit: all except ``paths``, or only them."""

    excluding: bool
    paths: frozenset[bytes]

    def covers(self, path: bytes) -> bool:
        return (path in self.paths) != self.excluding


@dataclass(slots=True)
class _PendingMerge:
    """A two-parent merge whose single name block belongs to whichever parent's tree differs."""

    tree: bytes
    parents: list[bytes]
    reach: _Reach
    names: frozenset[bytes]
    settled: bool = False


class HistoryWalk:
    """Replays git's default history simplification for every target path at once.

    ``git log -- path`` follows, at a merge, only the first parent whose version of ``path``
    equals the merge's; a commit is shown when it changes ``path`` against every parent it has.
    Instead of one walk per path, each commit carries the set of paths whose simplified history
    reaches it, and a path is dated by the first commit in date order that it reaches and changes.
    """

    def __init__(self, head: bytes, targets: set[bytes], trees: Trees | None = None) -> None:
        self.unresolved = set(targets)
        self._trees = trees
        self.dates: dict[bytes, int] = {}
        self._reach: dict[bytes, _Reach] = {head: _Reach(excluding=True, paths=frozenset())}
        self._pending: dict[bytes, list[_PendingMerge]] = {}

    def visit(self, commit: Commit) -> bool:
        """Account for one commit; return True when nothing older can change the result."""
        for merge in self._pending.pop(commit.sha, ()):
            self._settle(merge, commit)
        reach = self._reach.pop(commit.sha, None)
        if reach is not None:
            if len(commit.parents) <= 1:
                self._visit_single(commit, reach)
            else:
                self._visit_merge(commit, reach)
        return not self.unresolved or (not self._reach and not self._pending)

    def _visit_single(self, commit: Commit, reach: _Reach) -> None:
        for path in commit.blocks[0] if commit.blocks else ():
            if path in self.unresolved and reach.covers(path):
                self._resolve(path, commit.time)
        if commit.parents:
            self._send(commit.parents[0], reach)

    def _visit_merge(self, commit: Commit, reach: _Reach) -> None:
        parents, blocks = commit.parents, commit.blocks
        if not blocks:  # the same tree as every parent: git follows the first
            self._send(parents[0], reach)
        elif len(blocks) == len(parents):
            self._visit_blocks(commit, reach, blocks)
        elif len(parents) == 2:
            # -m prints nothing for a parent with the merge's own tree, so which parent this
            # block belongs to is known only once one parent's tree is seen.
            merge = _PendingMerge(commit.tree, parents, reach, frozenset(blocks[0]))
            for parent in parents:
                self._pending.setdefault(parent, []).append(merge)
        else:
            # An octopus merge with parents whose tree is its own (-s ours): which parent
            # each block belongs to takes the parents' trees.
            self._visit_blocks(commit, reach, octopus_blocks(commit, self._trees, []))

    def _visit_blocks(self, commit: Commit, reach: _Reach, blocks: list[list[bytes]]) -> None:
        """A merge with a block per parent: a path in every block is the merge's change; the
        others follow the first parent whose block they are not in."""
        parents = commit.parents
        for path in set(blocks[0]).intersection(*blocks[1:]):
            if path in self.unresolved and reach.covers(path):
                self._resolve(path, commit.time)  # differs from every parent
        changed = set(blocks[0])  # names that differ from every parent seen so far
        self._send(parents[0], self._without(reach, changed))
        for parent, block in zip(parents[1:], blocks[1:], strict=True):
            names = set(block)
            self._send(parent, self._only(reach, changed - names))
            changed &= names

    def _settle(self, merge: _PendingMerge, parent: Commit) -> None:
        if merge.settled:
            return
        merge.settled = True
        first, second = merge.parents
        if (parent.tree == merge.tree) == (parent.sha == first):
            self._send(first, merge.reach)  # the first parent has the merge's tree
        else:
            self._send(first, self._without(merge.reach, merge.names))
            self._send(second, self._only(merge.reach, merge.names))

    def _resolve(self, path: bytes, time: int) -> None:
        self.unresolved.discard(path)
        self.dates[path] = time

    def _without(self, reach: _Reach, names: Iterable[bytes]) -> _Reach:
        if reach.excluding:
            kept = {path for path in reach.paths.union(names) if path in self.unresolved}
            return _Reach(excluding=True, paths=frozenset(kept))
        return _Reach(excluding=False, paths=reach.paths.difference(names))

    def _only(self, reach: _Reach, names: Iterable[bytes]) -> _Reach:
        kept = {path for path in names if path in self.unresolved and reach.covers(path)}
        return _Reach(excluding=False, paths=frozenset(kept))

    def _send(self, sha: bytes, reach: _Reach) -> None:
        if not reach.excluding and not reach.paths:
            return
        known = self._reach.get(sha)
        if known is None:
            self._reach[sha] = reach
        elif known.excluding and reach.excluding:
            self._reach[sha] = _Reach(excluding=True, paths=known.paths & reach.paths)
        elif known.excluding or reach.excluding:
            excluded, included = (known, reach) if known.excluding else (reach, known)
            self._reach[sha] = _Reach(excluding=True, paths=excluded.paths - included.paths)
        else:
            self._reach[sha] = _Reach(excluding=False, paths=known.paths | reach.paths)
