"""How a kind's removed and added targets pair, each with the one a move made it into."""
# history.targetmoves names an edit's targets of a kind by their moves: these are the pairs it
# names, by one move that explains them, not by their places alone.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from sitemill.lastmod.history._commonends import shared_ends

# Targets of one kind that came or went beside those one move moved, at most (_moved_beside).
BESIDE_MOVES: Final = 8
Move = Callable[[str, str], str | None]


def paired(
    gone: list[str], come: list[str], move: Move, beside: int
) -> tuple[set[str], frozenset[str]] | None:
    """The names of the moves that made the targets ``gone`` (of one kind, sorted) into
    ``come``, and those of either that no move made (they came or went); None when they are
    not moves (history.targetmoves.rewrites)."""
    if not gone or not come:
        return None
    if len(gone) != len(come):
        return _moved_beside(gone, come, move, beside)
    named = [move(old, new) for old, new in zip(gone, come, strict=True)]
    names = set(named)
    most = _most_named(named) if len(names) > 1 else None
    if most is not None and _paired_by(most, gone, come, move):
        return {most}, frozenset()
    return None if None in names else ({name for name in names if name is not None}, frozenset())


# How far from its place in sorted order a target's pair may stand (_paired_by).
_PAIRED_WITHIN: Final = 8


def _most_named(named: list[str | None]) -> str | None:
    """The move most of the sorted pairs ``named`` name (of several as many, the least)."""
    counts = Counter(name for name in named if name is not None)
    if not counts:
        return None
    most = max(counts.values())
    return min(name for name, count in counts.items() if count == most)


def _paired_by(name: str, gone: list[str], come: list[str], move: Move) -> bool:
    """Whether each of ``gone`` (sorted) pairs with one of ``come`` (sorted, as many) that the
    move ``name`` made it into, each of ``come`` once, within _PAIRED_WITHIN places of its own
    (dating rules 22, issue 79). A move of host and base path keeps no sorted order where one
    target's path is the start of another's: ``https://old.example/yubikey-ssh.html`` sorts before
    ``…/yubikey.html``, but ``/yubikey`` before ``/yubikey-ssh`` once the site's own links drop the
    ``.html``, so the i-th of each is no pair, and a list page that links both made moves of its
    own beside the site's (``-ssh``): each target is paired by the move that made it, not by its
    place."""
    free = [True] * len(come)
    for at, old in enumerate(gone):
        first, last = max(0, at - _PAIRED_WITHIN), min(len(come), at + _PAIRED_WITHIN + 1)
        found = next(
            (
                other
                for other in range(first, last)
                if free[other] and move(old, come[other]) == name
            ),
            None,
        )
        if found is None:
            return False
        free[found] = False
    return True


def _moved_beside(
    gone: list[str], come: list[str], move: Move, beside: int
) -> tuple[set[str], frozenset[str]] | None:
    """One move that made each of the fewer of ``gone`` and ``come`` (sorted) from, or into, one
    of the others, in their order, and the others, which came or went beside it (at most
    ``beside``); None when no one move does. A deploy that moved a release in each page's
    source links (``blob/1.14.1/…`` made ``blob/1.15.0-RC1/…``) and put a link to a new page
    in the sidebar every page carries made one edit on every page: that move and that link
    (issue 79, ring's Codox pages). The pair of the first of the fewer is tried from the one
    that changes least (the shortest part between their common start and end); the others pair
    in order, each with the first of the rest that one move made."""
    fewer, more = (gone, come) if len(gone) < len(come) else (come, gone)
    extra = len(more) - len(fewer)
    if extra > beside:
        return None

    def named(mine: str, other: str) -> str | None:
        return move(mine, other) if fewer is gone else move(other, mine)

    first = fewer[0]
    for at in sorted(range(extra + 1), key=lambda at: _changed(first, more[at])):
        name = named(first, more[at])
        if name is None:
            continue
        left = _left_by(name, fewer, more, named)
        if left is not None:
            return {name}, frozenset(left)
    return None


def _left_by(name: str, fewer: list[str], more: list[str], move: Move) -> list[str] | None:
    """The targets of ``more`` left when each of ``fewer`` pairs, in order, with the first of
    the rest of ``more`` that ``move`` names ``name``; None when one pairs with none."""
    left: list[str] = []
    start, skips = 0, len(more) - len(fewer)
    for token in fewer:
        found = next(
            (at for at in range(start, start + skips + 1) if move(token, more[at]) == name), None
        )
        if found is None:
            return None
        left += more[start:found]
        skips -= found - start
        start = found + 1
    return left + more[start:]


def _changed(old: str, new: str) -> int:
    """How many characters of ``old`` and ``new`` stand between their common start and end."""
    start, end = shared_ends(old, new)
    return len(old) + len(new) - 2 * (start + end)
