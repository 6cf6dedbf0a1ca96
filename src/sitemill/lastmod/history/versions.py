"""Each file's versions, newest first, from one ``git log --first-parent -m -M --raw -z``."""
# The pass runs over HEAD.
#
# A file's versions are the commits ``git log --first-parent -- file`` shows, with the blob each one
# gave the file: the branch's own history, what its readers saw and when. A merge that brings a file
# new content is a version at the merge's time, whatever the merged branch's commits say (a pull
# request's commits were made days before readers saw them); the merged branch's commits are not
# walked. A rename (``R100 old new``) carries the file's history on as ``old``.
#
# A commit is named by its committer time wherever a history is dated or counted (a stop's commit,
# the pages a commit changed, its stamps): the commits of one second are one commit. A rebase gives
# every commit it replays one committer time (a pull request merged by rebasing; issue 79: nine
# commits of one second re-rendered 86 posts twice, a new description and then new footer links),
# so a page's versions in one second are one version, the newest (one_a_second): counted once among
# the pages that commit changed, its edit the whole of what the second changed.

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, NamedTuple

from sitemill.lastmod.history.logparse import LogTokens, commit_at


class Version(NamedTuple):  # a tuple: one for each version of every file, made quickly
    """A commit that gave a file new content: its committer time, the blob (None: the commit
    deleted the file), and whether the commit has no parent (a first commit or a shallow cut)."""

    time: int
    blob: bytes | None
    root: bool


def one_a_second(chain: list[Version]) -> list[Version]:
    """A file's versions (newest first) with one for each committer time: the newest of a
    second's, a root when one of them was (see above)."""
    kept: list[Version] = []
    for version in chain:
        if kept and kept[-1].time == version.time:
            kept[-1] = kept[-1]._replace(root=kept[-1].root or version.root)
        else:
            kept.append(version)
    return kept


class Change(NamedTuple):
    """A file changed against one parent: its new blob (None: deleted), a rename's old name."""

    blob: bytes | None
    source: bytes | None = None


_Block = dict[bytes, Change]


@dataclass(slots=True)
class LogCommit:
    """One commit of the log; a merge's one block is what differs from its first parent."""

    sha: bytes
    time: int
    parents: list[bytes]
    blocks: list[_Block] = field(default_factory=list)


def parse_raw_log(stream: IO[bytes], relevant: set[bytes]) -> Iterator[LogCommit]:
    """Yield the commits of ``git log --first-parent -m --raw -z --format=%x00%H %ct %P`` output.

    Only changes to ``relevant`` names are kept (the set may grow while commits are read). A
    raw record is a meta token (``:mode mode old new status``), then one path, or two (source,
    destination) for a rename or copy; read by position, a path is never taken for a record.
    """
    commit: LogCommit | None = None
    block: dict[bytes, Change] = {}
    paths_left = 0
    header_next = new_block = False
    status = new_blob = source = b""
    tokens_read = LogTokens(stream)
    for tokens in tokens_read:
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
                ended, commit = commit_at(token, commit, LogCommit)
                if ended is not None:
                    yield ended
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
    if tokens_read.tail or paths_left:
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


class VersionWalk:
    """Collects, for every tracked file of HEAD, its versions newest first: the log lists
    HEAD's first-parent line, newest first, each commit with what it changed against its
    first parent. ``relevant`` is every name worth parsing (a renamed file's older names)."""

    def __init__(self, tracked: set[bytes]) -> None:
        self.tracked = frozenset(tracked)
        self.relevant = set(tracked)
        self.versions: dict[bytes, list[Version]] = {}
        # Which file each name below the commits seen so far is, where renames make it
        # another's (None: no tracked file's); any other tracked name is its own file.
        self._names: dict[bytes, bytes | None] = {}

    def visit(self, commit: LogCommit) -> None:
        """Account for one commit, after all of its children."""
        renamed: list[tuple[bytes, bytes, bytes]] = []
        for name, change in commit.blocks[0].items() if commit.blocks else ():
            lineage = self._lineage(name)
            if lineage is None:
                continue
            self._record(lineage, commit, change.blob)
            if change.source is not None:
                renamed.append((name, change.source, lineage))
        # Older commits know the file by its old name (after every lookup: a swap of names).
        for name, source, lineage in renamed:
            self._names[name] = None
            self._names[source] = lineage
            self.relevant.add(source)

    def _lineage(self, name: bytes) -> bytes | None:
        if name in self._names:
            return self._names[name]
        return name if name in self.tracked else None

    def _record(self, lineage: bytes, commit: LogCommit, blob: bytes | None) -> None:
        version = Version(commit.time, blob, not commit.parents)
        self.versions.setdefault(lineage, []).append(version)
