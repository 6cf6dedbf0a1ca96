"""Each file's versions, newest first, from one ``git log -m -M --raw -z`` pass over HEAD.

A file's versions are the commits ``git log -- file`` shows, with the blob each one gave the
file: git's default history simplification, replayed for every file at once (as
sitemill.sources.gitlog does for the newest commit only). At a merge, a file whose content
equals a parent's is followed into the first such parent only; a merge that gives it content
of its own is a version, and the file's history goes on into every parent. A rename (``R100
old new``) carries the file's history on as ``old``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, NamedTuple

from sitemill.sources.gitlog import Trees, octopus_blocks

_CHUNK = 1 << 16


class Version(NamedTuple):  # a tuple: one for each version of every file, made quickly
    """A commit that gave a file new content: its committer time, the blob (None: the commit
    deleted the file), and whether the commit has no parent (a first commit or a shallow cut)."""

    time: int
    blob: bytes | None
    root: bool


class Change(NamedTuple):
    """A file changed against one parent: its new blob (None: deleted), a rename's old name."""

    blob: bytes | None
    source: bytes | None = None


_Block = dict[bytes, Change]


@dataclass(slots=True)
class LogCommit:
    """One commit of the log; with -m a merge has one block per parent its tree differs from."""

    sha: bytes
    time: int
    tree: bytes
    parents: list[bytes]
    blocks: list[_Block] = field(default_factory=list)


def parse_raw_log(stream: IO[bytes], relevant: set[bytes]) -> Iterator[LogCommit]:
    """Yield the commits of ``git log -m --raw -z --format=%x00%H %ct %T %P`` output.

    Only changes to ``relevant`` names are kept (the set may grow while commits are read). A
    raw record is a meta token (``:mode mode old new status``), then one path, or two (source,
    destination) for a rename or copy; read by position, a path is never taken for a record.
    """
    commit: LogCommit | None = None
    block: dict[bytes, Change] = {}
    paths_left = 0
    header_next = new_block = False
    status = new_blob = source = b""
    tail = b""
    while chunk := stream.read(_CHUNK):
        tokens = (tail + chunk).split(b"\0")
        tail = tokens.pop()
        for token in tokens:
            if paths_left:
                paths_left -= 1
                if paths_left:
                    source = token
                elif token in relevant or source in relevant:
                    _add_change(block, status, new_blob, source, token, relevant)
            elif not token:
                header_next = True
            elif header_next:
                header_next = False
                sha, time, tree, *parents = token.split()
                if commit is None or sha != commit.sha:
                    if commit is not None:
                        yield commit
                    commit = LogCommit(sha, int(time), tree, parents)
                new_block = True
            else:
                meta = token.removeprefix(b"\n").split(b" ")
                if len(meta) != 5 or not meta[0].startswith(b":") or commit is None:
                    raise ValueError(f"unexpected raw diff record {token[:80]!r}")
                if new_block:  # a block counts only with a record: -m shows no empty diff
                    block = {}
                    commit.blocks.append(block)
                    new_block = False
                new_blob, status, source = meta[3], meta[4], b""
                paths_left = 2 if status[:1] in (b"R", b"C") else 1
    if tail or paths_left:
        raise ValueError("git log output ends in the middle of a record")
    if commit is not None:
        yield commit


def _add_change(
    block: dict[bytes, Change],
    status: bytes,
    new_blob: bytes,
    source: bytes,
    path: bytes,
    relevant: set[bytes],
) -> None:
    blob = None if status == b"D" else new_blob
    if path in relevant:
        block[path] = Change(blob, source if status[:1] == b"R" else None)
    if status[:1] == b"R" and source in relevant:
        block.setdefault(source, Change(None))  # renamed away: gone from this commit


@dataclass(frozen=True, slots=True)
class _Reach:
    """Which file each name at a commit belongs to: ``names`` says so for some names; with
    ``everything``, any other name of a tracked file is that file's own."""

    everything: bool
    names: Mapping[bytes, bytes | None]


@dataclass(slots=True)
class _PendingMerge:
    """A two-parent merge whose one block belongs to whichever parent's tree differs."""

    tree: bytes
    parents: list[bytes]
    reach: _Reach
    names: frozenset[bytes]
    settled: bool = False


