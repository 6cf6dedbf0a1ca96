"""The root evidence of a page's date, as the state remembers it for ``sitemill why``."""
# docs/state.md, "What it remembers": per dated page its rung and, for the git rungs, the commit's
# hash (by its number in the state's table of commits); for a declared date, which declaration.
# Never a file's name: a state beside the sitemaps is public, and a source's name may be a
# draft's (`why` finds the source again from the commit).

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final


class Rung(Enum):
    """Where a date came from (docs/lastmod.md, "No date without evidence")."""

    GIT = "git"  # the page's own git history
    SOURCE = "source"  # the last text change of its source in the repository (rung 2)
    DECLARED = "declared"  # its own declared modification date (rung 3)
    FILE_TIME = "file time"  # a first run's file time or LastModified, no stamp
    DEPLOY = "deploy"  # the deploy that brought or changed it: its file time or LastModified


# A declaration's name (lastmod.declared.w3cdate's labels; not imported: a later run reads the state
# and no declared date), short printable ASCII; `why` names only one it knows.
_KIND: Final = re.compile(r"[\x20-\x7e]{1,64}")
_COMMIT: Final = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 or SHA-256


@dataclass(frozen=True, slots=True)
class Proof:
    """A date's rung and what proves it: the commit (git, source; its full hash) or the
    declaration it was read from (declared)."""

    rung: Rung
    commit: str | None = None
    kind: str | None = None


def proof_commits(proofs: Iterable[Proof]) -> list[str]:
    """The commits ``proofs`` name, sorted: the state's table of them (a commit dates many
    pages: each record names its number, 4 bytes of a state rather than 25)."""
    return sorted({proof.commit for proof in proofs if proof.commit is not None})


def proof_to_json(proof: Proof, numbers: Mapping[str, int]) -> dict[str, str | int]:
    """A proof as a state records it, its commit by its number in the table (``numbers``)."""
    values: dict[str, str | int] = {"rung": proof.rung.value}
    if proof.commit is not None:
        values["commit"] = numbers[proof.commit]
    if proof.kind is not None:
        values["kind"] = proof.kind
    return values


def commits_from_json(value: object, most: int) -> tuple[str, ...]:
    """The state's table of commits; none unless it is a list of at most ``most`` hashes."""
    if not isinstance(value, list) or len(value) > most:
        return ()
    if not all(isinstance(sha, str) and _COMMIT.fullmatch(sha) for sha in value):
        return ()
    return tuple(value)


def proof_from_json(value: Any, commits: Sequence[str]) -> Proof | None:
    """The proof a state's record holds (its commit a number in ``commits``); None unless it
    is well formed (a state is input from outside: a kind is a short printable name, a
    commit only on its rungs)."""
    if not isinstance(value, dict) or not set(value) <= {"rung", "commit", "kind"}:
        return None
    name, number, kind = value.get("rung"), value.get("commit"), value.get("kind")
    rung = next((rung for rung in Rung if rung.value == name), None)
    if rung is None:
        return None
    commit = None
    if number is not None:
        if rung not in (Rung.GIT, Rung.SOURCE) or type(number) is not int:
            return None
        if not 0 <= number < len(commits):
            return None
        commit = commits[number]
    if kind is not None and (
        rung is not Rung.DECLARED or not isinstance(kind, str) or not _KIND.fullmatch(kind)
    ):
        return None
    return Proof(rung, commit, kind)
