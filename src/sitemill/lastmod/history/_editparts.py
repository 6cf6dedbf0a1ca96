"""An edit between two versions of a page named by its parts (history.templateedits)."""
# What it did to the title's words, to the descriptions, to the targets and to the rest, each
# named apart, so that an edit most pages of a commit made beside their own edits is found.

from __future__ import annotations

import hashlib
from typing import Final

from sitemill.lastmod.history._targetmoves import TARGET_KINDS
from sitemill.lastmod.history.edits import Moves, hash_edit, moves_of

# The parts of an edit named apart (edit_parts): the title's words, descriptions, targets, the rest.
_PARTS: Final = ("t", "D", "targets", "rest")
NO_PART: Final = "0" * 8
# An edit's sketch (edit_sketch): how many tokens it took out and put in (its first byte, at most
# 255), and each token as _SKETCH_PROBES bits of the other _SKETCH_BITS (a Bloom filter): 128 bits,
# the size of every name a state remembers. An edit of more than SKETCH_MOST tokens fills so many
# of them that it would seem to hold any other: it contains none (a page rewritten is its own).
_SKETCH_BITS: Final = 120
_SKETCH_PROBES: Final = 2
SKETCH_MOST: Final = 40


def edit_parts(newer: str, older: str, own: str = "") -> str:
    """The edit of edits.edit_of in its parts, each named in 8 hex digits, "0" * 8 for a part
    it has not: what it did to the title's words, to the descriptions, to the targets (moves
    named by the move), and to the rest (the text's words, any other mark). A page's edit is
    template when each of its parts is one most pages of the commit made, beside their own
    (history.templateedits: a release number bumped in every title, five pages of twelve
    also given a note of their own)."""
    return parts_named(moves_of(newer, older, own))


def parts_named(moves: Moves) -> str:
    """edit_parts's name of an edit from its moves (edits.moves_of)."""
    removed, added = moves
    names = []
    for part in _PARTS:
        gone = [token for token in removed if _part_of(token) == part]
        come = [token for token in added if _part_of(token) == part]
        names.append(hash_edit(gone, come)[:8] if gone or come else NO_PART)
    return "".join(names)


def part_names(parts: str) -> list[tuple[int, str]]:
    """The parts an edit_parts name holds: (the part's place, its name)."""
    found = [(at, parts[8 * at : 8 * at + 8]) for at in range(len(_PARTS))]
    return [(at, name) for at, name in found if name != NO_PART]


def _part_of(token: str) -> str:
    kind = token[:1]
    if kind == "R" or kind in TARGET_KINDS:  # (a move, of whatever kinds of target)
        return "targets"
    return kind if kind in ("t", "D") else "rest"


def edit_sketch(moves: Moves) -> str:
    """A sketch of the edit of ``moves`` (edits.moves_of), in 32 hex digits: what tells whether
    it holds another edit (contains): each token it took out and each it put in, apart."""
    removed, added = moves
    tokens = {"-" + token for token in removed} | {"+" + token for token in added}
    bits = 0
    for token in tokens:
        named = hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        for probe in range(_SKETCH_PROBES):
            bits |= 1 << (int.from_bytes(named[4 * probe : 4 * probe + 4]) % _SKETCH_BITS)
    return f"{min(len(tokens), 255):02x}{bits:030x}"


def contains(outer: str, inner: str) -> bool:
    """Whether the edit sketched ``outer`` (edit_sketch) took out and put in all that the one
    sketched ``inner`` did, and perhaps more (a page's own edit beside a release bumped on every
    page); never when ``outer`` made more than SKETCH_MOST (it would seem to hold any edit) or
    ``inner`` made nothing."""
    if len(outer) != 32 or len(inner) != 32:
        return False
    many, few = int(outer[:2], 16), int(inner[:2], 16)
    if not 0 < few <= many <= SKETCH_MOST:
        return False
    wanted = int(inner[2:], 16)
    return wanted & int(outer[2:], 16) == wanted
