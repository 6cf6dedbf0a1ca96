"""Whether a missing child is one of the user's sitemaps that sitemill's own index names."""
# sitemill's index may name a sitemap of the user's that is not in the output folder: another app
# on the host serves it (docs/output.md, "The user's own sitemaps"). `validate` calls such a child
# a note, not a violation, only where it can prove the index is sitemill's: the state in the same
# folder (sitemill-state.json.gz, read bounded, as input from outside) records the MD5 of the
# index's bytes (``digests``, as each build records every file it publishes) and the index holds
# exactly those bytes; and the child's name is none sitemill gives its own files (its groups'
# children among them: the state's outputs say which groups it wrote). No state, a state kept
# elsewhere (`--state`), one that does not parse, an index edited by hand: strict, as for anyone's.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sitemill.errors import SitemillError
from sitemill.filenames.groupnames import known_groups
from sitemill.filenames.outputs import STATE_NAME, is_own_name, read_limit, stored_digest
from sitemill.safefs import read_regular


@dataclass(frozen=True, slots=True)
class _Record:
    """What the state in the folder says sitemill wrote there."""

    digests: dict[str, str]  # file name -> MD5 of its bytes as published
    groups: frozenset[str]  # the named groups whose children it wrote


class OwnIndexes:
    """The indexes of one output folder that sitemill wrote, by the state beside them (read
    once, and only when an index names a child the folder does not hold)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._record: _Record | None = None
        self._read = False
        self._indexes: dict[str, bool] = {}

    def names_users(self, index: Path, names: Sequence[str]) -> bool:
        """Whether the missing child at ``names`` (folder by folder below the folder) that
        ``index`` names is one of the user's sitemaps sitemill's own index names on purpose."""
        if len(names) == 1 and is_own_name(names[0]):
            return False
        record = self._state()
        if record is None or (len(names) == 1 and is_own_name(names[0], record.groups)):
            return False
        if index.name not in self._indexes:
            self._indexes[index.name] = _holds(index, record.digests.get(index.name))
        return self._indexes[index.name]

    def _state(self) -> _Record | None:
        if not self._read:
            self._read = True
            self._record = _read_state(self.directory / STATE_NAME)
        return self._record


def _read_state(path: Path) -> _Record | None:
    """What the state at ``path`` records; None when there is none or it cannot be read."""
    # (imported here: the state's parser and what it checks are loaded only when needed)
    from sitemill.filenames.outputs import MAX_STATE_READ_BYTES
    from sitemill.state.parse import parse_state

    try:
        data = read_regular(path, MAX_STATE_READ_BYTES, whole=True, follow_symlinks=False)
        state = parse_state(data)
    except (OSError, SitemillError):  # none, not a file, too big, not a sitemill state
        return None
    return _Record(state.digests, known_groups((), state.outputs))


def _holds(index: Path, digest: str | None) -> bool:
    """Whether the file ``index`` holds the bytes whose MD5 is ``digest``."""
    if digest is None:
        return False
    try:
        data = read_regular(index, read_limit(index.name), whole=True, follow_symlinks=False)
    except (OSError, SitemillError):
        return False
    return stored_digest(data) == digest
