"""What a walk through git history reduced around its runs' stops, and what it hands back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

# Characters of reductions a chunk's walk hands back (Walked.reduced): a few pages' of a chunk
# of 64, as history.stopedits.HeldReductions holds 8 Mi of them for the parent's later rounds.
HANDED_CHARS: Final = 256 << 10


@dataclass(slots=True)
class Reductions:
    """What a walk of a few files reduced (Fingerprint's reductions): the versions around each
    run's stop, by (blob, path), and the current files it read, their bytes and reduction."""

    versions: dict[tuple[bytes, str], str] = field(default_factory=dict)
    current: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    def keep(self, blob: bytes, path: str, reduction: str) -> None:
        self.versions[blob, path] = reduction


# What names the stops of some runs (walk.NameStops) gives: the names, by edits.edit_key, and
# the older versions' reductions at the stops it named (history.stopnames).
Named = tuple[dict[str, str], dict[tuple[bytes, str], str]]


def hand(names: dict[str, str], reduced: dict[tuple[bytes, str], str], named: Named) -> None:
    """Add what ``named`` names to ``names``, and its reductions to ``reduced`` while it holds
    at most HANDED_CHARS."""
    names.update(named[0])
    room = HANDED_CHARS - sum(map(len, reduced.values()))
    for version, reduction in named[1].items():
        if len(reduction) <= room:
            reduced[version] = reduction
            room -= len(reduction)