class VersionWalk:
    """Collects, for every tracked file of HEAD, its versions newest first (date order).

    Each commit carries the names whose simplified history reaches it, and which tracked file
    each one is (renames make them differ); ``relevant`` is every name worth parsing.
    """

    def __init__(self, head: bytes, tracked: set[bytes], trees: Trees | None = None) -> None:
        self._trees = trees
        self.tracked = frozenset(tracked)
        self.relevant = set(tracked)
        self.versions: dict[bytes, list[Version]] = {}
        self._reach: dict[bytes, _Reach] = {head: _Reach(everything=True, names={})}
        self._pending: dict[bytes, list[_PendingMerge]] = {}

    def visit(self, commit: LogCommit) -> None:
        """Account for one commit, after all of its children (``--date-order``)."""
        for merge in self._pending.pop(commit.sha, ()):
            self._settle(merge, commit)
        reach = self._reach.pop(commit.sha, None)
        if reach is None:
            return
        parents, blocks = commit.parents, commit.blocks
        if len(parents) <= 1:
            self._visit_single(commit, reach)
        elif len(blocks) == len(parents):
            self._visit_merge(commit, reach, blocks)
        elif not blocks:  # the tree of every parent: git follows the first
            self._send(parents[0], reach)
        elif len(parents) == 2:
            # -m prints nothing for a parent with the merge's own tree, so which parent this
            # block belongs to is known only once one parent's tree is seen.
            merge = _PendingMerge(commit.tree, parents, reach, frozenset(blocks[0]))
            for parent in parents:
                self._pending.setdefault(parent, []).append(merge)
        else:
            # An octopus merge with parents of its own tree (-s ours): see octopus_blocks.
            self._visit_merge(commit, reach, octopus_blocks(commit, self._trees, {}))

    def _visit_single(self, commit: LogCommit, reach: _Reach) -> None:
        names: dict[bytes, bytes | None] | None = None
        for name, change in commit.blocks[0].items() if commit.blocks else ():
            lineage = self._lineage(reach, name)
            if lineage is None:
                continue
            self._record(lineage, commit, change.blob)
            if change.source is not None:
                names = dict(reach.names) if names is None else names
                names[name] = None
                names[change.source] = lineage
                self.relevant.add(change.source)
        if commit.parents:
            self._send(
                commit.parents[0], reach if names is None else _Reach(reach.everything, names)
            )

    def _visit_merge(self, commit: LogCommit, reach: _Reach, blocks: list[_Block]) -> None:
        """A merge with a block per parent: a name in none of them follows the first parent,
        in some of them the first parent it is not in, in all of them every parent."""
        parents = commit.parents
        sent: list[dict[bytes, bytes | None]] = [dict(reach.names)] + [{} for _ in parents[1:]]
        for name in set().union(*blocks):
            lineage = self._lineage(reach, name)
            if lineage is None:
                continue
            inside = [name in block for block in blocks]
            if all(inside):
                self._record(lineage, commit, blocks[0][name].blob)
                targets = [
                    (index, block[name].source or name) for index, block in enumerate(blocks)
                ]
            else:
                targets = [(inside.index(False), name)]
            sent[0][name] = None
            for index, parent_name in targets:
                self.relevant.add(parent_name)
                sent[index][parent_name] = lineage
        for index, (parent, names) in enumerate(zip(parents, sent, strict=True)):
            self._send(parent, self._normal(index == 0 and reach.everything, names))

    def _settle(self, merge: _PendingMerge, parent: LogCommit) -> None:
        if merge.settled:
            return
        merge.settled = True
        first, second = merge.parents
        if (parent.tree == merge.tree) == (parent.sha == first):
            self._send(first, merge.reach)  # the first parent has the merge's tree
            return
        # The block is the first parent's: its names have the second parent's content.
        reach = merge.reach
        moved = {name: self._lineage(reach, name) for name in merge.names}
        self._send(first, self._normal(reach.everything, {**reach.names, **dict.fromkeys(moved)}))
        self._send(second, self._normal(False, moved))

    def _normal(self, everything: bool, names: dict[bytes, bytes | None]) -> _Reach:
        """A reach that lists only the names whose file is not the default one."""
        kept = {
            name: lineage
            for name, lineage in names.items()
            if lineage != (name if everything and name in self.tracked else None)
        }
        return _Reach(everything, kept)

    def _lineage(self, reach: _Reach, name: bytes) -> bytes | None:
        if name in reach.names:
            return reach.names[name]
        return name if reach.everything and name in self.tracked else None

    def _record(self, lineage: bytes, commit: LogCommit, blob: bytes | None) -> None:
        version = Version(commit.time, blob, not commit.parents)
        self.versions.setdefault(lineage, []).append(version)

    def _send(self, sha: bytes, reach: _Reach) -> None:
        if not reach.everything and not any(reach.names.values()):
            return
        known = self._reach.get(sha)
        self._reach[sha] = reach if known is None else self._union(known, reach)

    def _union(self, one: _Reach, other: _Reach) -> _Reach:
        """Names reached either way; a name that the two ways give to different files keeps
        the first one's (only renames on two branches can do that)."""
        names = {
            name: self._lineage(one, name) or self._lineage(other, name)
            for name in one.names.keys() | other.names.keys()
        }
        return self._normal(one.everything or other.everything, names)
