"""The git repository that holds a site folder, read at HEAD without ever fetching."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from sitemill.errors import GitError
from sitemill.git.run import Git, GitBatch
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.lastcommit import _git, _locate, _site_relative, find_work_tree
from sitemill.lastmod.sourcefiles.conventions.base import RepoView

log = logging.getLogger(__name__)

# A source file's text is read up to this many bytes (a page's source is far smaller).
MAX_SOURCE_BYTES: Final = 1 << 20
# No read may reach a remote: git 2.44+ honours GIT_NO_LAZY_FETCH; an older git would fetch a
# partial clone's missing object from its promisor remote, and with no transport allowed
# (GIT_ALLOW_PROTOCOL empty: none is on the list) that fetch fails before any connection.
# A failed lazy fetch ends git (it does not answer "missing"), so in a partial clone only the
# objects the clone holds (Repository.present) are ever asked for.
NO_FETCH_ENV: Final = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}


@dataclass(frozen=True, slots=True)
class Repository:
    """The repository holding a site: its top, HEAD, the site folder from the top ("" when the
    site is the repository itself), shallowness, and HEAD's files with their blob ids.
    ``present``: in a partial clone, every object id the clone holds (None: not partial)."""

    top: Path
    head: str
    site_dir: str
    shallow: bool
    blobs: dict[str, bytes]
    present: frozenset[bytes] | None = None

    @property
    def partial(self) -> bool:
        return self.present is not None

    def git(self) -> Git:
        """git in the repository, for reading, never fetching (NO_FETCH_ENV)."""
        git = _git(self.top)
        return replace(git, env={**git.env, **NO_FETCH_ENV})


def find_repository(site_root: Path) -> Repository | None:
    """The repository whose work tree holds ``site_root`` (the site may be untracked build
    output inside it, or a tracked folder), or None: no repository, no git, no commit yet, or
    one git refuses to read (the warning says why: safe.directory in CI)."""
    if find_work_tree(site_root) is None:
        return None
    try:
        top, head, shallow = _locate(site_root)
        site_dir = _site_relative(site_root, top)
    except GitError as exc:
        log.warning("cannot read the repository of %s: %s", site_root, exc)
        return None
    if head is None:
        return None
    git = replace(_git(top), env={**_git(top).env, **NO_FETCH_ENV})
    present = _present_objects(git) if is_partial(git) else None
    blobs = _head_blobs(git, head)
    return Repository(top, head, site_dir, shallow, blobs, present)


def is_partial(git: Git) -> bool:
    """Whether the clone is partial (a promisor remote: objects may be missing)."""
    done = git.run("config", "--get-regexp", r"^(remote\..*\.promisor|extensions\.partialclone)$")
    return any(
        value.strip().lower() not in (b"false", b"")
        for _, _, value in (line.partition(b" ") for line in done.stdout.splitlines())
    )


def _present_objects(git: Git) -> frozenset[bytes]:
    """Every object id the clone holds, listed from its own object store (no lookup, so no
    fetch): the only ones a partial clone is asked for."""
    listing = git.output(
        "cat-file", "--batch-all-objects", "--unordered", "--batch-check=%(objectname)"
    )
    return frozenset(listing.split())


def _head_blobs(git: Git, head: str) -> dict[str, bytes]:
    """Every regular file (or link) of HEAD's tree and its blob id; submodules left out."""
    listing = git.output("ls-tree", "-r", "-z", "--full-tree", head)
    blobs: dict[str, bytes] = {}
    for record in listing.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == b"blob":
            blobs[os.fsdecode(name)] = fields[2]
    return blobs


class BlobReader:
    """One long-lived ``git cat-file --batch`` of a repository, opened on the first read and
    ended by ``close()``; a blob a partial clone does not hold is never asked (None)."""

    def __init__(self, repository: Repository) -> None:
        self._repository = repository
        self._stack = ExitStack()
        self._batch: GitBatch | None = None

    def read(self, blobs: Sequence[bytes]) -> Iterator[tuple[bytes, bytes | None]]:
        """Each blob's first MAX_BLOB_BYTES (history.blobs), None when git lacks it."""
        present = self._repository.present
        asked = [blob for blob in blobs if present is None or blob in present]
        if asked:
            if self._batch is None:
                self._batch = self._stack.enter_context(
                    self._repository.git().batch("cat-file", "--batch")
                )
            yield from read_blobs(self._batch, asked)
        for blob in blobs:
            if present is not None and blob not in present:
                yield blob, None

    def text(self, path: str) -> str | None:
        """HEAD's text of ``path`` (at most MAX_SOURCE_BYTES, UTF-8); None: not a file of
        HEAD, not held, or not text."""
        blob = self._repository.blobs.get(path)
        if blob is None:
            return None
        data = next(iter(self.read([blob])))[1]
        return None if data is None else as_text(data)

    def close(self) -> None:
        self._batch = None
        self._stack.close()


def as_text(data: bytes) -> str | None:
    """A source's bytes as text (cut at MAX_SOURCE_BYTES); None for binary data."""
    data = data[:MAX_SOURCE_BYTES]
    if b"\0" in data:
        return None
    return data.decode("utf-8", "replace")


def repo_view(repository: Repository, reader: BlobReader) -> RepoView:
    """The RepoView of ``repository`` at HEAD, its texts read through ``reader``."""
    return RepoView(files=tuple(sorted(repository.blobs)), read_text=reader.text)


def tracked_paths(repository: Repository, paths: Iterable[str]) -> list[str]:
    """Those of ``paths`` (repo-relative) that HEAD holds."""
    return [path for path in paths if path in repository.blobs]
