"""When each source file's reader-visible text last changed."""
# One ``git log`` pass over the whole history, then the old and new blobs of each source's changes,
# newest first.

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Collection
from dataclasses import dataclass, field

from sitemill.errors import GitError
from sitemill.lastmod.history.lastcommit import log_command
from sitemill.lastmod.history.versions import LogCommit, Version, VersionWalk, parse_raw_log
from sitemill.lastmod.sourcefiles._visibletext import visible_text
from sitemill.lastmod.sourcefiles.repository import BlobReader, Repository, as_text

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TextDate:
    """The commit that last changed a source's text: its committer time (POSIX, as the
    pages' own git dates), its sha (hex)."""

    time: int
    sha: str


@dataclass(frozen=True, slots=True)
class TextDates:
    """Each source's last text change; ``unknown``: a version git does not hold (a partial
    clone: never fetched), so no date (a source whose last text change is older than a shallow
    clone's history has none either)."""

    dates: dict[str, TextDate] = field(default_factory=dict)
    unknown: frozenset[str] = frozenset()


class _ShaWalk(VersionWalk):
    """The versions of each file (history.versions), with each version's commit."""

    def __init__(self, tracked: set[bytes]) -> None:
        super().__init__(tracked)
        self.shas: dict[bytes, list[bytes]] = {}

    def _record(self, lineage: bytes, commit: LogCommit, blob: bytes | None) -> None:
        super()._record(lineage, commit, blob)
        self.shas.setdefault(lineage, []).append(commit.sha)


def read_versions(
    repository: Repository, sources: Collection[str]
) -> tuple[dict[str, list[Version]], dict[str, list[bytes]]]:
    """Every source's versions newest first and their commits, from ONE ``git log`` (renames
    followed; in a partial clone exact renames only, which need no blob)."""
    git = repository.git()
    wanted = {os.fsencode(path): path for path in sources}
    renames = "-M100%" if repository.partial else "-M"
    command = log_command(repository.head, renames, "--raw", "--no-abbrev")
    walk = _ShaWalk(set(wanted))
    try:
        with git.stream(*command) as output:
            for commit in parse_raw_log(output.stdout, walk.relevant):
                walk.visit(commit)
    except ValueError as exc:
        raise GitError(f"unexpected git log output: {exc}") from exc
    versions = {wanted[key]: chain for key, chain in walk.versions.items() if chain[0].blob}
    shas = {wanted[key]: walk.shas[key] for key in walk.versions if wanted[key] in versions}
    return versions, shas


def read_text_dates(
    repository: Repository, reader: BlobReader, sources: Collection[str]
) -> TextDates:
    """The last commit that changed each of ``sources`` (repo-relative, held at HEAD) as a
    reader sees it (sitemill.lastmod.sourcefiles._visibletext): its versions are compared pair by
    pair, newest first, round by round (one batch of blob reads per round)."""
    versions, shas = read_versions(repository, sources)
    dates: dict[str, TextDate] = {}
    cut: set[str] = set()
    unknown: set[str] = set()
    texts: dict[bytes, bytes | None] = {}  # blob -> a digest of its reader text (None: unread)
    at = dict.fromkeys(versions, 0)  # the version whose change is looked at next
    while at:
        needed: set[bytes] = set()
        for path, index in list(at.items()):
            chain = versions[path]
            decided = _decide(chain, index, repository.shallow)
            if decided is None:
                needed.update(
                    blob for blob in (chain[index].blob, chain[index + 1].blob) if blob
                )  # (both are blobs when undecided)
                continue
            del at[path]
            if decided:
                dates[path] = TextDate(chain[index].time, shas[path][index].decode("ascii"))
            else:
                cut.add(path)
        for blob, data in reader.read(sorted(needed - texts.keys())):
            text = None if data is None else as_text(data)
            texts[blob] = None if text is None else _digest(visible_text(text))
        for path, index in list(at.items()):
            chain = versions[path]
            new, old = texts.get(chain[index].blob or b""), texts.get(chain[index + 1].blob or b"")
            if new is None or old is None:
                unknown.add(path)
                del at[path]
            elif new != old:
                dates[path] = TextDate(chain[index].time, shas[path][index].decode("ascii"))
                del at[path]
            else:
                at[path] = index + 1
    log.debug(
        "%d sources dated by their text, %d cut, %d unknown", len(dates), len(cut), len(unknown)
    )
    return TextDates(dates, frozenset(unknown))


def _digest(text: str) -> bytes:
    """What is kept of a version's reader text: enough to tell two apart, not the text."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _decide(chain: list[Version], index: int, shallow: bool) -> bool | None:
    """Whether the change at ``chain[index]`` is the text's last change without reading
    (True: the file appeared there; False: a shallow clone's cut, which shows every file as
    added, so the real change may be older), or None: its blobs are to be compared."""
    version = chain[index]
    if index + 1 == len(chain):
        return not (shallow and version.root)
    if chain[index + 1].blob is None:
        return True  # deleted before, added again here
    return None
